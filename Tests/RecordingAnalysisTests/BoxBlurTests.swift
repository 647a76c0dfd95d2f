import Testing
import RecordingAnalysis

@Suite struct BoxBlurTests {
    @Test func equalsTheRoundedMeanOfTheNinePixelsAroundAtEverySize() {
        var state: UInt64 = 3
        for (width, height) in [(1, 1), (2, 3), (5, 1), (16, 2), (17, 4), (33, 3), (40, 5)] {
            var image = GrayImage(width: width, height: height)
            for i in image.pixels.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                // Extremes too, where a too narrow sum or a wrong rounding would show.
                image.pixels[i] = i % 7 == 0 ? 255 : UInt8(truncatingIfNeeded: state >> 56)
            }
            let blurred = image.boxBlurred()
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0
                    for dy in -1...1 {
                        for dx in -1...1 { sum += Int(image[min(width - 1, max(0, x + dx)), min(height - 1, max(0, y + dy))]) }
                    }
                    #expect(Int(blurred[x, y]) == Int((Double(sum) / 9).rounded()), "\(width)x\(height) at (\(x), \(y))")
                }
            }
        }
        #expect(GrayImage(width: 20, height: 4, fill: 255).boxBlurred() == GrayImage(width: 20, height: 4, fill: 255))
    }
}
