import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import TestSupport

/// The detector's reduced luma against its definition, computed here from the Y plane the ffmpeg
/// CLI decodes: each output pixel the rounded mean of a factor x factor block, limited-range luma
/// expanded to full range as libswscale's gray conversion does (`(Y − 16) · 255 / 219`, rounded).
@Suite struct BoxAveragedLumaTests {
    private func expectDefinition(pixelFormat: String, range: String) throws {
        let dir = TestSupport.temporaryDirectory("boxluma")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("clip.mkv").path
        // testsrc2 has edges, gradients and text: every output value class is exercised.
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=120x90:rate=10", "-frames:v", "1", "-vf", "scale=out_range=\(range)",
            "-c:v", "ffv1", "-pix_fmt", pixelFormat, "-color_range", range, path
        ])
        let rawPath = dir.appendingPathComponent("y.raw").path
        try TestSupport.ffmpegRun(["-i", path, "-f", "rawvideo", "-pix_fmt", pixelFormat, rawPath])
        let luma = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rawPath)).prefix(120 * 90))
        let limited = range == "tv"
        for factor in [1, 2, 3, 4, 5] {
            let w = 120 / factor, h = 90 / factor
            var expected = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    var sum = 0
                    for dy in 0..<factor { for dx in 0..<factor { sum += Int(luma[(y * factor + dy) * 120 + x * factor + dx]) } }
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

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func limitedRangeLumaIsTheRoundedBlockMeanExpanded() throws {
        try expectDefinition(pixelFormat: "yuv420p", range: "tv")
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func fullRangeLumaIsTheRoundedBlockMean() throws {
        try expectDefinition(pixelFormat: "yuv444p", range: "pc")
    }
}
