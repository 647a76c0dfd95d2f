/// A coded picture's place in presentation order as its slice header states it: the picture order
/// count (POC) that H.264 and HEVC decoders output pictures by, read without decoding.
public struct PictureOrder: Sendable, Equatable {
    /// Picture order count, relative to the last IDR picture.
    public var count: Int
    /// A picture the decoder marks a key frame: an IDR picture (H.264), a random-access one (HEVC).
    public var isKey: Bool

    public init(count: Int, isKey: Bool) {
        self.count = count
        self.isKey = isKey
    }

    /// The order a decoder outputs `pictures` (decode order) in, as indices into `pictures`: within
    /// each coded video sequence (a key picture with POC 0 starts the next one, and the decoder
    /// flushes the previous one first) pictures come out by increasing POC. Nil when the counts do
    /// not define an order (two pictures of one sequence share a POC): then only decoding can tell.
    public static func outputOrder(_ pictures: [PictureOrder]) -> [Int]? {
        var order: [Int] = []
        order.reserveCapacity(pictures.count)
        var sequence: [Int] = []
        var seen: Set<Int> = []
        func flush() {
            order.append(contentsOf: sequence.sorted { pictures[$0].count < pictures[$1].count })
            sequence.removeAll(keepingCapacity: true)
            seen.removeAll(keepingCapacity: true)
        }
        for (i, p) in pictures.enumerated() {
            if p.isKey, p.count == 0, !sequence.isEmpty { flush() }
            guard seen.insert(p.count).inserted else { return nil }
            sequence.append(i)
        }
        flush()
        return order
    }
}
