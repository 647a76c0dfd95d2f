import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import TestSupport

/// The tool's constant-rate grid must be exactly what the ffmpeg command its rule names shows, slot
/// for slot: `-vf fps=R` and `-fps_mode cfr -r R`, with and without `-copyts`. Compared as md5s of
/// the pictures, so identical pictures cannot hide or invent a difference.
@Suite struct CFRConformanceTests {
    /// The tool's grid as the md5 of each slot's picture, with its resampler.
    private func toolHashes(_ path: String, rate: String, rule: GridRule) throws -> ([String], CFRResampler) {
        let scan = try TimingScan(path: path)
        let resampler = try CFRResampler(
            frames: scan.frames, stream: scan.gridStream, rate: try #require(Rational(parsing: rate)),
            hasBFrames: scan.audit.hasBFrames, rule: rule)
        let sources = try FFmpegOracle.sourceHashes(path)
        return (
            try resampler.map.slotMap.map { i in
                guard sources.indices.contains(i) else { throw TestSupportError.failed("source \(i) of \(sources.count)") }
                return sources[i]
            }, resampler
        )
    }

    private func oracle(_ path: String, rate: String, rule: GridRule) throws -> [String] {
        try FFmpegOracle.outputHashes(path, rate: rate, fpsModeCFR: rule.method == .fpsModeCFR, copyTimestamps: rule.origin == .absolute)
    }

    private static func firstDifference(_ a: [String], _ b: [String]) -> Int {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    }

    private static let rules: [GridRule] = GridRule.Method.allCases.flatMap { m in
        GridRule.Origin.allCases.map { GridRule(method: m, origin: $0) }
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func sampleMediaMatchesFFmpeg() throws {
        for name in ["flip.mov", "fixed.mov", "turns.mov", "flip-hevc.mov"] {
            let path = TestSupport.sampleMedia.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            for rule in GridRule.Method.allCases.map({ GridRule(method: $0) }) {
                let (tool, resampler) = try toolHashes(path, rate: "60", rule: rule)
                #expect(resampler.clock == .pts)
                let ffmpeg = try oracle(path, rate: "60", rule: rule)
                #expect(
                    tool == ffmpeg,
                    "\(name) \(rule.method): first difference at slot \(Self.firstDifference(tool, ffmpeg)) (tool \(tool.count) slots, ffmpeg \(ffmpeg.count))"
                )
            }
        }
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil), arguments: ["60", "30", "24", "30000/1001"])
    func variableRateClipsMatchFFmpeg(rate: String) throws {
        let dir = TestSupport.temporaryDirectory("cfr-\(rate.replacingOccurrences(of: "/", with: "_"))")
        defer { try? FileManager.default.removeItem(at: dir) }
        for path in try Clips.variableRate(in: dir) {
            for rule in Self.rules {
                let (tool, _) = try toolHashes(path, rate: rate, rule: rule)
                let ffmpeg = try oracle(path, rate: rate, rule: rule)
                #expect(ffmpeg.count > 20, "the oracle produced \(ffmpeg.count) slots")
                #expect(
                    tool == ffmpeg,
                    "\((path as NSString).lastPathComponent) at \(rate), \(rule.ffmpegCommand(rate: Rational(parsing: rate)!)): tool \(tool.count) slots, ffmpeg \(ffmpeg.count); first difference at \(Self.firstDifference(tool, ffmpeg))"
                )
            }
        }
    }

    /// On pts that run backwards (simctl's trap), `--timestamps ffmpeg` is exactly the ffmpeg CLI, and
    /// the default (repaired) grid names exactly the slots where the ffmpeg CLI differs.
    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func faultyTimestampsFFmpegModeAndNamedDifferences() throws {
        let dir = TestSupport.temporaryDirectory("cfr-faulty")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clips = [try Clips.editedPTS(in: dir), try Clips.simctlLikeTiming(in: dir)]
        for path in clips {
            let name = (path as NSString).lastPathComponent
            for rule in Self.rules {
                let ffmpeg = try oracle(path, rate: "60", rule: rule)
                let (exact, exactResampler) = try toolHashes(path, rate: "60", rule: rule.withFFmpegTimestamps)
                #expect(exactResampler.clock == .bestEffort)
                #expect(
                    exact == ffmpeg,
                    "\(name) \(rule.ffmpegCommand(rate: Rational(60, 1))) --timestamps ffmpeg: first difference at \(Self.firstDifference(exact, ffmpeg))"
                )
                let (repaired, resampler) = try toolHashes(path, rate: "60", rule: rule)
                let ffmpegMap = try CFRResampler(
                    frames: try TimingScan(path: path).frames, stream: try TimingScan(path: path).gridStream,
                    rate: Rational(60, 1), hasBFrames: true, rule: rule.withFFmpegTimestamps
                ).map
                let comparison = GridComparison(ours: resampler.map, theirs: ffmpegMap)
                let actuallyDiffering = (0..<max(repaired.count, ffmpeg.count)).filter {
                    (repaired.indices.contains($0) ? repaired[$0] : nil) != (ffmpeg.indices.contains($0) ? ffmpeg[$0] : nil)
                }
                #expect(!actuallyDiffering.isEmpty, "\(name): the repaired grid should differ from ffmpeg here")
                #expect(
                    comparison.differingSlots == Int64(actuallyDiffering.count),
                    "\(name) \(rule.method): reported \(comparison.differingSlots), measured \(actuallyDiffering.count)")
                let reported = comparison.differences.flatMap { d in
                    (0..<d.count).map { Int(d.absoluteSlot - resampler.map.originSlot + $0) }
                }
                #expect(
                    reported == actuallyDiffering,
                    "\(name) \(rule.method): reported slots \(reported.prefix(8)), measured \(actuallyDiffering.prefix(8))")
            }
        }
    }
}

/// The default clock is plain ffmpeg's (times from the container's start), `--copyts` keeps them as
/// stored; "the same slots as ffmpeg" is said only when a comparison proves it.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct StartTimeTests {
    @Test func theGridFollowsTheOriginRule() throws {
        let dir = TestSupport.temporaryDirectory("start")
        defer { try? FileManager.default.removeItem(at: dir) }
        for offset in ["0.026", "0.05"] {
            let path = dir.appendingPathComponent("offset-\(offset).mkv").path
            try TestSupport.ffmpegRun([
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=24", "-t", "2", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", "-output_ts_offset", offset, path
            ])
            let sources = try FFmpegOracle.sourceHashes(path)
            for copyts in [false, true] {
                let r = try TestSupport.tool(["cfr", path, "--json", "-"] + (copyts ? ["--copyts"] : []))
                let cfr = try #require(try TestSupport.parseJSON(r.stdout)["cfr"] as? [String: Any])
                let map = try #require(cfr["map"] as? [Int])
                #expect(cfr["same_slots_as_ffmpeg"] as? Bool == true, "start \(offset)")
                let ffmpeg = try FFmpegOracle.outputHashes(path, rate: "60", fpsModeCFR: false, copyTimestamps: copyts)
                #expect(map.map { sources[$0] } == ffmpeg, "start \(offset), copyts \(copyts): not ffmpeg's map")
                let text = try TestSupport.tool(["cfr", path] + (copyts ? ["--copyts"] : []))
                let command = copyts ? "ffmpeg -copyts -i REC -vf fps=60" : "ffmpeg -i REC -vf fps=60"
                #expect(text.stdout.contains("the same slots as \(command)"), "\(text.stdout)")
            }
        }
    }
}
