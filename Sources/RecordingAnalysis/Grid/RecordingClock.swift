/// The one clock every time the tool prints is on: seconds from the grid rule's 0 (by default the
/// container's start time, as the ffmpeg CLI counts; with `-copyts`, the stored timestamps' 0).
///
/// Slot `k` of a grid starts at `(originSlot + k) / R` on this clock, and a frame's time is its
/// placement's ticks times the time base.
public struct RecordingClock: Sendable, Equatable {
    /// The stream's time base.
    public let timeBase: Rational
    /// The stream ticks that are 0 s on this clock.
    public let zeroTicks: Int64

    public init(timeBase: Rational, zeroTicks: Int64 = 0) {
        self.timeBase = timeBase
        self.zeroTicks = zeroTicks
    }

    /// Seconds on this clock of a raw stream timestamp.
    public func seconds(ofStreamTicks ticks: Int64) -> Double { Double(ticks &- zeroTicks) * timeBase.doubleValue }

    /// The raw stream timestamp of a time on this clock.
    public func streamTicks(_ time: TimeArgument) -> Int64 { zeroTicks &+ time.ticks(in: timeBase) }
}
