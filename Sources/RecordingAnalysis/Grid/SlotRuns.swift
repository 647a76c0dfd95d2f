/// The runs of a slot map as they are emitted, slot after slot: what both of FFmpeg's rate
/// conversions (`CFRMap.fpsFilter`, `CFRMap.fpsModeCFR`) build.
struct SlotRuns {
    private(set) var runs: [CFRMap.Run] = []
    private var shown: Set<Int> = []

    /// Shows `source` in `count` slots from slot `k` (relative to the grid start), merging with the
    /// run before when it continues it.
    mutating func emit(_ source: Int, atSlot k: Int64, count: Int64) throws(CFRMap.Failure) {
        guard k >= 0, count > 0, k <= CFRMap.maximumSlots - count else { throw .tooManySlots(k &+ count) }
        if var last = runs.last, last.source == source, last.firstSlot + last.count == k {
            last.count += count
            runs[runs.count - 1] = last
        } else {
            runs.append(CFRMap.Run(source: source, firstSlot: k, count: count))
        }
        shown.insert(source)
    }

    func hasShown(_ source: Int) -> Bool { shown.contains(source) }
}
