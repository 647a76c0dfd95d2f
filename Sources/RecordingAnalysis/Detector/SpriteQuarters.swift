/// Whether a template matched at a place is the whole sprite there, not something that shares
/// part of its shape. On real screens a snail's template reached the sure correlation (0.85) on
/// ringed circles, a patch of fabric and list rows: the bottom half of the sprite (a rounded mass
/// on a flat band) matched well and outweighed a top half that matched nothing. A sprite in view
/// matches in each of its quarters.
public enum SpriteQuarters {
    /// How many of the template's four quarters (the halves of its width by the halves of its
    /// height), each correlated on its own at the place the whole template's top-left corner is
    /// put at (`x`, `y`), reach `threshold`. A quarter with nothing to correlate (flat, transparent,
    /// or beyond the image) counts as matching: it is no evidence against the place.
    public static func matching(_ template: SpriteTemplate, in image: GrayImage, x: Int, y: Int, threshold: Float) -> Int {
        let midX = template.width / 2, midY = template.height / 2
        guard midX > 0, midY > 0 else { return 4 }
        var count = 0
        for (columns, rows) in [
            (0..<midX, 0..<midY), (midX..<template.width, 0..<midY), (0..<midX, midY..<template.height),
            (midX..<template.width, midY..<template.height)
        ] {
            let quarter = template.columns(columns).rows(rows)
            let score = TemplateMatcher(quarter).score(in: image, x: x + columns.lowerBound, y: y + rows.lowerBound)
            if (score ?? 1) >= threshold { count += 1 }
        }
        return count
    }
}
