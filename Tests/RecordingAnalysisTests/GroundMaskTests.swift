import Testing

@testable import RecordingAnalysis

/// A 24x12 cut: a sprite (a dark block with a bright eye) on columns 6–17 (moved `offset` pixels),
/// ground elsewhere: bands 4 pixels wide of uneven levels that slide `shift` pixels per cut, as
/// ground does under a walking sprite.
private func cut(shift: Int, offset: Int = 0, light: Float = 0, noise: (Int, Int) -> Float = { _, _ in 0 }) -> SpriteTemplate {
    let width = 24, height = 12
    var p = [Float](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            let sprite = x >= 6 + offset && x < 18 + offset
            let eye = x >= 14 + offset && x < 16 + offset && y >= 3 && y < 5
            let band = (x + shift) / 4, ground = Float((band * band * 37 + band * 11) % 190 + 40)
            p[y * width + x] = (sprite ? (eye ? 230 : 40) : ground) + light + noise(x, y)
        }
    }
    return SpriteTemplate(width: width, height: height, pixels: p, weights: [Float](repeating: 1, count: p.count))
}

@Suite struct GroundMaskTests {
    @Test func groundSlidingUnderTheSpriteIsWeighedOutAndTheSpriteKept() throws {
        let first = cut(shift: 0)
        var mask = GroundMask(first: first)
        for step in 1...6 { mask.learn(seen: cut(shift: 3 * step)) }
        let w = try #require(mask.weights)
        var ground: [Float] = []
        for y in 0..<first.height {
            for x in 0..<first.width {
                // A sprite pixel beside the ground may take its range from the ground.
                if x >= 7 && x < 17 { #expect(w[y * first.width + x] == 1, "sprite pixel \(x),\(y): \(w[y * first.width + x])") }
                if x < 5 || x > 18 { ground.append(w[y * first.width + x]) }
            }
        }
        // Ground that happens to slide onto levels it had nearby is not told from the sprite.
        let out = ground.filter { $0 < 0.5 }.count
        #expect(out * 5 >= ground.count * 4, "\(out) of \(ground.count) ground pixels weighed out")
    }

    @Test func aChangeOfLightNoiseAndAPixelsMisalignmentAreNotGround() {
        let first = cut(shift: 0)
        var mask = GroundMask(first: first)
        // Brighter by 30 levels, ±6 levels of noise, and the sprite a pixel to the right in its cut.
        for _ in 1...10 { mask.learn(seen: cut(shift: 0, offset: 1, light: 30, noise: { x, y in Float((x * 7 + y * 13) % 13) - 6 })) }
        #expect(mask.weights == nil, "every pixel should keep its weight: \(mask.residual.max() ?? -1)")
    }

    @Test func aCutThatChangedAllOverLeavesTheMaskUnused() {
        let first = cut(shift: 0)
        var mask = GroundMask(first: first)
        // A box of noise: no level of it keeps to the first cut's.
        let noise = SpriteTemplate(
            width: first.width, height: first.height,
            pixels: (0..<first.pixels.count).map { (i: Int) -> Float in Float((i * i * 7919 + i * 104_729) % 256) },
            weights: first.weights)
        for _ in 1...10 { mask.learn(seen: noise) }
        #expect(mask.weights == nil)
    }
}
