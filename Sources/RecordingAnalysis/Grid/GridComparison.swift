/// Where two grids at the same rate show different source frames, compared slot by slot on the
/// same clock: the tool's grid against the ffmpeg CLI's (the same rule with FFmpeg's timestamps).
public struct GridComparison: Sendable, Equatable {
    /// Consecutive slots where the two grids show the same pair of different frames.
    public struct Difference: Sendable, Equatable {
        /// First slot on the clock (absolute: `originSlot + k`).
        public var absoluteSlot: Int64
        public var count: Int64
        /// Source frame in the first grid (nil: outside it).
        public var ours: Int?
        /// Source frame in the second grid (nil: outside it).
        public var theirs: Int?

        public init(absoluteSlot: Int64, count: Int64, ours: Int?, theirs: Int?) {
            self.absoluteSlot = absoluteSlot
            self.count = count
            self.ours = ours
            self.theirs = theirs
        }
    }

    public let rate: Rational
    /// The differing stretches in slot order.
    public let differences: [Difference]

    /// Compares `ours` with `theirs`; both must have the same rate.
    public init(ours: CFRMap, theirs: CFRMap) {
        rate = ours.rate
        var result: [Difference] = []
        var a = RunCursor(ours), b = RunCursor(theirs)
        var slot = min(a.start ?? Int64.max, b.start ?? Int64.max)
        while slot != Int64.max {
            let x = a.source(at: slot), y = b.source(at: slot)
            let next = min(a.nextChange(after: slot), b.nextChange(after: slot))
            if x != y {
                if var last = result.last, last.ours == x, last.theirs == y, last.absoluteSlot + last.count == slot {
                    last.count += next - slot
                    result[result.count - 1] = last
                } else {
                    result.append(Difference(absoluteSlot: slot, count: next - slot, ours: x, theirs: y))
                }
            }
            slot = next
        }
        differences = result
    }

    /// Whether the grids show the same frame in every slot.
    public var identical: Bool { differences.isEmpty }

    /// Number of slots that differ.
    public var differingSlots: Int64 { differences.reduce(0) { $0 + $1.count } }

    /// Seconds on the clock of absolute slot `k`.
    public func seconds(ofAbsoluteSlot k: Int64) -> Double { Double(k) * rate.inverse.doubleValue }
}

/// Walks a map's runs in slot order by absolute slot number.
private struct RunCursor {
    let map: CFRMap
    var index = 0

    init(_ map: CFRMap) { self.map = map }

    var start: Int64? { map.runs.first.map { map.originSlot + $0.firstSlot } }
    private var end: Int64 { map.originSlot + map.slotCount }

    /// The source shown at absolute slot `k` (k never decreases between calls).
    mutating func source(at k: Int64) -> Int? {
        while index < map.runs.count, map.originSlot + map.runs[index].firstSlot + map.runs[index].count <= k { index += 1 }
        guard index < map.runs.count, map.originSlot + map.runs[index].firstSlot <= k else { return nil }
        return map.runs[index].source
    }

    /// The first absolute slot after `k` where what this map shows may change (Int64.max: never).
    func nextChange(after k: Int64) -> Int64 {
        guard let start, !map.runs.isEmpty else { return Int64.max }
        if k < start { return start }
        if k >= end { return Int64.max }
        let run = map.runs[index]
        return map.originSlot + run.firstSlot + run.count
    }
}
