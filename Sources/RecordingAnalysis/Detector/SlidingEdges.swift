/// Whether an edge taller than the sprite moves across its box: a page, a sheet or the keyboard
/// sliding over it. Where one does, part of the sprite is hidden behind something that moves, and
/// what is in view does not tell which way it faces: the visible part of a drop beside a pushed
/// page's edge matched its mirror image, shifted, at 0.92 (a one-frame "flip" on a browser
/// capture), and a car's rear half beside a page sliding away read mirrored in the first frame (a
/// "turn"). Such a frame is `unknown` (`UnknownReason.covered`).
///
/// A card's edge that stands still, and the sprite's own straight sides, are not such an edge: the
/// first is at the same column in the neighbouring frame, the second runs down no more of the rows
/// searched than the sprite does (they reach two box heights above and below it, and an edge must
/// run down `rowShare` of them; auto mode's box may be the part of a sprite a flip changes, a
/// drop's eyes, and the sprite twice as tall).
public enum SlidingEdges {
    /// The share of the rows searched an edge must run down. Not all: where the sprite beside the
    /// edge is as bright as what slides over it (a drop's white eye beside a white page), the step
    /// is at the sprite's own outline in those rows.
    public static let rowShare = 0.7

    /// The rows and columns an edge across `box` is looked for in: the box's columns, its rows and
    /// two box heights above and below (at least 8 rows each way), clipped to an image of the size
    /// and to `within` when given; nil when that leaves less than the box's rows or 3 columns.
    public static func area(around box: PixelRect, width: Int, height: Int, within: PixelRect? = nil) -> PixelRect? {
        let reach = max(8, 2 * box.height)
        guard
            var area = PixelRect(x: box.x, y: box.y - reach, width: box.width, height: box.height + 2 * reach)
                .clipped(width: width, height: height)
        else { return nil }
        if let within {
            // One column either side is read in the other frame.
            guard let inner = PixelRect(x: within.x + 1, y: within.y, width: within.width - 2, height: within.height).intersection(area)
            else { return nil }
            area = inner
        }
        guard area.width >= 3, area.y <= max(0, box.y), area.maxY >= min(height, box.maxY) else { return nil }
        return area
    }

    /// Whether `image` has an edge (as `OccluderEdges` finds them, down `rowShare` of the rows of
    /// `area(around: box)`) inside its columns that `other` (the frame before or after, the same
    /// size) does not have within one column of it, down even half as many rows. False when the area
    /// lies outside the images or `within` (where both hold the frame's pixels; nil: everywhere).
    public static func crossesBox(_ box: PixelRect, in image: GrayImage, notIn other: GrayImage, within: PixelRect? = nil) -> Bool {
        guard image.width == other.width, image.height == other.height,
            let area = area(around: box, width: image.width, height: image.height, within: within)
        else { return false }
        let rows = area.y..<area.maxY
        let inside = Self.edges(
            of: OccluderEdges(in: image, rows: rows, columns: (area.x + 1)..<area.maxX, rowShare: rowShare), in: area)
        guard !inside.isEmpty else { return false }
        let there = Self.edges(
            of: OccluderEdges(in: other, rows: rows, columns: area.x..<(area.maxX + 1), rowShare: rowShare / 2), in: nil)
        return inside.contains { x in !there.contains { abs($0 - x) <= 1 } }
    }

    /// The columns of `edges` that are edges in the image, not its borders, and lie inside `area`'s
    /// columns (past its first) when given.
    private static func edges(of edges: OccluderEdges, in area: PixelRect?) -> [Int] {
        edges.columns.dropFirst().dropLast().filter { x in area.map { x > $0.x && x < $0.maxX } ?? true }
    }
}
