import Foundation
import Testing
import TestSupport

@Suite struct UsageTests {
    @Test func noArgumentsIsAUsageError() throws {
        let r = try TestSupport.tool([])
        #expect(r.status == 64)
        #expect(r.stderr.contains("missing RECORDING"))
    }

    @Test func unknownOptionAndMissingValueAreUsageErrors() throws {
        let unknown = try TestSupport.tool(["timestamps", "x.mov", "--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown option '--frobnicate'"))
        #expect(unknown.stderr.split(separator: "\n").count == 1)
        let missing = try TestSupport.tool(["timestamps", "x.mov", "--json"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("needs a value"))
        let extra = try TestSupport.tool(["timestamps", "a.mov", "b.mov"])
        #expect(extra.status == 64)
        #expect(extra.stderr.contains("unexpected argument 'b.mov'"))
    }

    @Test func helpAndVersion() throws {
        let help = try TestSupport.tool(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("timestamps"))
        #expect(help.stdout.contains("analyze"))
        let sub = try TestSupport.tool(["timestamps", "--help"])
        #expect(sub.status == 0)
        #expect(sub.stdout.contains("USAGE: analyze-recording timestamps RECORDING"))
        #expect(sub.stdout.contains("--json"))
        let version = try TestSupport.tool(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("analyze-recording "))
        #expect(version.stdout.contains("libavformat 59."))
    }
}

@Suite struct TimestampsCommandTests {
    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func jsonListsTheEditedFramesAndTextExplainsTheCut() throws {
        let dir = TestSupport.temporaryDirectory("cli-edited")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Clips.editedPTS(in: dir)
        let jsonPath = dir.appendingPathComponent("audit.json").path
        let r = try TestSupport.tool(["timestamps", path, "--json", jsonPath])
        #expect(r.status == 1, "pts that run backwards are a finding: \(r.stderr)")
        #expect(r.stdout.contains("#14  pts 280 (0.467 s) after 290 (0.483 s): backwards"))
        #expect(r.stdout.contains("trim=start=T"))
        #expect(r.stdout.contains("constant frame rate"))
        let json = try TestSupport.parseJSON(String(contentsOfFile: jsonPath, encoding: .utf8))
        #expect(json["schema_version"] as? Int == 1)
        let recording = try #require(json["recording"] as? [String: Any])
        #expect(recording["time_base"] as? String == "1/600")
        #expect(recording["frames"] as? Int == 60)
        #expect(recording["b_frames"] as? Bool == false)
        let ts = try #require(json["timestamps"] as? [String: Any])
        let nonMonotonic = try #require(ts["non_monotonic"] as? [[String: Any]])
        #expect(nonMonotonic.count == 1)
        #expect(nonMonotonic.first?["index"] as? Int == 14)
        #expect(nonMonotonic.first?["pts"] as? Int == 280)
        #expect(nonMonotonic.first?["previous_pts"] as? Int == 290)
        let duplicates = try #require(ts["duplicates"] as? [[String: Any]])
        #expect(duplicates.map { $0["index"] as? Int } == [21])
        let frames = try #require(ts["frames"] as? [[String: Any]])
        let oracle = try TestSupport.ffprobeFramePTS(path)
        #expect(frames.map { ($0["pts"] as? NSNumber)?.int64Value } == oracle)
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func jsonToStdoutIsOnlyJSON() throws {
        let dir = TestSupport.temporaryDirectory("cli-bframes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Clips.h264WithBFrames(in: dir)
        let r = try TestSupport.tool(["timestamps", path, "--json", "-"])
        #expect(r.status == 0)
        let json = try TestSupport.parseJSON(r.stdout)
        let ts = try #require(json["timestamps"] as? [String: Any])
        #expect((ts["non_monotonic"] as? [Any])?.isEmpty == true)
        #expect((ts["duplicates"] as? [Any])?.isEmpty == true)
        #expect((json["recording"] as? [String: Any])?["b_frames"] as? Bool == true)
    }
}
