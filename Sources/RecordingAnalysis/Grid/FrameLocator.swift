/// Finds the frame shown at a time on the recording clock (`RecordingClock`), on either footing:
/// the constant-rate grid, or raw pts as a pts-based cut (`trim=start=T`) would.
public struct FrameLocator: Sendable {
    public let frames: [FrameTiming]
    public let map: CFRMap
    public let clock: RecordingClock

    public init(frames: [FrameTiming], map: CFRMap, clock: RecordingClock) {
        self.frames = frames
        self.map = map
        self.clock = clock
    }

    /// The slot and source frame the constant-rate grid shows at `time`.
    public func onGrid(_ time: TimeArgument) -> (slot: Int64, source: Int)? {
        let slot = map.slot(at: time)
        return map.source(atSlot: slot).map { (slot, $0) }
    }

    /// What `trim=start=TIME` starts with: the first frame in decoder output order whose pts is at
    /// or after TIME on the recording clock.
    public func byPTS(_ time: TimeArgument) -> Int? {
        let target = clock.streamTicks(time)
        return frames.first { ($0.pts ?? Int64.min) >= target }?.index
    }

    /// Seconds of a frame's pts on the recording clock, for display.
    public func seconds(ofSource index: Int) -> Double? {
        guard frames.indices.contains(index), let pts = frames[index].pts else { return nil }
        return clock.seconds(ofStreamTicks: pts)
    }

    /// `N` consecutive slots centred on `time`, clipped to the grid.
    public func slots(around time: TimeArgument, count: Int) -> [Int64] {
        guard count > 0, map.slotCount > 0 else { return [] }
        let centre = map.slot(at: time)
        var first = centre - Int64(count / 2)
        first = max(0, min(first, map.slotCount - Int64(count)))
        let last = min(map.slotCount, first + Int64(count))
        return Array(first..<last)
    }
}
