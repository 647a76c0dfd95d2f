/// How wall-clock times map to the recording clock (`RecordingClock`), where the mapping came from,
/// and how far it can be off.
///
/// Sources, in the order the tool prefers them:
/// 1. `--wall-origin`: the user gives the wall time of the recording's first frame;
/// 2. the probe log: where the video and a formula agree on a flip, the flip's first evaluation
///    (`walkOrigin` + its time) is the flip's first slot — off by up to one refresh;
/// 3. the container's `creation_time`: QuickTime stores whole seconds, so the first frame lies up to
///    a second after it (if the writer stored when recording started; one public QuickTime export
///    stored a time 56 s after its own `creationdate`, so this source is the weakest).
public struct WallClockMapping: Sendable, Equatable {
    public enum Source: String, Sendable {
        case wallOrigin = "wall-origin"
        case probeLog = "probe-log"
        case creationTime = "creation-time"
    }

    public let source: Source
    /// The wall time of the recording clock's 0, seconds since 2001.
    public let wallAtZero: Double
    /// How far the true recording time may lie before (−) and after (+) the mapped one, in seconds.
    public let earlier: Double
    public let later: Double
    /// What it rests on, in words.
    public let basis: String

    public init(source: Source, wallAtZero: Double, earlier: Double, later: Double, basis: String) {
        self.source = source
        self.wallAtZero = wallAtZero
        self.earlier = earlier
        self.later = later
        self.basis = basis
    }

    /// The recording-clock seconds of a wall time.
    public func recordingSeconds(_ wall: WallTime) -> Double { wall.referenceSeconds - wallAtZero }

    /// The wall time of recording-clock seconds.
    public func wall(atRecordingSeconds s: Double) -> WallTime { WallTime(referenceSeconds: wallAtZero + s) }

    /// `±17 ms`, or `−0 ms/+1000 ms` when lopsided.
    public var uncertaintyText: String {
        earlier == later
            ? "±" + Format.milliseconds(earlier * 1000) : "−\(Format.milliseconds(earlier * 1000))/+\(Format.milliseconds(later * 1000))"
    }

    /// The user's wall time of the first frame, which is at `firstFrameSeconds` on the clock.
    public static func wallOrigin(_ origin: WallTime, firstFrameSeconds: Double) -> WallClockMapping {
        WallClockMapping(
            source: .wallOrigin, wallAtZero: origin.referenceSeconds - firstFrameSeconds, earlier: 0, later: 0,
            basis: "--wall-origin \(origin.iso8601) is the first frame")
    }

    /// From the first pair of a flip the video shows and a formula predicts, both agreeing.
    public static func probeLog(_ crossCheck: CrossCheck, walkOrigin: Double?, slotSeconds: Double) -> WallClockMapping? {
        guard let walkOrigin else { return nil }
        for formula in [ProbeLog.Formula.old, .new] {
            guard let pair = crossCheck.pairs.first(where: { $0.formula == formula }), pair.agrees,
                let v = pair.video, let l = pair.log
            else { continue }
            let wallOfFlip = walkOrigin + l.startSinceOrigin
            return WallClockMapping(
                source: .probeLog, wallAtZero: wallOfFlip - v.startSeconds, earlier: slotSeconds, later: slotSeconds,
                basis:
                    "the \(formula == .old ? "legacy" : "clamped") formula's flip (log) is the video's flip at \(Format.seconds(v.startSeconds))"
            )
        }
        return nil
    }

    /// From the container's `creation_time` (whole seconds), taken as the start of the recording.
    public static func creationTime(_ text: String, firstFrameSeconds: Double) -> WallClockMapping? {
        guard let (seconds, zoned, _) = LogRecord.timestamp(Substring(text)), zoned else { return nil }
        return WallClockMapping(
            source: .creationTime, wallAtZero: seconds - firstFrameSeconds + 0.5, earlier: 0.5, later: 0.5,
            basis: "creation_time \(text) (whole seconds) taken as the first frame")
    }

    /// The best mapping the inputs allow, in the order of the type's documentation: `wallOrigin`, then
    /// the probe log's agreeing flip, then `creationTime`; nil when none applies.
    public static func best(
        wallOrigin: WallTime?, crossCheck: CrossCheck?, walkOrigin: Double?, slotSeconds: Double,
        creationTime: String?, firstFrameSeconds: Double
    ) -> WallClockMapping? {
        if let wallOrigin { return .wallOrigin(wallOrigin, firstFrameSeconds: firstFrameSeconds) }
        if let crossCheck, let m = probeLog(crossCheck, walkOrigin: walkOrigin, slotSeconds: slotSeconds) { return m }
        return creationTime.flatMap { self.creationTime($0, firstFrameSeconds: firstFrameSeconds) }
    }

    /// The `wall_clock` JSON object.
    public var json: JSONValue {
        .object([
            ("source", .string(source.rawValue)), ("wall_at_zero", .double(wallAtZero, decimals: 6)),
            ("wall_at_zero_iso", .string(WallTime(referenceSeconds: wallAtZero).iso8601)),
            ("uncertainty_before_ms", .double(earlier * 1000, decimals: 1)), ("uncertainty_after_ms", .double(later * 1000, decimals: 1)),
            ("basis", .string(basis))
        ])
    }
}
