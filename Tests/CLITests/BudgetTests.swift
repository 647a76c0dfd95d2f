import Foundation
import Testing
import RecordingAnalysis
import TestSupport

/// Templates are checked before they cost anything: a PNG's claimed size from its header, and a
/// large sharp template is not mistaken for a blank one.
@Suite struct TemplateBudgetTests {
    /// A PNG signature and an IHDR chunk claiming `width` x `height`, followed by junk: the size is in
    /// the header, so a decoder would allocate for it before finding out the data is missing.
    private func pngClaiming(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for v in [width, height] { bytes += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        bytes += [8, 6, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0x55, count: 2_000_000)
        return Data(bytes)
    }

    @Test func aTemplateClaimingAHugeSizeIsRefusedFromItsHeader() throws {
        let dir = TestSupport.temporaryDirectory("png-bomb")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("huge.png")
        try pngClaiming(width: 16_000, height: 16_000).write(to: png)
        let r = try TestSupport.tool([
            "orientation", TestSupport.sampleMedia.appendingPathComponent("flip.mov").path, "--template", png.path
        ])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("16000x16000") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!r.crashed)
    }

    @Test func aLargeSharpCheckerboardHasContrast() {
        let side = 6144
        var pixels = [Float](repeating: 0, count: side * side)
        for y in 0..<side { for x in 0..<side where (x / 8 + y / 8) % 2 == 0 { pixels[y * side + x] = 255 } }
        let template = SpriteTemplate(width: side, height: side, pixels: pixels, weights: [Float](repeating: 1, count: side * side))
        #expect(abs(template.contrast - 127.5) < 0.5, "contrast \(template.contrast)")
    }
}

/// Work is bounded from the header before decoding starts: pixels per frame, and total pixels.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct DecodeBudgetTests {
    @Test func aFrameBeyondThePixelLimitIsRefusedBeforeDecoding() throws {
        let dir = TestSupport.temporaryDirectory("pixels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.mp4").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "color=size=8200x8200:rate=1", "-frames:v", "1", "-c:v", "libx264",
            "-preset", "ultrafast", path
        ])
        for command in [["timestamps"], ["cfr"], ["analyze"]] {
            let r = try TestSupport.tool(command + [path])
            #expect(r.status == 65 && r.stderr.contains("8200x8200"), "\(command): \(r.stderr)")
        }
    }

    /// A small Matroska file whose header claims a duration of 11 days: at 1080p that is hours of
    /// decoding, so the tool says so and stops, unless told to go on.
    @Test func aHeaderPromisingHoursOfDecodingIsRefusedUnlessLifted() throws {
        let dir = TestSupport.temporaryDirectory("work")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("small.mkv").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-t", "0.2", "-c:v", "libx264",
            "-preset", "ultrafast", "-pix_fmt", "yuv420p", path
        ])
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        // The Segment's Duration element: ID 0x4489, size 8, a big-endian double in milliseconds.
        let id = try #require(data.range(of: Data([0x44, 0x89, 0x88])))
        let claimed = (1e9 as Double).bitPattern.bigEndian
        withUnsafeBytes(of: claimed) { data.replaceSubrange(id.upperBound..<id.upperBound + 8, with: $0) }
        let huge = dir.appendingPathComponent("huge.mkv").path
        try data.write(to: URL(fileURLWithPath: huge))
        let refused = try TestSupport.tool(["timestamps", huge])
        #expect(refused.status == 65 && refused.stderr.contains("--no-work-limit"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let lifted = try TestSupport.tool(["timestamps", huge, "--no-work-limit"])
        #expect(lifted.stdout.contains("6 frames decoded"), "\(lifted.stdout)\(lifted.stderr)")
    }
}

/// Reports stay readable however long the capture: a long slot map is listed by its head and tail.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct LongReportTests {
    @Test func aSlotMapOfThousandsOfRunsIsSummarisedInTextAndWholeInJSON() throws {
        let dir = TestSupport.temporaryDirectory("long-map")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("many.mkv").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "color=c=gray:s=16x16:r=1000", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast", path
        ])
        let json = try TestSupport.tool(["cfr", path, "--fps", "1000", "--json", "-"])
        let map = try #require((try TestSupport.parseJSON(json.stdout)["cfr"] as? [String: Any])?["map"] as? [Any])
        #expect(map.count > 1900, "every slot is in the JSON")
        let text = try TestSupport.tool(["cfr", path, "--fps", "1000"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count < Limits.textRuns + 40, "\(lines.count) lines")
        let head = Limits.textRuns * 2 / 3, tail = Limits.textRuns / 3
        #expect(text.stdout.contains("\(map.count - head - tail) more runs (slots \(head)–\(map.count - tail - 1)) in the JSON (--json)"))
        #expect(lines.contains { $0.hasPrefix("  \(map.count - 1) ") }, "the last slot is listed")
    }
}
