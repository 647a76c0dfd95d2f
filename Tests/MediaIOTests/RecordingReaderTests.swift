import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import TestSupport

@Suite struct RecordingReaderTests {
    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func framePTSMatchFFprobeOnBFrameClips() throws {
        let dir = TestSupport.temporaryDirectory("reader")
        defer { try? FileManager.default.removeItem(at: dir) }
        for path in [try Clips.h264WithBFrames(in: dir), try Clips.hevcWithBFrames(in: dir)] {
            let scan = try TimingScan(path: path)
            let oracle = try TestSupport.ffprobeFramePTS(path)
            #expect(scan.frames.map(\.pts) == oracle, "\(path)")
            #expect(scan.frames.count == 60)
            let audit = scan.audit
            #expect(audit.hasBFrames, "\(path) was encoded with B-frames")
            #expect(audit.isClean, "B-frame reordering must not be reported as an anomaly in \(path)")
            #expect(!audit.isVariableFrameRate)
            #expect(scan.info.width == 160 && scan.info.height == 120)
        }
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func findsExactlyTheEditedFrames() throws {
        let dir = TestSupport.temporaryDirectory("edited")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Clips.editedPTS(in: dir)
        let scan = try TimingScan(path: path)
        #expect(scan.info.timeBase == Rational(1, 600))
        #expect(scan.frames.map(\.pts) == (try TestSupport.ffprobeFramePTS(path)))
        let audit = scan.audit
        #expect(audit.nonMonotonic == [TimestampAudit.Backstep(index: 14, pts: 280, previousPTS: 290)])
        #expect(audit.duplicates == [TimestampAudit.Duplicate(index: 21, pts: 420)])
        #expect(audit.missingPTS.isEmpty)
        #expect(audit.dtsNonMonotonic.isEmpty)
        #expect(!audit.hasBFrames)
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func grayAndRGBConversionKeepTheImage() throws {
        let dir = TestSupport.temporaryDirectory("pixels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("white.mp4").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "color=c=white:size=64x48:rate=10", "-t", "0.5",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", path
        ])
        let reader = try RecordingReader(path: path)
        var grays: [GrayImage] = []
        var rgbs: [RGBImage] = []
        try reader.decode { frame in
            grays.append(try frame.grayImage(width: 16, height: 12))
            rgbs.append(try frame.rgbImage())
        }
        #expect(grays.count == 5)
        #expect(grays[0].width == 16 && grays[0].height == 12)
        #expect(grays[0].pixels.allSatisfy { $0 >= 250 })
        #expect(rgbs[0].width == 64 && rgbs[0].pixels.allSatisfy { $0 >= 250 })
    }

    @Test(.enabled(if: TestSupport.ffprobe != nil)) func pngEncoderWritesAReadableImage() throws {
        let dir = TestSupport.temporaryDirectory("png")
        defer { try? FileManager.default.removeItem(at: dir) }
        var image = RGBImage(width: 7, height: 5, red: 10, green: 200, blue: 30)
        image.pixels[0] = 255
        let path = dir.appendingPathComponent("x.png").path
        try PNGEncoder.write(image, to: path)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let probe = try TestSupport.run(
            TestSupport.ffprobe!, ["-v", "error", "-show_entries", "stream=width,height,pix_fmt", "-of", "csv=p=0", path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "7,5,rgb24")
        // Decode it back with ffmpeg and compare raw pixels.
        let raw = dir.appendingPathComponent("x.rgb").path
        try TestSupport.ffmpegRun(["-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))) == image.pixels)
    }

    @Test func errorsCarryTheirKind() throws {
        #expect(throws: MediaError.self) { try RecordingReader(path: "/nonexistent/x.mov") }
        do {
            _ = try RecordingReader(path: "/nonexistent/x.mov")
        } catch {
            #expect(error.kind == .cannotOpen)
            #expect(error.message.contains("no such file"))
        }
    }
}

@Suite struct RepeatedPictureTests {
    /// Each decoded frame's picture md5 according to the ffmpeg CLI (`-f framemd5`), in output order.
    private func framemd5(_ path: String) throws -> [String] {
        guard let ffmpeg = TestSupport.ffmpeg else { throw TestSupportError.missing("ffmpeg") }
        let r = try TestSupport.run(ffmpeg, ["-v", "error", "-nostdin", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"])
        guard r.status == 0 else { throw TestSupportError.failed(r.stderr) }
        return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { String($0).trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func repeatsAreTheFramesWhosePictureFFmpegHashesAlike() throws {
        let dir = TestSupport.temporaryDirectory("repeats")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A moving picture shown at a third of the rate it is written at, so most frames repeat; a
        // lossless codec keeps the repeats exact. Planar 4:2:0, packed RGB and semi-planar 4:2:0.
        let clips: [(name: String, codec: [String])] = [
            ("ffv1.mkv", ["-c:v", "ffv1", "-pix_fmt", "yuv420p"]),
            ("png.mkv", ["-c:v", "png", "-pix_fmt", "rgb24"]),
            ("nv12.mkv", ["-c:v", "rawvideo", "-pix_fmt", "nv12"])
        ]
        for clip in clips {
            let path = dir.appendingPathComponent(clip.name).path
            try TestSupport.ffmpegRun(
                ["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-t", "1.5", "-vf", "fps=30"] + clip.codec + [path])
            let hashes = try framemd5(path)
            var repeats: [Bool] = []
            try RecordingReader(path: path).decode { frame in repeats.append(frame.repeatsPrevious) }
            let oracle = hashes.indices.map { $0 > 0 && hashes[$0] == hashes[$0 - 1] }
            #expect(repeats.count == hashes.count, "\(clip.name)")
            #expect(repeats == oracle, "\(clip.name)")
            #expect(oracle.filter { $0 }.count >= 25, "\(clip.name): the clip repeats two frames of three")
            #expect(oracle.filter { !$0 }.count >= 14, "\(clip.name): and changes every third")
        }
    }
}
