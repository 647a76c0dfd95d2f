import Foundation
import Testing
import TestSupport

/// `frame` converts exactly as the ffmpeg CLI does: the stream's colour matrix and range, every
/// column at awkward widths. Each clip is made with the ffmpeg CLI during the run.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct FrameColorimetryTests {
    struct Clip: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        var testDescription: String { name }
    }

    static let clips: [Clip] = [
        Clip(name: "hevc-1170", arguments: ["-f", "lavfi", "-i", "testsrc2=size=1170x420:rate=30", "-t", "1", "-c:v", "libx265",
                                            "-x265-params", "log-level=error", "-pix_fmt", "yuv420p"]),
        Clip(name: "h264-1284", arguments: ["-f", "lavfi", "-i", "testsrc2=size=1284x300:rate=30", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        Clip(name: "h264-828-bt709", arguments: ["-f", "lavfi", "-i", "testsrc2=size=828x300:rate=30", "-t", "1",
                                                 "-vf", "scale=out_color_matrix=bt709", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                                                 "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]),
        Clip(name: "h264-bt601-tagged", arguments: ["-f", "lavfi", "-i", "testsrc2=size=390x300:rate=30", "-t", "1", "-c:v", "libx264",
                                                    "-pix_fmt", "yuv420p", "-colorspace", "smpte170m", "-color_range", "tv"]),
        Clip(name: "h264-full-range", arguments: ["-f", "lavfi", "-i", "testsrc2=size=390x300:rate=30", "-t", "1",
                                                  "-vf", "scale=out_range=full", "-c:v", "libx264", "-pix_fmt", "yuvj420p", "-color_range", "pc"]),
        Clip(name: "h264-odd-444", arguments: ["-f", "lavfi", "-i", "testsrc2=size=391x211:rate=30", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv444p"]),
    ]

    @Test(arguments: FrameColorimetryTests.clips)
    func frameIsPixelIdenticalToFFmpegs(_ clip: Clip) throws {
        let dir = TestSupport.temporaryDirectory("colour")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(clip.name + ".mov").path
        do { try TestSupport.ffmpegRun(clip.arguments + [path]) } catch {
            if clip.name.hasPrefix("hevc") { return } // this ffmpeg has no libx265
            throw error
        }
        let png = dir.appendingPathComponent("ours.png").path
        let r = try TestSupport.tool(["frame", path, "--at", "0.35", "--output", png])
        #expect(r.status == 0, "\(r.stderr)")
        let raw = dir.appendingPathComponent("ours.rgb").path
        try TestSupport.ffmpegRun(["-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let ours = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let theirs = try FFmpegOracle.fpsFrameRGB(path, rate: "60", slot: 21, in: dir)
        #expect(ours.count == theirs.count)
        let differing = zip(ours, theirs).filter { $0 != $1 }.count
        #expect(differing == 0, "\(clip.name): \(differing) of \(ours.count) bytes differ from ffmpeg's frame")
    }
}
