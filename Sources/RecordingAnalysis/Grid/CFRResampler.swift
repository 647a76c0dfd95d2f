/// Chooses the timestamps that place decoded frames on the constant-rate grid, then builds the
/// grid with `CFRMap.fpsFilter`.
///
/// On monotonic pts this is exactly `ffmpeg -i REC -vf fps=R`. On non-monotonic pts FFmpeg's CLI
/// feeds `best_effort_timestamp`, which switches to dts after the first faulty pts and so drops the
/// frame that was presented late. This tool instead repairs the clock, and says so:
/// - without B-frame reordering and with monotonic dts, every frame is placed by its dts (the order
///   and times the recorder wrote the frames in);
/// - otherwise frames are placed in pts order (stable, decoder order breaks ties); frames without
///   pts are left out.
public struct CFRResampler: Sendable {
    /// Which timestamps placed the frames on the grid.
    public enum Clock: String, Sendable {
        /// The frames' pts, in decoder output order (monotonic input; identical to FFmpeg).
        case pts
        /// The packets' dts, because pts run backwards and dts do not.
        case dts
        /// The frames' pts, sorted: pts run backwards and dts cannot replace them.
        case sortedPTS = "sorted-pts"
    }

    public let map: CFRMap
    public let clock: Clock
    /// Plain-language warnings about how the grid was built.
    public let warnings: [String]

    /// Maps `frames` (decoder output order) to a grid of `rate` frames per second.
    /// `fallbackDuration` (ticks) is used for the last frame when it has no duration, as FFmpeg falls
    /// back to the stream's frame rate.
    public init(frames: [FrameTiming], timeBase: Rational, rate: Rational, hasBFrames: Bool,
                fallbackDuration: Int64 = 0) throws(CFRMap.Failure) {
        var previous: Int64?
        var monotonic = true
        for f in frames {
            guard let p = f.pts else { monotonic = false; break }
            if let q = previous, p <= q { monotonic = false; break }
            previous = p
        }
        var dtsUsable = !hasBFrames
        if dtsUsable {
            var prevDTS: Int64?
            for f in frames {
                guard let d = f.dts, prevDTS.map({ d > $0 }) ?? true else { dtsUsable = false; break }
                prevDTS = d
            }
        }
        var warnings: [String] = []
        let inputs: [CFRMap.Input]
        let last: FrameTiming?
        let lastTime: Int64?
        if monotonic {
            clock = .pts
            inputs = frames.map { CFRMap.Input(source: $0.index, pts: $0.pts) }
            last = frames.last
            lastTime = last?.pts
        } else if dtsUsable {
            clock = .dts
            inputs = frames.map { CFRMap.Input(source: $0.index, pts: $0.dts) }
            last = frames.last
            lastTime = last?.dts
            warnings.append("pts are not monotonic; frames were placed by their dts, which run monotonic in this stream without B-frames (ffmpeg -vf fps would drop the late frames instead)")
        } else {
            clock = .sortedPTS
            let usable = frames.filter { $0.pts != nil }.sorted { ($0.pts ?? 0, $0.index) < ($1.pts ?? 0, $1.index) }
            inputs = usable.map { CFRMap.Input(source: $0.index, pts: $0.pts) }
            last = usable.last
            lastTime = last?.pts
            let missing = frames.count - usable.count
            warnings.append("pts are not monotonic and dts cannot replace them; frames were placed in pts order"
                            + (missing > 0 ? " and \(missing) frame(s) without pts were left out" : ""))
        }
        var end: Int64?
        if let last, let lastTime {
            let duration = last.duration > 0 ? last.duration : fallbackDuration
            end = CFRResampler.endOfStream(lastTime, duration: duration, timeBase: timeBase)
        }
        map = try CFRMap.fpsFilter(inputs, timeBase: timeBase, rate: rate, endPTS: end)
        self.warnings = warnings
    }

    /// The time each frame was placed at on the grid (pts or dts by `clock`), indexed by decoder-output index.
    public static func placement(of frames: [FrameTiming], clock: Clock) -> [Int64?] {
        frames.map { clock == .dts ? $0.dts : $0.pts }
    }

    /// The end-of-stream time FFmpeg's CLI hands the filter: the last frame's time plus its duration,
    /// added in microseconds and rescaled back to the stream's time base.
    static func endOfStream(_ time: Int64, duration: Int64, timeBase: Rational) -> Int64 {
        let micro = Rational(1, 1_000_000)
        let sum = rescale(time, from: timeBase, to: micro).addingReportingOverflow(rescale(duration, from: timeBase, to: micro))
        return rescale(sum.overflow ? Int64.max : sum.partialValue, from: micro, to: timeBase)
    }
}
