import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import TestSupport

/// The detector's reduced luma against its definition, computed here from the Y plane the ffmpeg
/// CLI decodes: each output pixel the rounded mean of a factor x factor block, limited-range luma
/// expanded to full range as libswscale's gray conversion does (`(Y − 16) · 255 / 219`, rounded).
@Suite struct BoxAveragedLumaTests {
    /// The test pattern in `pixelFormat` against the definition, for factors 1 to 5; `eightBit`
    /// gives each pixel's 8-bit luma from the raw frame the ffmpeg CLI decodes (the Y plane itself
    /// when nil).
    private func expectDefinition(
        pixelFormat: String, range: String, codec: String = "ffv1", container: String = "mkv",
        eightBit: (([UInt8], Int) -> Int)? = nil
    ) throws {
        let dir = TestSupport.temporaryDirectory("boxluma")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, raw) = try Clips.testPattern(pixelFormat: pixelFormat, range: range, codec: codec, container: container, in: dir)
        let fw = 120, fh = 90
        let luma = (0..<(fw * fh)).map { i in eightBit?(raw, i) ?? Int(raw[i]) }
        #expect(Set(luma).count > 40, "the frame has a spread of levels")
        let limited = range == "tv"
        for factor in [1, 2, 3, 4, 5] {
            let w = fw / factor, h = fh / factor
            var expected = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    var sum = 0
                    for dy in 0..<factor { for dx in 0..<factor { sum += luma[(y * factor + dy) * fw + x * factor + dx] } }
                    let mean = (2 * sum + factor * factor) / (2 * factor * factor)
                    let value = limited ? (max(0, mean - 16) * 255 * 2 + 219) / (2 * 219) : mean
                    expected[y * w + x] = UInt8(min(255, value))
                }
            }
            var got: GrayImage?
            try RecordingReader(path: path).decode { frame in got = try frame.grayImage(width: w, height: h) }
            #expect(got?.pixels == expected, "factor \(factor), \(pixelFormat) \(range) range")
        }
    }

    /// Every block sum factors 1, 2 and 3 can meet (0 … 255 · factor²), in both ranges: one row of
    /// blocks, block k holding pixels that add up to k.
    @Test(.enabled(if: TestSupport.ffmpeg != nil), arguments: [(1, "tv"), (1, "pc"), (2, "tv"), (2, "pc"), (3, "tv"), (3, "pc")])
    func everyBlockSumHasItsValue(factor: Int, range: String) throws {
        let dir = TestSupport.temporaryDirectory("boxluma-sums")
        defer { try? FileManager.default.removeItem(at: dir) }
        let area = factor * factor, blocks = 255 * area + 1
        let fw = factor * blocks, fh = factor
        var luma = [UInt8](repeating: 0, count: fw * fh)
        for k in 0..<blocks {
            for p in 0..<area {
                luma[(p / factor) * fw + k * factor + p % factor] = UInt8(k / area + (p < k % area ? 1 : 0))
            }
        }
        let rawPath = dir.appendingPathComponent("frame.yuv").path, path = dir.appendingPathComponent("clip.mkv").path
        try Data(luma + [UInt8](repeating: 128, count: 2 * fw * fh)).write(to: URL(fileURLWithPath: rawPath))
        try TestSupport.ffmpegRun([
            "-f", "rawvideo", "-pix_fmt", "yuv444p", "-s", "\(fw)x\(fh)", "-color_range", range, "-i", rawPath,
            "-c:v", "ffv1", "-color_range", range, path
        ])
        let expected = (0..<blocks).map { sum -> UInt8 in
            let mean = (2 * sum + area) / (2 * area)
            return UInt8(min(255, range == "tv" ? (max(0, mean - 16) * 255 * 2 + 219) / (2 * 219) : mean))
        }
        var got: GrayImage?
        try RecordingReader(path: path).decode { frame in got = try frame.grayImage(width: blocks, height: 1) }
        #expect(got?.pixels == expected)
    }

    /// Luma that is not an 8-bit plane is made 8-bit first, then averaged as above: deeper samples
    /// rounded (v · 2⁸⁻ᵈ, half up), packed RGB as BT.601 full-range luma (19595 R + 38470 G + 7471 B,
    /// rounded, over 2¹⁶). The 8-bit luma of each pixel is computed here from the raw samples the
    /// ffmpeg CLI decodes.
    @Test(
        .enabled(if: TestSupport.ffmpeg != nil),
        arguments: [
            ("yuv420p10le", "tv", "ffv1", "mkv"), ("yuv444p12le", "pc", "ffv1", "mkv"), ("gray16le", "pc", "ffv1", "mkv"),
            ("rgb24", "pc", "qtrle", "mov"), ("rgba", "pc", "png", "mov"), ("bgra", "pc", "ffv1", "mkv"), ("gbrp", "pc", "ffv1", "mkv")
        ])
    func deeperAndRGBLumaIsMadeEightBitThenAveraged(pixelFormat: String, range: String, codec: String, container: String) throws {
        try expectDefinition(pixelFormat: pixelFormat, range: range, codec: codec, container: container) { raw, i in
            switch pixelFormat {
            case "gbrp":
                // Planes G, B, R.
                let (g, b, r) = (Int(raw[i]), Int(raw[120 * 90 + i]), Int(raw[2 * 120 * 90 + i]))
                return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16
            case "rgb24", "rgba", "bgra":
                let step = pixelFormat == "rgb24" ? 3 : 4
                let (r, g, b) =
                    pixelFormat == "bgra"
                    ? (Int(raw[i * step + 2]), Int(raw[i * step + 1]), Int(raw[i * step]))
                    : (Int(raw[i * step]), Int(raw[i * step + 1]), Int(raw[i * step + 2]))
                return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16
            default:
                let depth = pixelFormat.hasPrefix("gray16") ? 16 : pixelFormat.contains("p12") ? 12 : 10
                let v = Int(raw[2 * i]) | Int(raw[2 * i + 1]) << 8
                return min(255, (v + (1 << (depth - 9))) >> (depth - 8))
            }
        }
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func limitedRangeLumaIsTheRoundedBlockMeanExpanded() throws {
        try expectDefinition(pixelFormat: "yuv420p", range: "tv")
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func fullRangeLumaIsTheRoundedBlockMean() throws {
        try expectDefinition(pixelFormat: "yuv444p", range: "pc")
    }
}
