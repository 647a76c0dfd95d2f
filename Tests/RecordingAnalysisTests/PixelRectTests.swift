import Testing

@testable import RecordingAnalysis

/// Rectangle arithmetic against the pixels themselves: the sets of (x, y) each rectangle covers.
@Suite struct PixelRectTests {
    private func pixels(_ r: PixelRect) -> Set<[Int]> {
        var set = Set<[Int]>()
        for y in r.y..<r.maxY { for x in r.x..<r.maxX { set.insert([x, y]) } }
        return set
    }

    @Test func theIntersectionHoldsExactlyThePixelsBothCover() {
        let base = PixelRect(x: 3, y: -2, width: 7, height: 5)
        for x in -6...12 {
            for y in -6...5 {
                for (w, h) in [(1, 1), (4, 9), (12, 2)] {
                    let other = PixelRect(x: x, y: y, width: w, height: h)
                    let both = pixels(base).intersection(pixels(other))
                    #expect(base.intersection(other).map(pixels) ?? [] == both)
                    #expect((base.intersection(other) == nil) == !base.overlaps(other))
                }
            }
        }
    }
}
