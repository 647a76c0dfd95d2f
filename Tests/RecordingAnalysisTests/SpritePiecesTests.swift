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

@Suite struct SpritePiecesTests {
    @Test func aSpriteInViewMatchesInEveryPiece() {
        let sprite = snailLikeSprite()
        #expect(SpritePieces.matching(sprite, in: frame(with: sprite), x: 20, y: 16, threshold: 0.9, grid: 2) == 4)
        #expect(SpritePieces.matching(sprite, in: frame(with: sprite), x: 20, y: 16, threshold: 0.9, grid: 3) == 9)
    }

    @Test func somethingSharingOnlyTheSpritesBottomHalfFailsTheQuarters() throws {
        let sprite = snailLikeSprite()
        let image = frame(with: sprite, withoutTopHalf: true)
        // The whole template still correlates well there: the bottom half carries most of its contrast.
        let whole = TemplateMatcher(sprite).score(in: image, x: 20, y: 16) ?? -1
        #expect(whole > 0.5, "\(whole)")
        #expect(SpritePieces.matching(sprite, in: image, x: 20, y: 16, threshold: 0.55, grid: 2) == 2)
        let unmet = try #require(SpritePieces.unmet(MirrorDetector.Configuration().wholeSprite, by: sprite, in: image, x: 20, y: 16))
        #expect(unmet.requirement.grid == 2 && unmet.matching == 2)
    }

    @Test func somethingSharingOnlyTheSpritesCornersFailsTheNinths() throws {
        // The sprite's corners drawn, a cross through its middle (columns 9–14 and rows 5–9, most of
        // its middle ninths) replaced by the background: three quarters still match on their own.
        let sprite = snailLikeSprite()
        var image = frame(with: sprite)
        let drawn = frame(with: SpriteTemplate(width: 1, height: 1, pixels: [0], weights: [0]))
        for y in 0..<sprite.height {
            for x in 0..<sprite.width where (9..<15).contains(x) || (5..<10).contains(y) {
                image[20 + x, 16 + y] = drawn[20 + x, 16 + y]
            }
        }
        let quarters = SpritePieces.matching(sprite, in: image, x: 20, y: 16, threshold: 0.55, grid: 2)
        let ninths = SpritePieces.matching(sprite, in: image, x: 20, y: 16, threshold: 0.45, grid: 3)
        #expect(quarters >= 3 && ninths < 5, "quarters \(quarters), ninths \(ninths)")
        let unmet = try #require(SpritePieces.unmet(MirrorDetector.Configuration().wholeSprite, by: sprite, in: image, x: 20, y: 16))
        #expect(unmet.requirement.grid == 3)
    }

    @Test func anAssetsTransparentMarginsAreNotPartOfAnyPiece() {
        // The sprite with 10 transparent columns left, 2 right and 12 transparent rows above: cut
        // from the canvas, its top pieces would be little more than margin.
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
        #expect(SpritePieces.matching(padded, in: frame(with: sprite), x: 10, y: 4, threshold: 0.9, grid: 3) == 9)
        #expect(
            SpritePieces.matching(padded, in: frame(with: sprite, withoutTopHalf: true), x: 10, y: 4, threshold: 0.55, grid: 2) == 2)
    }

    @Test func aPieceWithNothingToCorrelateIsNoEvidenceAgainstThePlace() {
        // A flat template: no piece has contrast, so none counts against the place.
        let flat = SpriteTemplate(
            width: 9, height: 9, pixels: [Float](repeating: 100, count: 81), weights: [Float](repeating: 1, count: 81))
        #expect(SpritePieces.matching(flat, in: frame(with: snailLikeSprite()), x: 0, y: 0, threshold: 0.55, grid: 3) == 9)
        // Beyond the image: nothing to correlate either.
        let sprite = snailLikeSprite()
        #expect(SpritePieces.matching(sprite, in: frame(with: sprite), x: 60, y: 44, threshold: 0.55, grid: 3) == 9)
    }

    @Test func aPieceHoldingLittleOfTheSpritesWeightIsNoEvidence() {
        // An 18x18 sprite whose top right piece holds two of its pixels (a thin tip), drawn with
        // those two swapped: correlated on its own, that piece is −1. Two pixels are no evidence
        // either way, so it counts as matching.
        var pixels = [Float](repeating: 0, count: 18 * 18), weights = pixels
        for y in 0..<18 {
            for x in 0..<18 where x < 12 || y >= 6 || (x == 13 && (y == 4 || y == 5)) {
                pixels[y * 18 + x] = (x / 3 + y / 2) % 2 == 0 ? 200 : 60
                weights[y * 18 + x] = 1
            }
        }
        pixels[4 * 18 + 13] = 200
        pixels[5 * 18 + 13] = 60
        let sprite = SpriteTemplate(width: 18, height: 18, pixels: pixels, weights: weights)
        var image = frame(with: sprite)
        image[20 + 13, 16 + 4] = 60
        image[20 + 13, 16 + 5] = 200
        #expect(SpritePieces.matching(sprite, in: image, x: 20, y: 16, threshold: 0.9, grid: 3) == 9)
    }

    @Test func rowsCutTheTemplateAsColumnsDo() {
        let sprite = snailLikeSprite()
        let bottom = sprite.rows(12..<16)
        #expect(bottom.width == 24 && bottom.height == 4)
        #expect(bottom.pixels == Array(sprite.pixels[(12 * 24)..<(16 * 24)]))
        #expect(sprite.rows(10..<40).height == 6)
    }
}
