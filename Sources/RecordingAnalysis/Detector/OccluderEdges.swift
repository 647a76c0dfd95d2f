/// Where a sprite can be partly hidden in a stretch of an image: the columns at which a straight
/// vertical edge (a card's, a view's) runs through nearly all its rows, and the image's own left and
/// right borders. A sprite read by a part of it is hidden beyond its cut, and the cut lies at such
/// an edge; a part placed where the rest of the sprite would be in plain view is not a reading of a
/// partly hidden sprite, but a near-symmetric half of the other orientation lined up on it.
public struct OccluderEdges: Equatable, Sendable {
    /// Columns x where the step between columns x−1 and x runs down the rows, ascending, with 0 and
    /// the image's width.
    public let columns: [Int]

    /// A step of at least this many luma levels (the mean of two columns either side) in a row
    /// counts; a card's edge on a screen dimmed to a third still steps by several times this.
    public static let minimumStep = 16
    /// The share of the rows in which the step must be there, the same way round.
    public static let rowShare = 0.8

    /// The edges in `rows` x `columns` of `image` (clipped to it), each running down `rowShare` of
    /// the rows.
    public init(in image: GrayImage, rows: Range<Int>, columns: Range<Int>, rowShare: Double = Self.rowShare) {
        var found = [0]
        // A stretch may reach beyond the image (a sprite lost while moving keeps moving in the guess),
        // or lie wholly outside it.
        let top = max(0, rows.lowerBound), bottom = min(image.height, rows.upperBound)
        let r = top..<max(top, bottom)
        let lo = max(2, columns.lowerBound), hi = min(image.width - 1, columns.upperBound)
        if r.count >= 4, lo < hi {
            let needed = Int((rowShare * Double(r.count)).rounded(.up))
            for x in lo..<hi {
                var rising = 0, falling = 0
                for y in r {
                    let p = y * image.width + x
                    let step = Int(image.pixels[p]) + Int(image.pixels[p + 1]) - Int(image.pixels[p - 1]) - Int(image.pixels[p - 2])
                    if step >= 2 * Self.minimumStep { rising += 1 } else if step <= -2 * Self.minimumStep { falling += 1 }
                }
                if max(rising, falling) >= needed { found.append(x) }
            }
        }
        found.append(image.width)
        self.columns = found
    }

    /// Where a part of a sprite may start (its first column in the image) when it keeps the sprite's
    /// columns `part` (its left part when it starts at 0) and the rest is hidden beyond an edge: within `slack`
    /// columns on the visible side of an edge (the part may stop short of the edge by up to the step
    /// between the part widths tried) and 2 on the other. Ranges of part starts, one per edge.
    public func partStarts(part: Range<Int>, slack: Int) -> [ClosedRange<Int>] {
        columns.map { e in
            // Hidden on the left: the part begins at the edge. Hidden on the right: it ends there.
            part.lowerBound > 0 ? (e - 2)...(e + slack) : (e - slack - part.count)...(e + 2 - part.count)
        }
    }
}
