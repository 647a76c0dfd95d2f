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
