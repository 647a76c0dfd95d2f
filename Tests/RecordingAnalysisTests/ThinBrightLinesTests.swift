import Testing
import RecordingAnalysis

@Suite struct ThinBrightLinesTests {
    @Test func linesOneAndTwoPixelsWideGoWiderBarsAndDarkLinesStay() {
        var image = GrayImage(width: 40, height: 6, fill: 60)
        for y in 0..<6 {
            image[5, y] = 250  // one pixel wide
            image[10, y] = 240
            image[11, y] = 240  // two
            for x in 16..<19 { image[x, y] = 230 }  // three
            image[25, y] = 5  // a dark line
            image[39, y] = 250  // at the right edge
            image[0, y] = 250  // at the left edge
        }
        let opened = image.withoutThinBrightLines()
        for y in 0..<6 {
            for x in [0, 5, 10, 11, 39] { #expect(opened[x, y] == 60, "column \(x)") }
            for x in 16..<19 { #expect(opened[x, y] == 230, "column \(x)") }
            #expect(opened[25, y] == 5)
        }
        // Nothing else changes.
        var rest = image, restOpened = opened
        for y in 0..<6 {
            for x in [0, 5, 10, 11, 39] {
                rest[x, y] = 60
                restOpened[x, y] = 60
            }
        }
        #expect(rest == restOpened)
    }

    @Test func equalsTheDefinitionAtEveryWidth() {
        var state: UInt64 = 7
        for width in [3, 4, 5, 17, 18, 19, 33, 57] {
            var image = GrayImage(width: width, height: 3)
            for i in image.pixels.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                image.pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
            }
            let opened = image.withoutThinBrightLines()
            for y in 0..<3 {
                for x in 0..<width {
                    // The maximum, over the runs of three inside the row that hold x, of their minimum.
                    let starts = max(0, x - 2)...min(x, width - 3)
                    let want = starts.map { s in (s..<s + 3).map { image[$0, y] }.min()! }.max()!
                    #expect(opened[x, y] == want, "width \(width), (\(x), \(y))")
                }
            }
        }
    }
}
