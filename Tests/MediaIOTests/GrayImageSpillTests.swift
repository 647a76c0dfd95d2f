import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import TestSupport

/// A whole gray image set aside stands in for the decoder's image of a region: `GrayRegionRule`
/// gives exactly what `VideoFrame.grayImage(width:height:region:)` gives, for regions inside, across
/// and outside the frame, with the box average (factors 1–3), a display matrix that turns the frame,
/// and libswscale's conversion (which fills everything).
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct GrayRegionRuleTests {
    static let regions: [PixelRect?] = [
        nil, PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 13, y: 7, width: 33, height: 21),
        PixelRect(x: -20, y: -12, width: 50, height: 40), PixelRect(x: 60, y: 40, width: 500, height: 500),
        PixelRect(x: 900, y: 900, width: 20, height: 20), PixelRect(x: -64, y: 0, width: 32, height: 32),
        PixelRect(x: 0, y: 0, width: 1, height: 1)
    ]

    private func expectRuleMatches(_ path: String, sizes: [(Int, Int)], label: String) throws {
        var checked = 0
        try RecordingReader(path: path).decode { frame in
            for (w, h) in sizes {
                let whole = try frame.grayImage(width: w, height: h)
                let rule = frame.grayRegionRule(width: w, height: h)
                for region in Self.regions {
                    let direct = try frame.grayImage(width: w, height: h, region: region)
                    #expect(rule.restricting(whole, to: region).pixels == direct.pixels, "\(label) \(w)x\(h) \(String(describing: region))")
                    checked += 1
                }
            }
        }
        #expect(checked > 0)
    }

    @Test func boxAveragedFramesAsStoredAndTurned() throws {
        let dir = TestSupport.temporaryDirectory("region-rule")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.mp4").path, turned = dir.appendingPathComponent("turned.mp4").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=240x180:rate=10", "-frames:v", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", plain
        ])
        try expectRuleMatches(plain, sizes: [(240, 180), (120, 90), (80, 60)], label: "stored")
        try Clips.withDisplayMatrix(plain, a: 0, b: 0x1_0000, c: -0x1_0000, d: 0, to: turned)
        try expectRuleMatches(turned, sizes: [(180, 240), (90, 120), (60, 80)], label: "turned a quarter")
    }

    @Test func framesLibswscaleConverts() throws {
        let dir = TestSupport.temporaryDirectory("region-rule-sws")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rgb = dir.appendingPathComponent("rgb.mkv").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=240x180:rate=10", "-frames:v", "1", "-c:v", "ffv1", "-pix_fmt", "bgr0", rgb
        ])
        // An RGB format, and a size that is not a whole factor of the frame: both go through libswscale.
        try expectRuleMatches(rgb, sizes: [(120, 90)], label: "rgb")
        let yuv = dir.appendingPathComponent("yuv.mkv").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=240x180:rate=10", "-frames:v", "1", "-c:v", "ffv1", "-pix_fmt", "yuv420p", yuv
        ])
        try expectRuleMatches(yuv, sizes: [(100, 90)], label: "uneven size")
    }
}

/// The spill keeps images by frame index within its budget, reads them back as they were, leaves
/// nothing in its directory, and keeps nothing when it cannot.
@Suite struct GrayImageSpillTests {
    private func image(_ seed: Int, width: Int = 40, height: Int = 30) -> GrayImage {
        GrayImage(width: width, height: height, pixels: (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 * 7 + seed * 31) })
    }

    private func rule() -> GrayRegionRule {
        GrayRegionRule(honoursRegions: true, storedWidth: 40, storedHeight: 30, display: .identity)
    }

    @Test func imagesComeBackAsKeptAndTheDirectoryStaysEmpty() throws {
        let dir = TestSupport.temporaryDirectory("spill")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let spill = GrayImageSpill(width: 40, height: 30, budget: 1 << 20, directory: dir.path)
        for index in 0..<20 { spill.keep(image(index), index: index, rule: rule()) }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(left.isEmpty, "the file is unlinked from the start")
        #expect(spill.holds(0..<20) && !spill.holds(0..<21))
        for index in [0, 7, 19] { #expect(spill.image(at: index)?.pixels == image(index).pixels) }
        #expect(spill.image(at: 20) == nil)
        spill.keep(image(99, width: 41), index: 20, rule: rule())
        #expect(!spill.holds(20..<21), "an image of another size is not kept")
        spill.close()
        #expect(!spill.holds(0..<1) && spill.image(at: 0) == nil)
    }

    @Test func aSpentBudgetKeepsNothingMore() {
        let spill = GrayImageSpill(width: 40, height: 30, budget: 5 * 40 * 30)
        for index in 0..<8 { spill.keep(image(index), index: index, rule: rule()) }
        #expect(!spill.holds(0..<5), "past its budget the spill gives its space back")
        #expect(spill.image(at: 0) == nil)
    }

    /// A screen at rest: frames equal to the one before them take no room in the budget.
    @Test func aFrameEqualToTheOneBeforeTakesNoRoom() {
        let spill = GrayImageSpill(width: 40, height: 30, budget: 2 * 40 * 30)
        for (index, seed) in [1, 1, 1, 2, 2].enumerated() { spill.keep(image(seed), index: index, rule: rule()) }
        #expect(spill.holds(0..<5))
        #expect(spill.image(at: 2)?.pixels == image(1).pixels && spill.image(at: 4)?.pixels == image(2).pixels)
        spill.keep(image(3), index: 5, rule: rule())
        #expect(!spill.holds(0..<1), "a third different frame is past the budget")
    }

    @Test func noDirectoryNoSpill() {
        let spill = GrayImageSpill(width: 40, height: 30, budget: 1 << 20, directory: "/nonexistent/analyze-recording-test")
        spill.keep(image(0), index: 0, rule: rule())
        #expect(!spill.holds(0..<1))
    }
}
