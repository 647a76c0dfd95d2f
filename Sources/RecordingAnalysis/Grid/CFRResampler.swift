/// Places decoded frames on the constant-rate grid by a `GridRule`: chooses the timestamps, shifts
/// them to the rule's clock, and runs the rule's method (`CFRMap.fpsFilter` or `CFRMap.fpsModeCFR`).
///
/// With FFmpeg's timestamps (`GridRule.Timestamps.ffmpeg`) every frame is placed by its
/// `best_effort_timestamp`, in decoder output order: exactly the ffmpeg CLI. With repaired
/// timestamps (the default), monotonic pts are used as they are (identical to FFmpeg), and where pts
/// run backwards the clock is repaired instead of letting `best_effort_timestamp` switch to dts and
/// drop the frame that was presented late:
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
        /// FFmpeg's `best_effort_timestamp`, in decoder output order, as the ffmpeg CLI.
        case bestEffort = "best-effort"
    }

    public let map: CFRMap
    public let clock: Clock
    /// The rule the grid was built by.
    public let rule: GridRule
    /// The clock every printed time is on: the rule's 0.
    public let recordingClock: RecordingClock
    /// Each frame's time on `recordingClock` (ticks from its 0) as the grid placed it, by
    /// decoder-output index; nil for a frame without that timestamp.
    public let placement: [Int64?]
    /// Plain-language warnings about how the grid was built.
    public let warnings: [String]

    /// Facts about the stream the rule needs besides the frames.
    public struct Stream: Sendable {
        public var timeBase: Rational
        /// Ticks used for the last frame when it has no duration (FFmpeg falls back to the frame rate).
        public var fallbackDuration: Int64
        /// `av_guess_frame_rate`'s answer, for `fps-mode-cfr`.
        public var frameRate: Rational?
        /// Whether the stream has a start time (`fps-mode-cfr` caps a frame's default length then).
        public var hasStartTime: Bool
        /// The container's start time in microseconds, the 0 of the default origin.
        public var containerStartMicroseconds: Int64?

        public init(
            timeBase: Rational, fallbackDuration: Int64 = 0, frameRate: Rational? = nil, hasStartTime: Bool = true,
            containerStartMicroseconds: Int64? = nil
        ) {
            self.timeBase = timeBase
            self.fallbackDuration = fallbackDuration
            self.frameRate = frameRate
            self.hasStartTime = hasStartTime
            self.containerStartMicroseconds = containerStartMicroseconds
        }
    }

    /// Maps `frames` (decoder output order) to a grid of `rate` frames per second by `rule`.
    public init(
        frames: [FrameTiming], stream: Stream, rate: Rational, hasBFrames: Bool,
        rule: GridRule = GridRule()
    ) throws(CFRMap.Failure) {
        let timeBase = stream.timeBase
        let zero = rule.zeroTicks(containerStartMicroseconds: stream.containerStartMicroseconds, timeBase: timeBase)
        recordingClock = RecordingClock(timeBase: timeBase, zeroTicks: zero)
        self.rule = rule
        let chosen = CFRResampler.chooseClock(frames, rule: rule, hasBFrames: hasBFrames)
        clock = chosen.clock
        warnings = chosen.warnings
        let time: (FrameTiming) -> Int64? = { f in
            let t: Int64?
            switch chosen.clock {
            case .pts, .sortedPTS: t = f.pts
            case .dts: t = f.dts
            case .bestEffort: t = f.bestEffort
            }
            return t.map { $0 &- zero }
        }
        placement = frames.map(time)
        let ordered =
            chosen.clock == .sortedPTS
            ? frames.filter { $0.pts != nil }.sorted { ($0.pts ?? 0, $0.index) < ($1.pts ?? 0, $1.index) }
            : frames
        switch rule.method {
        case .fpsFilter:
            var end: Int64?
            if let last = ordered.last, let lastTime = time(last) {
                let duration = last.duration > 0 ? last.duration : stream.fallbackDuration
                end = CFRResampler.endOfStream(lastTime, duration: duration, timeBase: timeBase)
            }
            map = try CFRMap.fpsFilter(
                ordered.map { CFRMap.Input(source: $0.index, pts: time($0)) },
                timeBase: timeBase, rate: rate, endPTS: end)
        case .fpsModeCFR:
            map = try CFRMap.fpsModeCFR(
                ordered.map { CFRMap.TimedInput(source: $0.index, pts: time($0), duration: $0.duration) },
                timeBase: timeBase, rate: rate, streamFrameRate: stream.frameRate,
                hasStartTime: stream.hasStartTime)
        }
    }

    /// Which timestamps place the frames under `rule`, and the warnings that choice carries.
    private static func chooseClock(_ frames: [FrameTiming], rule: GridRule, hasBFrames: Bool) -> (clock: Clock, warnings: [String]) {
        if rule.timestamps == .ffmpeg { return (.bestEffort, []) }
        var previous: Int64?
        var repeats = 0, backwards = 0, missing = 0
        for f in frames {
            guard let p = f.pts else {
                missing += 1
                continue
            }
            if let q = previous { if p == q { repeats += 1 } else if p < q { backwards += 1 } }
            previous = p
        }
        if repeats == 0 && backwards == 0 && missing == 0 { return (.pts, []) }
        var faults: [String] = []
        if repeats > 0 { faults.append("\(repeats) repeat\(repeats == 1 ? "s" : "")") }
        if backwards > 0 { faults.append("\(backwards) step\(backwards == 1 ? "s" : "") back") }
        if missing > 0 { faults.append("\(missing) missing") }
        let what = "pts are not strictly increasing in output order (" + faults.joined(separator: ", ") + ")"
        var dtsUsable = !hasBFrames
        if dtsUsable {
            var prevDTS: Int64?
            for f in frames {
                guard let d = f.dts, prevDTS.map({ d > $0 }) ?? true else {
                    dtsUsable = false
                    break
                }
                prevDTS = d
            }
        }
        if dtsUsable {
            return (.dts, [what + "; frames were placed by their dts, which increase in this stream without B-frames"])
        }
        let why = hasBFrames ? "with B-frames dts are decode times, not presentation times" : "dts do not increase either"
        return (
            .sortedPTS,
            [
                what + "; \(why), so frames were placed in pts order"
                    + (missing > 0 ? " and the \(missing) frame(s) without pts were left out" : "")
            ]
        )
    }

    /// The end-of-stream time FFmpeg's CLI hands the filter: the last frame's time plus its duration,
    /// added in microseconds and rescaled back to the stream's time base.
    static func endOfStream(_ time: Int64, duration: Int64, timeBase: Rational) -> Int64 {
        let micro = Rational(1, 1_000_000)
        let sum = rescale(time, from: timeBase, to: micro).addingReportingOverflow(rescale(duration, from: timeBase, to: micro))
        return rescale(sum.overflow ? Int64.max : sum.partialValue, from: micro, to: timeBase)
    }
}
