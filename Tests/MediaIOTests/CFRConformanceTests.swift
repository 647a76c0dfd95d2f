import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import TestSupport

/// The tool's constant-rate grid must be exactly what `ffmpeg -vf fps=R` shows, slot for slot.
@Suite struct CFRConformanceTests {
    private func toolMap(_ path: String, rate: String) throws -> ([Int], CFRResampler) {
        let scan = try TimingScan(path: path)
        let resampler = try CFRResampler(frames: scan.frames, timeBase: scan.info.timeBase, rate: try #require(Rational(parsing: rate)),
                                         hasBFrames: scan.audit.hasBFrames, fallbackDuration: scan.fallbackFrameDuration)
        return (resampler.map.slotMap, resampler)
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func sampleMediaMatchesFFmpeg() throws {
        for name in ["flip.mov", "fixed.mov", "turns.mov", "flip-hevc.mov"] {
            let path = TestSupport.sampleMedia.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let (map, resampler) = try toolMap(path, rate: "60")
            #expect(resampler.clock == .pts)
            let oracle = try FFmpegOracle.fpsSlotMap(path, rate: "60")
            #expect(map == oracle, "\(name): first difference at slot \(zip(map, oracle).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(map.count, oracle.count)) (tool \(map.count) slots, ffmpeg \(oracle.count))")
        }
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil), arguments: ["60", "30", "24", "30000/1001"])
    func variableRateClipsMatchFFmpeg(rate: String) throws {
        let dir = TestSupport.temporaryDirectory("cfr-\(rate.replacingOccurrences(of: "/", with: "_"))")
        defer { try? FileManager.default.removeItem(at: dir) }
        for path in try Clips.variableRate(in: dir) {
            let (map, _) = try toolMap(path, rate: rate)
            let oracle = try FFmpegOracle.fpsSlotMap(path, rate: rate)
            #expect(oracle.count > 20, "the oracle produced \(oracle.count) slots")
            #expect(map == oracle, "\((path as NSString).lastPathComponent) at \(rate): tool \(map.count) slots, ffmpeg \(oracle.count); first difference at \(zip(map, oracle).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(map.count, oracle.count))")
        }
    }
}

/// "The same slots as ffmpeg -vf fps=R" is said only when it is true: a video that starts a fraction
/// of a slot after 0 is placed as `ffmpeg -copyts` places it, and plain ffmpeg (which subtracts the
/// start time first) differs, so the report says so.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct StartTimeClaimTests {
    @Test func theClaimFollowsTheStartTime() throws {
        let dir = TestSupport.temporaryDirectory("start")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (offset, aligned) in [("0.026", false), ("0.05", true)] {
            let path = dir.appendingPathComponent("offset-\(offset).mkv").path
            try TestSupport.ffmpegRun(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=24", "-t", "2", "-c:v", "libx264",
                                       "-pix_fmt", "yuv420p", "-output_ts_offset", offset, path])
            let r = try TestSupport.tool(["cfr", path, "--json", "-"])
            let cfr = try #require(try TestSupport.parseJSON(r.stdout)["cfr"] as? [String: Any])
            let map = try #require(cfr["map"] as? [Int])
            #expect(cfr["same_slots_as_ffmpeg"] as? Bool == aligned, "start \(offset)")
            #expect(map == (try FFmpegOracle.fpsSlotMap(path, rate: "60", copyTimestamps: true)), "start \(offset): not ffmpeg -copyts's map")
            let plain = try FFmpegOracle.fpsSlotMap(path, rate: "60")
            #expect((map == plain) == aligned, "start \(offset): the claim and plain ffmpeg disagree")
            let text = try TestSupport.tool(["cfr", path])
            #expect(text.stdout.contains("the same slots as ffmpeg -vf fps=60") == aligned, "\(text.stdout)")
        }
    }
}
