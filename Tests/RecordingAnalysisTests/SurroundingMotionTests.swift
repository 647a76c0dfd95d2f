import Testing

@testable import RecordingAnalysis

@Suite struct SurroundingMotionTests {
    private let place = PixelRect(x: 40, y: 40, width: 16, height: 12)

    /// Dark glyph-like blocks on white, at places drawn from `seed`, shifted by (`dx`, `dy`).
    private func page(dx: Int = 0, dy: Int = 0, seed: UInt64 = 7) -> GrayImage {
        var image = GrayImage(width: 100, height: 100, fill: 250)
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<60 {
            let x = next(96), y = next(96), w = 1 + next(3), h = 2 + next(4)
            for yy in y..<min(100, y + h) {
                for xx in x..<min(100, x + w) where xx + dx >= 0 && xx + dx < 100 && yy + dy >= 0 && yy + dy < 100 {
                    image[xx + dx, yy + dy] = 20
                }
            }
        }
        return image
    }

    /// `image` with a block (a sprite) drawn at the place, moved by `dx`.
    private func withSprite(_ image: GrayImage, dx: Int) -> GrayImage {
        var out = image
        for y in place.y..<place.maxY { for x in (place.x + dx)..<(place.maxX + dx + 2) { out[x, y] = 90 } }
        return out
    }

    @Test func aPageSlidingAPixelOrThreeMovedTheSurroundings() {
        #expect(SurroundingMotion.moved(around: place, from: page(), to: page(dx: -1)))
        #expect(SurroundingMotion.moved(around: place, from: page(), to: page(dy: 3)))
    }

    @Test func stillSurroundingsWithCompressionFlickerDidNotMove() {
        var flicker = page()
        for i in flicker.pixels.indices where i % 3 == 0 { flicker.pixels[i] = flicker.pixels[i] > 128 ? 248 : 23 }
        #expect(!SurroundingMotion.moved(around: place, from: page(), to: flicker))
        #expect(!SurroundingMotion.moved(around: place, from: page(), to: page()))
    }

    @Test func aSpriteWalkingInItsPlaceDoesNotMoveTheSurroundings() {
        // Its leading edge a pixel and two beyond the place, within the gap left out.
        #expect(!SurroundingMotion.moved(around: place, from: withSprite(page(), dx: 0), to: withSprite(page(), dx: 1)))
        let flat = GrayImage(width: 100, height: 100, fill: 200)
        #expect(!SurroundingMotion.moved(around: place, from: withSprite(flat, dx: 0), to: withSprite(flat, dx: 1)))
    }

    @Test func aSlideFasterThanTheReachIsLeftToTheEventFinder() {
        #expect(!SurroundingMotion.moved(around: place, from: page(), to: page(dx: 9)))
    }
}
