import RecordingAnalysis

/// The ground truth written beside each sample capture.
public struct SampleTruth: Sendable {
    /// A transient mirror flip or a lasting turn seen on the 60 Hz vsync grid.
    public struct Flip: Sendable, Equatable {
        public var startVsync: Int
        public var vsyncs: Int
        public var sourceFrames: Int
        public var sourceDurationTicks: Int64
    }

    /// A lasting change of facing.
    public struct Turn: Sendable, Equatable {
        public var vsync: Int
        public var facingRight: Bool
    }

    /// A predicted flip from the probe log: wall time of its first evaluation and its length.
    public struct PredictedFlip: Sendable, Equatable {
        public var startWall: Double
        public var durationMS: Double
    }

    public static let transientVsyncs = 30  // 500 ms at 60 Hz

    public let simulation: CaptureSimulation
    /// Per emitted frame: pts after any timestamp edits (decoder output order).
    public let framePTS: [Int64]
    /// Per emitted frame: dts (the untouched vsync pts).
    public let frameDTS: [Int64]
    public let nonMonotonic: [Int]
    public let duplicates: [Int]
    public let flips: [Flip]
    public let turns: [Turn]

    /// Truth for `simulation`, with `ptsEdits[i]` replacing frame i's pts.
    public init(_ simulation: CaptureSimulation, ptsEdits: [Int: Int64] = [:]) {
        self.simulation = simulation
        let original = simulation.framePTS
        frameDTS = original
        var pts = original
        for (i, v) in ptsEdits { pts[i] = v }
        framePTS = pts
        nonMonotonic = pts.indices.dropFirst().filter { pts[$0] < pts[$0 - 1] }
        duplicates = pts.indices.dropFirst().filter { pts[$0] == pts[$0 - 1] }
        let facing = simulation.screens.map(\.facingRight)
        let emitted = simulation.emittedVsyncs
        var flips: [Flip] = []
        var turns: [Turn] = []
        var k = 1
        while k < facing.count {
            guard facing[k] != facing[k - 1] else {
                k += 1
                continue
            }
            var end = k
            while end < facing.count && facing[end] == facing[k] { end += 1 }
            let length = end - k
            if end < facing.count && length <= SampleTruth.transientVsyncs {
                let frames = emitted.filter { $0 >= k && $0 < end }
                let firstFrame = emitted.firstIndex(of: frames.first ?? k) ?? 0
                let after = firstFrame + frames.count < emitted.count ? emitted[firstFrame + frames.count] : simulation.vsyncCount
                flips.append(
                    Flip(
                        startVsync: k, vsyncs: length, sourceFrames: frames.count,
                        sourceDurationTicks: Int64(after - (frames.first ?? k)) * 10))
                k = end + 1
                continue
            }
            turns.append(Turn(vsync: k, facingRight: facing[k]))
            k = end
        }
        self.flips = flips
        self.turns = turns
    }

    /// What the probe log predicts for each formula: runs of evaluations facing the other way, from
    /// the `now` of the first to the `now` of the first evaluation facing back, when that run is
    /// transient (shorter than 500 ms).
    public static func predictedFlips(_ simulation: CaptureSimulation, formula: WalkFormula) -> [PredictedFlip] {
        let probed = simulation.probed
        let facing = probed.map {
            WalkFormula.facesRight(phase: formula.phase(elapsed: $0.elapsed ?? 0, period: simulation.script.walkPeriod))
        }
        var result: [PredictedFlip] = []
        var i = 0
        let initial = true
        var previous = initial
        while i < probed.count {
            if facing[i] != previous {
                var j = i
                while j < probed.count && facing[j] == facing[i] { j += 1 }
                if j < probed.count {
                    let ms = (probed[j].now - probed[i].now) * 1000
                    if ms <= 500 {
                        result.append(PredictedFlip(startWall: probed[i].now, durationMS: ms))
                        i = j
                        continue
                    }
                }
                previous = facing[i]
                i = j
                continue
            }
            i += 1
        }
        return result
    }

