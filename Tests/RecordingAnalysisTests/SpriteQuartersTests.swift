import Testing
@testable import RecordingAnalysis

/// A 24x16 sprite: a shell-like disc in its left half, eye stalks in its top right quarter, a
/// foot along its bottom; the rest transparent.
private func snailLikeSprite() -> SpriteTemplate {
    var pixels = [Float](repeating: 0, count: 24 * 16), weights = pixels
    for y in 0..<16 {
        for x in 0..<24 {
            let i = y * 24 + x
            let dx = Float(x) - 7.5, dy = Float(y) - 7.5
            if dx * dx + dy * dy < 49 {
                pixels[i] = (Int(dx * dx + dy * dy) / 9) % 2 == 0 ? 150 : 90
                weights[i] = 1
            } else if y >= 12 {
                pixels[i] = 220
                weights[i] = 1
            } else if x == 16 || x == 20 {
                pixels[i] = y < 3 ? 30 : 200
                weights[i] = 1
            } else if x > 14, y < 6 {
                pixels[i] = 120
                weights[i] = 1
            }
        }
    }
    return SpriteTemplate(width: 24, height: 16, pixels: pixels, weights: weights)
}

/// A 64x48 frame of noisy level 110 with `sprite` drawn at (20, 16), its top half's pixels replaced
/// by the background's when `withoutTopHalf`.
private func frame(with sprite: SpriteTemplate, withoutTopHalf: Bool = false) -> GrayImage {
    var image = GrayImage(width: 64, height: 48)
    var state: UInt64 = 11
    for y in 0..<48 {
        for x in 0..<64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var level = 110 + Int(state >> 60) - 8
            let sx = x - 20, sy = y - 16
            if (0..<sprite.width).contains(sx), (0..<sprite.height).contains(sy), sprite.weights[sy * sprite.width + sx] > 0,
                !(withoutTopHalf && sy < sprite.height / 2)
            {
                level = Int(sprite.pixels[sy * sprite.width + sx]) + Int(state >> 62) - 2
            }
            image[x, y] = UInt8(clamping: level)
        }
    }
    return image
}

@Suite struct SpriteQuartersTests {
    @Test func aSpriteInViewMatchesInEveryQuarter() {
        let sprite = snailLikeSprite()
        #expect(SpriteQuarters.matching(sprite, in: frame(with: sprite), x: 20, y: 16, threshold: 0.9) == 4)
    }

    @Test func somethingSharingOnlyTheSpritesBottomHalfMatchesInTwoQuarters() {
        let sprite = snailLikeSprite()
        let image = frame(with: sprite, withoutTopHalf: true)
        // The whole template still correlates well there: the bottom half carries most of its contrast.
        let whole = TemplateMatcher(sprite).score(in: image, x: 20, y: 16) ?? -1
        #expect(whole > 0.5, "\(whole)")
        #expect(SpriteQuarters.matching(sprite, in: image, x: 20, y: 16, threshold: 0.55) == 2)
    }

    @Test func anAssetsTransparentMarginsAreNotPartOfAnyQuarter() {
        // The sprite with 10 transparent columns left, 2 right and 12 transparent rows above: cut
        // at the canvas's middle, its top quarters would be little more than margin.
        let sprite = snailLikeSprite()
        let width = sprite.width + 12, height = sprite.height + 12
        var pixels = [Float](repeating: 0, count: width * height), weights = pixels
        for y in 0..<sprite.height {
            for x in 0..<sprite.width {
                pixels[(y + 12) * width + x + 10] = sprite.pixels[y * sprite.width + x]
                weights[(y + 12) * width + x + 10] = sprite.weights[y * sprite.width + x]
            }
        }
        let padded = SpriteTemplate(width: width, height: height, pixels: pixels, weights: weights)
        #expect(SpriteQuarters.matching(padded, in: frame(with: sprite), x: 10, y: 4, threshold: 0.9) == 4)
        #expect(SpriteQuarters.matching(padded, in: frame(with: sprite, withoutTopHalf: true), x: 10, y: 4, threshold: 0.55) == 2)
    }

    @Test func aQuarterWithNothingToCorrelateIsNoEvidenceAgainstThePlace() {
        // A flat template: no quarter has contrast, so none counts against the place.
        let flat = SpriteTemplate(
            width: 8, height: 8, pixels: [Float](repeating: 100, count: 64), weights: [Float](repeating: 1, count: 64))
        #expect(SpriteQuarters.matching(flat, in: frame(with: snailLikeSprite()), x: 0, y: 0, threshold: 0.55) == 4)
        // Beyond the image: nothing to correlate either.
        let sprite = snailLikeSprite()
        #expect(SpriteQuarters.matching(sprite, in: frame(with: sprite), x: 60, y: 44, threshold: 0.55) == 4)
    }

    @Test func rowsCutTheTemplateAsColumnsDo() {
        let sprite = snailLikeSprite()
        let bottom = sprite.rows(12..<16)
        #expect(bottom.width == 24 && bottom.height == 4)
        #expect(bottom.pixels == Array(sprite.pixels[(12 * 24)..<(16 * 24)]))
        #expect(sprite.rows(10..<40).height == 6)
    }
}
