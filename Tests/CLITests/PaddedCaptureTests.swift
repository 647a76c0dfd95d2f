import Foundation
import Testing
import TestSupport

/// A capture written at a fixed rate repeats its picture while nothing moves. The sample captures
/// (change-driven, variable rate) re-encoded losslessly at 60 and 240 frames a second hold the same
/// pictures, most of them repeated: the flips and turns are those of the truth files, at the same
/// times, and every decoded frame has a reading.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct PaddedCaptureTests {
    @Test(arguments: ["flip", "turns"]) func repeatsChangeNoFlipOrTurn(_ sample: String) throws {
        let dir = TestSupport.temporaryDirectory("padded")
        defer { try? FileManager.default.removeItem(at: dir) }
        let truth = try TestSupport.parseJSON(
            String(contentsOf: TestSupport.sampleMedia.appendingPathComponent("\(sample).truth.json"), encoding: .utf8))
        let truthFlips = try #require(truth["flips"] as? [[String: Any]]).map {
            ($0["start_s"] as? Double ?? -1, $0["duration_ms"] as? Double ?? -1)
        }
        let truthTurns = try #require(truth["turns"] as? [[String: Any]]).count
        for rate in [60, 240] {
            let path = dir.appendingPathComponent("\(sample)-\(rate).mp4").path
            try TestSupport.ffmpegRun([
                "-i", TestSupport.sampleMedia.appendingPathComponent("\(sample).mov").path, "-vf", "fps=\(rate)",
                "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", path
            ])
            let r = try TestSupport.tool(["orientation", path, "--json", "-"])
            // 1: flips found, as in each of these samples.
            #expect(r.status == 1, "\(r.stderr)")
            let json = try TestSupport.parseJSON(r.stdout)
            let flips = try #require(json["flips"] as? [[String: Any]]).map {
                ($0["start_s"] as? Double ?? -2, $0["duration_ms"] as? Double ?? -2)
            }
            #expect(flips.count == truthFlips.count, "\(sample) at \(rate) fps: \(flips)")
            for (found, expected) in zip(flips, truthFlips) {
                // Within one source refresh of the truth (the grid is the padded rate's).
                #expect(
                    abs(found.0 - expected.0) < 1.0 / 60 + 1e-6, "\(sample) at \(rate) fps: flip at \(found.0) s, truth \(expected.0) s")
                #expect(abs(found.1 - expected.1) < 1000.0 / 60 + 1e-3, "\(sample) at \(rate) fps: \(found.1) ms, truth \(expected.1) ms")
            }
            #expect((json["turns"] as? [Any])?.count == truthTurns, "\(sample) at \(rate) fps")
            let frames = try #require((json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]])
            let oracle = try TestSupport.ffprobeFramePTS(path)
            #expect(frames.count == oracle.count, "\(sample) at \(rate) fps: a reading for every decoded frame")
            #expect(frames.enumerated().allSatisfy { $0.element["index"] as? Int == $0.offset })
        }
    }
}
