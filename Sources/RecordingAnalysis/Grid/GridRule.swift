/// The grid rule: which FFmpeg command the constant-rate grid reproduces, slot for slot.
///
/// Three independent choices, each named after what a user types into ffmpeg:
/// - **method**: the `fps` filter (`-vf fps=R`, the default) or the output rate conversion
///   (`-fps_mode cfr -r R`, the seed article's command), which duplicate and drop by different rules;
/// - **timestamps**: the stream's pts repaired where they run backwards (the default: frames are
///   placed where they were presented), or FFmpeg's own `best_effort_timestamp` (exactly what the
///   ffmpeg CLI does, faults included);
/// - **origin**: timestamps shifted by the container's start time, as plain ffmpeg does (the
///   default), or kept absolute, as `ffmpeg -copyts` does.
///
/// Every time the tool prints is on the clock this rule defines (`RecordingClock`).
public struct GridRule: Sendable, Equatable {
    /// How frames become slots.
    public enum Method: String, Sendable, CaseIterable {
        /// libavfilter's `fps` filter: `ffmpeg -i REC -vf fps=R`.
        case fpsFilter = "fps-filter"
        /// The ffmpeg CLI's output rate conversion: `ffmpeg -i REC -fps_mode cfr -r R`.
        case fpsModeCFR = "fps-mode-cfr"
    }

    /// Which timestamps place the frames.
    public enum Timestamps: String, Sendable, CaseIterable {
        /// The frames' pts; where they run backwards, repaired (see `CFRResampler`).
        case repaired
        /// FFmpeg's `best_effort_timestamp`, unrepaired: what the ffmpeg CLI does.
        case ffmpeg
    }

    /// Where the clock's 0 is.
    public enum Origin: String, Sendable, CaseIterable {
        /// The container's start time is 0, as the ffmpeg CLI shifts every timestamp by default.
        case containerStart = "start"
        /// Timestamps as stored, as `ffmpeg -copyts`.
        case absolute = "copyts"
    }

    public var method: Method
    public var timestamps: Timestamps
    public var origin: Origin

    public init(method: Method = .fpsFilter, timestamps: Timestamps = .repaired, origin: Origin = .containerStart) {
        self.method = method
        self.timestamps = timestamps
        self.origin = origin
    }

    /// This rule with FFmpeg's own timestamps: the command it names, exactly.
    public var withFFmpegTimestamps: GridRule {
        var rule = self
        rule.timestamps = .ffmpeg
        return rule
    }

    /// The ffmpeg command this rule reproduces at `rate` (with FFmpeg's timestamps).
    public func ffmpegCommand(rate: Rational) -> String {
        let r = rate.denominator == 1 ? String(rate.numerator) : rate.description
        let input = origin == .absolute ? "ffmpeg -copyts -i REC" : "ffmpeg -i REC"
        switch method {
        case .fpsFilter: return "\(input) -vf fps=\(r)"
        case .fpsModeCFR: return "\(input) -fps_mode cfr -r \(r)"
        }
    }

    /// The clock ticks that become 0 on this rule's clock for a stream in `timeBase` whose container
    /// starts at `containerStartMicroseconds`: FFmpeg rescales the start time to the stream's time base
    /// (rounding to nearest) and subtracts it from every packet.
    public func zeroTicks(containerStartMicroseconds: Int64?, timeBase: Rational) -> Int64 {
        guard origin == .containerStart, let start = containerStartMicroseconds else { return 0 }
        return rescale(start, from: Rational(1, 1_000_000), to: timeBase)
    }
}
