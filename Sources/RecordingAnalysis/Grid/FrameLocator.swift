/// Finds the frame shown at a time, on either clock: the constant-rate grid, or raw pts as a
/// pts-based cut (`trim=start=T`) would.
public struct FrameLocator: Sendable {
    public let frames: [FrameTiming]
    public let timeBase: Rational
    public let map: CFRMap
    /// Pts of the recording clock's 0: the first decoded frame's pts.
    public let originPTS: Int64

    public init(frames: [FrameTiming], timeBase: Rational, map: CFRMap) {
        self.frames = frames
        self.timeBase = timeBase
        self.map = map
        originPTS = frames.lazy.compactMap(\.pts).first ?? 0
    }

    /// The slot and source frame the constant-rate grid shows at `time` (slot floor(time × R)).
    public func onGrid(_ time: TimeArgument) -> (slot: Int64, source: Int)? {
        let slot = time.slot(at: map.rate)
        return map.source(atSlot: slot).map { (slot, $0) }
    }

    /// What `trim=start=TIME` starts with: the first frame in decoder output order whose pts is at
    /// or after TIME on the recording clock.
    public func byPTS(_ time: TimeArgument) -> Int? {
        let target = originPTS &+ time.ticks(in: timeBase)
        return frames.first { ($0.pts ?? Int64.min) >= target }?.index
    }

    /// Seconds of a frame's pts on the recording clock, for display.
    public func seconds(ofSource index: Int) -> Double? {
        guard frames.indices.contains(index), let pts = frames[index].pts else { return nil }
        return Double(pts &- originPTS) * timeBase.doubleValue
    }

    /// `N` consecutive slots centred on `time`, clipped to the grid.
    public func slots(around time: TimeArgument, count: Int) -> [Int64] {
        guard count > 0, map.slotCount > 0 else { return [] }
        let centre = time.slot(at: map.rate)
        var first = centre - Int64(count / 2)
        first = max(0, min(first, map.slotCount - Int64(count)))
        let last = min(map.slotCount, first + Int64(count))
        return Array(first..<last)
    }
}
