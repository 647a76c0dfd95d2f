/// Whether a template matched at a place is the whole sprite there, not something that shares
/// part of its shape. On real screens a snail's template reached the sure correlation (0.85) on
/// ringed circles, a patch of fabric and list rows: the bottom half of the sprite (a rounded mass
/// on a flat band) matched well and outweighed a top half that matched nothing. A sprite in view
/// matches in each of its quarters.
public enum SpriteQuarters {
    /// How many of the sprite's four quarters (the halves of the width by the halves of the height
    /// of the box its weighted pixels fill, so that an asset's transparent margins do not count),
    /// each correlated on its own where it lies when the whole template's top-left corner is at
    /// (`x`, `y`), reach `threshold`. A quarter with nothing to correlate (flat, or beyond the
    /// image) counts as matching: it is no evidence against the place. A quarter with little of the
    /// sprite in it still counts: the top right quarter of a snail is its eye stalks, and that is
    /// what a circle or a glyph with a rounded bottom lacks.
    public static func matching(_ template: SpriteTemplate, in image: GrayImage, x: Int, y: Int, threshold: Float) -> Int {
        guard let box = template.drawnBox, box.width >= 2, box.height >= 2 else { return 4 }
        let midX = box.x + box.width / 2, midY = box.y + box.height / 2
        var count = 0
        for columns in [box.x..<midX, midX..<box.maxX] {
            for rows in [box.y..<midY, midY..<box.maxY] {
                let quarter = template.columns(columns).rows(rows)
                let score = TemplateMatcher(quarter).score(in: image, x: x + columns.lowerBound, y: y + rows.lowerBound)
                if (score ?? 1) >= threshold { count += 1 }
            }
        }
        return count
    }
}
