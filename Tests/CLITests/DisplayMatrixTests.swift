import Foundation
import Testing
import TestSupport

/// A capture whose display matrix turns or mirrors its frames is read as shown, as the ffmpeg CLI
/// shows it: the frames written are ffmpeg's, pixel for pixel, and a sprite mirrored on screen is a
/// flip even when the stored pixels are on their side. Each clip is made with the ffmpeg CLI (the
/// matrix written into its track header) during the run.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct DisplayMatrixTests {
    struct Matrix: CustomTestStringConvertible, Sendable {
        let name: String
        let a: Int32, b: Int32, c: Int32, d: Int32
        let shownWidth: Int
        var testDescription: String { name }
    }

    static let one: Int32 = 0x1_0000
    static let matrices: [Matrix] = [
        Matrix(name: "rotate-90-clockwise", a: 0, b: one, c: -one, d: 0, shownWidth: 120),
        Matrix(name: "rotate-90-counterclockwise", a: 0, b: -one, c: one, d: 0, shownWidth: 120),
        Matrix(name: "rotate-180", a: -one, b: 0, c: 0, d: -one, shownWidth: 208),
        Matrix(name: "hflip", a: -one, b: 0, c: 0, d: one, shownWidth: 208),
        Matrix(name: "vflip", a: one, b: 0, c: 0, d: -one, shownWidth: 208),
        Matrix(name: "transpose", a: 0, b: one, c: one, d: 0, shownWidth: 120),
        Matrix(name: "antitranspose", a: 0, b: -one, c: -one, d: 0, shownWidth: 120)
    ]

    @Test(arguments: DisplayMatrixTests.matrices)
    func frameIsFFmpegsFrameAsShown(_ m: Matrix) throws {
        let dir = TestSupport.temporaryDirectory("display")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.mp4").path, path = dir.appendingPathComponent("shown.mp4").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=208x120:rate=30", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", plain
        ])
        try Clips.withDisplayMatrix(plain, a: m.a, b: m.b, c: m.c, d: m.d, to: path)
        let png = dir.appendingPathComponent("ours.png").path
        let r = try TestSupport.tool(["frame", path, "--at", "0.35", "--output", png])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\(m.shownWidth)x\(m.shownWidth == 120 ? 208 : 120)"), "\(r.stdout)")
        let raw = dir.appendingPathComponent("ours.rgb").path
        try TestSupport.ffmpegRun(["-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let ours = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let theirs = try FFmpegOracle.fpsFrameRGB(path, rate: "60", slot: 21, in: dir)
        #expect(ours.count == theirs.count && ours.count == 208 * 120 * 3)
        let differing = zip(ours, theirs).filter { $0 != $1 }.count
        #expect(differing == 0, "\(m.name): \(differing) of \(ours.count) bytes differ from ffmpeg's frame")
        let json = try TestSupport.parseJSON(try TestSupport.tool(["timestamps", path, "--json", "-"]).stdout)
        #expect((json["recording"] as? [String: Any])?["display"] as? String == m.name)
    }

    /// The sample flip stored a quarter turn counterclockwise, with the matrix that turns it back:
    /// the flip is found where the truth file puts it (before, the mirror was vertical in the pixels
    /// the detector read, and no sprite was located).
    @Test func aFlipStoredOnItsSideIsStillAFlip() throws {
        let dir = TestSupport.temporaryDirectory("display-flip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let stored = dir.appendingPathComponent("stored.mov").path, path = dir.appendingPathComponent("flip-turned.mov").path
        try TestSupport.ffmpegRun([
            "-i", TestSupport.sampleMedia.appendingPathComponent("flip.mov").path, "-vf", "transpose=cclock",
            "-fps_mode", "passthrough", "-c:v", "libx264", "-crf", "18", "-bf", "0", "-pix_fmt", "yuv420p", stored
        ])
        try Clips.withDisplayMatrix(stored, a: 0, b: Self.one, c: -Self.one, d: 0, to: path)
        let truth = try TestSupport.parseJSON(
            String(contentsOf: TestSupport.sampleMedia.appendingPathComponent("flip.truth.json"), encoding: .utf8))
        let truthFlips = try #require(truth["flips"] as? [[String: Any]])
        let r = try TestSupport.tool(["orientation", path, "--json", "-"])
        #expect(r.status == 1, "orientation exits 1 when it reports a flip: \(r.stderr)")
        let flips = try #require(TestSupport.parseJSON(r.stdout)["flips"] as? [[String: Any]])
        #expect(flips.count == truthFlips.count)
        for (found, expected) in zip(flips, truthFlips) {
            let start = try #require(found["start_s"] as? Double), duration = try #require(found["duration_ms"] as? Double)
            #expect(abs(start - (expected["start_s"] as? Double ?? -1)) < 0.0005)
            #expect(abs(duration - (expected["duration_ms"] as? Double ?? -1)) < 0.5)
        }
    }
}
