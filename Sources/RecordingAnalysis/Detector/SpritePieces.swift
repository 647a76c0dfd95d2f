/// Whether a template matched at a place is the whole sprite there, not something that shares
/// part of its shape. On real screens a snail's template reached the sure correlation (0.85) on
/// ringed circles, a patch of fabric and list rows: the bottom half of the sprite (a rounded mass
/// on a flat band) matched well and outweighed a top half that matched nothing. On a screen of
/// ordinary UI it reached 0.87 on a pulsing heart icon and on an orange card's corner with a
/// white button, where three of its four quarters matched at 0.55 or more. A sprite in view
/// matches piece by piece; something that merely resembles its overall mass does not.
public enum SpritePieces {
    /// How many of the sprite's `grid` x `grid` pieces must reach `threshold` for a place to show
    /// the whole sprite.
    public struct Requirement: Equatable, Sendable {
        public var grid: Int
        public var threshold: Float
        public var needed: Int

        public init(grid: Int, threshold: Float, needed: Int) {
            self.grid = grid
            self.threshold = threshold
            self.needed = needed
        }
    }

    /// The first of `requirements` the template at (`x`, `y`) does not meet, and how many of its
    /// pieces reached the threshold there; nil when it meets them all.
    public static func unmet(
        _ requirements: [Requirement], by template: SpriteTemplate, in image: GrayImage, x: Int, y: Int
    ) -> (requirement: Requirement, matching: Int)? {
        for r in requirements {
            let n = matching(template, in: image, x: x, y: y, threshold: r.threshold, grid: r.grid)
            if n < r.needed { return (r, n) }
        }
        return nil
    }

    /// How many of the sprite's `grid` x `grid` pieces (the box its weighted pixels fill, cut into
    /// `grid` columns and `grid` rows, so that an asset's transparent margins do not count), each
    /// correlated on its own where it lies when the whole template's top-left corner is at (`x`,
    /// `y`), reach `threshold`. A piece with nothing to correlate (flat, beyond the image, or
    /// holding under a quarter of an average piece's weight, as the corners of a round sprite do)
    /// counts as matching: it is no evidence against the place. A piece with some of the sprite in
    /// it still counts: the top right of a snail is its eye stalks, and that is what a circle or a
    /// glyph with a rounded bottom lacks.
    public static func matching(_ template: SpriteTemplate, in image: GrayImage, x: Int, y: Int, threshold: Float, grid: Int) -> Int {
        guard let box = template.drawnBox, box.width >= grid, box.height >= grid, grid >= 1 else { return grid * grid }
        let averageWeight = template.weights.reduce(0, +) / Float(grid * grid)
        var count = 0
        for column in 0..<grid {
            for row in 0..<grid {
                let columns = (box.x + box.width * column / grid)..<(box.x + box.width * (column + 1) / grid)
                let rows = (box.y + box.height * row / grid)..<(box.y + box.height * (row + 1) / grid)
                let piece = template.columns(columns).rows(rows)
                guard piece.weights.reduce(0, +) >= averageWeight / 4 else {
                    count += 1
                    continue
                }
                let score = TemplateMatcher(piece).score(in: image, x: x + columns.lowerBound, y: y + rows.lowerBound)
                if (score ?? 1) >= threshold { count += 1 }
            }
        }
        return count
    }
}
