extension CFRMap {
    /// One input of the output rate conversion: a frame, its timestamp and its packet duration.
    public struct TimedInput: Sendable, Equatable {
        public var source: Int
        /// Timestamp in the stream's time base; nil: none (the frame is dropped).
        public var pts: Int64?
        /// The frame's packet duration in ticks (`pkt_duration`), 0 when unknown.
        public var duration: Int64

        public init(source: Int, pts: Int64?, duration: Int64) {
            self.source = source
            self.pts = pts
            self.duration = duration
        }
    }

    /// Runs the ffmpeg 5.1 CLI's output rate conversion, `ffmpeg -i REC -fps_mode cfr -r R` without
    /// filters (fftools/ffmpeg.c, `do_video_out` with `VSYNC_CFR`):
    ///
    /// - a frame's time in output ticks is computed in floating point with extra precision and nudged
    ///   by 2⁻¹⁷ away from zero (`adjust_frame_pts_to_encoder_tb`);
    /// - its length is its packet duration in output ticks when that rounds to at least 1, otherwise
    ///   R / the stream's frame rate (at most 1 slot when the stream has a start time);
    /// - with `delta0` = time − next output slot and `delta` = `delta0` + length: the frame is dropped
    ///   when `delta` < −1.1, shown `llrintf(delta)` times when `delta` > 1.1 (the first
    ///   `llrintf(delta0 − 0.6)` of those repeat the previous frame when `delta0` > 1.1), else once;
    /// - at the end, the last frame is repeated the median of the last three repeat counts.
    ///
    /// The grid starts at time 0 on the clock (`originSlot` 0), not at the first frame.
    /// `streamFrameRate` is `av_guess_frame_rate`'s answer; `hasStartTime` whether the stream has one.
    public static func fpsModeCFR(
        _ inputs: [TimedInput], timeBase: Rational, rate: Rational,
        streamFrameRate: Rational?, hasStartTime: Bool
    ) throws(Failure) -> CFRMap {
        let outBase = rate.inverse
        let conversion = OutputTicks(timeBase: timeBase, outBase: outBase)
        let outSeconds = outBase.doubleValue
        // The length of a frame without a usable packet duration.
        var defaultLength = 0.0
        if let fr = streamFrameRate, fr.numerator > 0, fr.denominator > 0 {
            defaultLength = 1 / (fr.doubleValue * outSeconds)
        }
        if hasStartTime { defaultLength = min(defaultLength, 1 / (rate.doubleValue * outSeconds)) }

        var runs = SlotRuns()
        var nextSlot: Int64 = 0
        var lastRepeats = [Int64](repeating: 0, count: 3)
        var previous: Int?
        var anyTimestamp = false

        func show(_ source: Int, times: Int64) throws(Failure) {
            guard times > 0 else { return }
            try runs.emit(source, atSlot: nextSlot, count: times)
            nextSlot += times
        }

        for input in inputs {
            let syncIPTS: Double
            if let pts = input.pts {
                anyTimestamp = true
                syncIPTS = conversion.preciseTicks(pts)
            } else {
                syncIPTS = Double(Int64.min)  // AV_NOPTS_VALUE as a double: far in the past
            }
            var length = defaultLength
            let packetLength = OutputTicks.lrintf(Double(input.duration) * timeBase.doubleValue / outSeconds)
            if packetLength > 0 { length = Double(packetLength) }
            var delta0 = syncIPTS - Double(nextSlot)
            let delta = delta0 + length
            if delta0 < 0 && delta > 0 { delta0 = 0 }  // "clipping frame in rate conversion"
            var count: Int64 = 1
            var repeatsOfPrevious: Int64 = 0
            if delta < -1.1 {
                count = 0
            } else if delta > 1.1 {
                count = OutputTicks.lrintf(delta)
                if delta0 > 1.1 { repeatsOfPrevious = OutputTicks.lrintf(delta0 - 0.6) }
            }
            guard nextSlot <= CFRMap.maximumSlots - count else { throw .tooManySlots(nextSlot &+ count) }
            repeatsOfPrevious = min(repeatsOfPrevious, count)
            lastRepeats = [repeatsOfPrevious, lastRepeats[0], lastRepeats[1]]
            if let previous {
                try show(previous, times: repeatsOfPrevious)
                try show(input.source, times: count - repeatsOfPrevious)
            } else {
                try show(input.source, times: count)
            }
            previous = input.source
        }
        // Flush: the last frame again, the median of the last three repeat counts.
        if let previous {
            let sorted = lastRepeats.sorted()
            try show(previous, times: sorted[1])
        }
        guard anyTimestamp else { throw .noTimestamps }
        let shown = Set(runs.runs.map(\.source))
        let dropped = inputs.map(\.source).filter { !shown.contains($0) }
        return CFRMap(rate: rate, originSlot: 0, runs: runs.runs, dropped: dropped)
    }
}

/// Stream ticks to output ticks as `adjust_frame_pts_to_encoder_tb` computes them: an integer rescale
/// to an output time base refined by extra bits, divided back in floating point, then nudged by 2⁻¹⁷
/// away from zero to avoid exact midpoints (zero itself counts as negative, as `FFSIGN` has it).
struct OutputTicks {
    let timeBase: Rational
    let refined: Rational
    let extraBits: Int

    init(timeBase: Rational, outBase: Rational) {
        self.timeBase = timeBase
        let log2Den = Int64.bitWidth - 1 - outBase.denominator.leadingZeroBitCount
        extraBits = max(0, min(16, 29 - log2Den))
        refined = Rational(outBase.numerator, outBase.denominator << extraBits)
    }

    /// C's `lrintf`: the value as a `float`, rounded to nearest, ties to even (clamped to Int64).
    static func lrintf(_ x: Double) -> Int64 {
        let f = Float(x).rounded(.toNearestOrEven)
        guard f.isFinite else { return f > 0 ? Int64.max : Int64.min }
        if f >= 9.2e18 { return Int64.max }
        if f <= -9.2e18 { return Int64.min }
        return Int64(f)
    }

    func preciseTicks(_ pts: Int64) -> Double {
        var ticks = Double(rescale(pts, from: timeBase, to: refined))
        ticks /= Double(1 << extraBits)
        ticks += (ticks > 0 ? 1 : -1) * 1.0 / Double(1 << 17)
        return ticks
    }
}
