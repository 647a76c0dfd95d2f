/// Whether the content around a place moved between two frames: a page sliding in, a list scrolling
/// to rest. Auto mode starts a track only on a sprite turning on a still scene; on content that
/// slides, a near-symmetric glyph or icon moved by a fraction of a pixel is its own mirror image
/// about a shifted axis, and the mirror event finder's own shift tests, made on the changed region
/// alone, cannot tell the two apart.
///
/// Seen on real captures shown at another size (lab4's navigation push at 460 px wide, the letter
/// "A" of a title read "mirrored" as the page came to rest; a calendar's day marks under a sliding
/// page's shadow at 900 px): false flips and turns, with every other test passed.
///
/// The test is on a ring around the place, the place and a gap around it left out (there the sprite
/// walks):
/// the mean absolute difference of the two frames there, unshifted and with the old one shifted by
/// up to `reach` pixels either way. The content moved when some shift explains the ring's change
/// much better than none does. A still ring changes by compression noise only, which no shift
/// explains better; a flat ring looks the same under every shift.
public enum SurroundingMotion {
    /// Settings of the test.
    public struct Parameters: Sendable {
        /// The ring starts this far out from the place, as a share of its larger side (at least
        /// `minimumGap` pixels): a walking sprite's leading edge and its shadow lie just outside the
        /// place its mirror event changed (a drop walking a pixel a frame moved the ring next to its
        /// box as a slide would).
        public var gapShare: Double = 0.5
        public var minimumGap = 4
        /// The ring ends this far out from the place, as a share of its larger side (at least
        /// `minimumMargin` pixels).
        public var marginShare: Double = 1
        public var minimumMargin = 8
        /// Shifts tried, in working pixels, each way along each axis: the slow end of a slide or a
        /// scroll, where a sub-pixel step of a glyph reads as a mirror. Faster motion is refused by
        /// the mirror event finder's own wide shifts.
        public var reach = 4
        /// Below this mean difference (gray levels) the ring did not change at all.
        public var floor: Double = 0.5
        /// The content moved when the best shift leaves at most this share of the unshifted difference.
        public var ratio: Double = 0.5

        public init() {}
    }

    /// Whether the content around `rect` (working pixels) moved from `old` to `new`; false when the
    /// images differ in size or the ring lies outside them.
    public static func moved(around rect: PixelRect, from old: GrayImage, to new: GrayImage, parameters p: Parameters = Parameters())
        -> Bool
    {
        guard old.width == new.width, old.height == new.height else { return false }
        let side = Double(max(rect.width, rect.height))
        let margin = max(p.minimumMargin, Int((side * p.marginShare).rounded()))
        let gap = min(margin - 1, max(p.minimumGap, Int((side * p.gapShare).rounded())))
        let hole = PixelRect(x: rect.x - gap, y: rect.y - gap, width: rect.width + 2 * gap, height: rect.height + 2 * gap)
        let x0 = max(p.reach, rect.x - margin), y0 = max(p.reach, rect.y - margin)
        let x1 = min(new.width - p.reach, rect.maxX + margin), y1 = min(new.height - p.reach, rect.maxY + margin)
        guard x1 > x0, y1 > y0 else { return false }
        let w = new.width
        func meanDifference(dx: Int, dy: Int) -> Double {
            var sum = 0, count = 0
            new.pixels.withUnsafeBufferPointer { n in
                old.pixels.withUnsafeBufferPointer { o in
                    for y in y0..<y1 {
                        let inside = y >= hole.y && y < hole.maxY
                        for x in x0..<x1 where !(inside && x >= hole.x && x < hole.maxX) {
                            sum += abs(Int(n[y * w + x]) - Int(o[(y - dy) * w + x - dx]))
                            count += 1
                        }
                    }
                }
            }
            return count > 0 ? Double(sum) / Double(count) : 0
        }
        let still = meanDifference(dx: 0, dy: 0)
        guard still >= p.floor else { return false }
        for dy in -p.reach...p.reach {
            for dx in -p.reach...p.reach where dx != 0 || dy != 0 {
                if meanDifference(dx: dx, dy: dy) <= p.ratio * still { return true }
            }
        }
        return false
    }
}