    /// The truth document.
    public func json(file: String, codec: String, logFile: String?, bFrames: Bool) -> JSONValue {
        let sim = simulation
        let rate = Double(CaptureSimulation.refreshRate)
        func ms(_ vsyncs: Int) -> JSONValue { .double(Double(vsyncs) * 1000 / rate, decimals: 3) }
        let tapVsync = sim.evaluations.first { $0.probeNumber == 1 }?.appearsAtVsync ?? 0
        let orientation = sim.screens.map { $0.facingRight ? "R" : "L" }.joined()
        var predicted: [(String, JSONValue)] = []
        for formula in WalkFormula.allCases {
            predicted.append(
                (
                    formula.rawValue,
                    .array(
                        SampleTruth.predictedFlips(sim, formula: formula).map {
                            .object([
                                ("start_wall", .double($0.startWall, decimals: 5)), ("duration_ms", .double($0.durationMS, decimals: 3))
                            ])
                        })
                ))
        }
        return .object([
            ("file", .string(file)),
            ("codec", .string(codec)),
            ("b_frames", .bool(bFrames)),
            ("width", .int(Int64(SnailScene.width))),
            ("height", .int(Int64(SnailScene.height))),
            ("time_base", .string("1/\(CaptureSimulation.timeScale)")),
            ("refresh_hz", .int(Int64(CaptureSimulation.refreshRate))),
            ("vsyncs", .int(Int64(sim.vsyncCount))),
            ("duration_s", .double(Double(sim.vsyncCount) / rate, decimals: 6)),
            ("formula", .string(sim.script.formula.rawValue)),
            ("walk_period_s", .double(sim.script.walkPeriod, decimals: 3)),
            ("wall_start", .double(sim.script.wallStart, decimals: 5)),
            ("walk_origin", .double(sim.walkOrigin, decimals: 5)),
            ("tap_s", .double(sim.walkOrigin - sim.script.wallStart, decimals: 6)),
            ("tap_appears_s", .double(Double(tapVsync) / rate, decimals: 6)),
            ("frames", .int(Int64(framePTS.count))),
            ("frame_pts", .array(framePTS.map { .int($0) })),
            ("frame_dts", .array(frameDTS.map { .int($0) })),
            ("frame_vsync", .array(sim.emittedVsyncs.map { .int(Int64($0)) })),
            ("frame_facing", .array(sim.emittedVsyncs.map { .string(sim.screens[$0].facingRight ? "right" : "left") })),
            ("non_monotonic", .array(nonMonotonic.map { .int(Int64($0)) })),
            ("duplicates", .array(duplicates.map { .int(Int64($0)) })),
            ("vsync_facing", .string(orientation)),
            (
                "flips",
                .array(
                    flips.map { f in
                        .object([
                            ("start_s", .double(Double(f.startVsync) / rate, decimals: 6)),
                            ("end_s", .double(Double(f.startVsync + f.vsyncs) / rate, decimals: 6)),
                            ("duration_ms", ms(f.vsyncs)), ("cfr_frames", .int(Int64(f.vsyncs))),
                            ("source_frames", .int(Int64(f.sourceFrames))),
                            ("source_duration_ms", .double(Double(f.sourceDurationTicks) * 1000 / 600, decimals: 3))
                        ])
                    })
            ),
            (
                "turns",
                .array(
                    turns.map {
                        .object([
                            ("at_s", .double(Double($0.vsync) / rate, decimals: 6)),
                            ("facing", .string($0.facingRight ? "right" : "left"))
                        ])
                    })
            ),
            (
                "log",
                .optional(logFile) { log in
                    .object([
                        ("file", .string(log)),
                        ("evaluations", .int(Int64(sim.probed.count))),
                        ("skew_samples", .int(Int64(sim.baseline.count))),
                        ("predicted", .object(predicted))
                    ])
                }
            )
        ])
    }
}
