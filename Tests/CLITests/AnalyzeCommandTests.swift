import Foundation
import RecordingAnalysis
import Testing
import TestSupport

private func sample(_ name: String) -> String { TestSupport.sampleMedia.appendingPathComponent(name).path }

@Suite struct AnalyzeCommandTests {
    private func analyze(_ args: [String]) throws -> (RunResult, AnalyzeDocument) {
        let r = try TestSupport.tool(args + ["--json", "-"])
        #expect(!r.crashed, "\(r.stderr)")
        return (r, try AnalyzeDocument.decode(Data(r.stdout.utf8)))
    }

    private func verdict(_ json: AnalyzeDocument) -> String? { json.crossCheck?.verdict }

    @Test func theBugCaptureMatchesTheLegacyFormula() throws {
        let (r, json) = try analyze([sample("flip.mov"), "--log", sample("probe.txt")])
        #expect(r.status == 1)
        #expect(json.flips.count == 1)
        #expect(abs((json.flips.first?.durationMs ?? 0) - 66.667) < 0.01)
        #expect(verdict(json) == "matches-old")
        #expect(json.exitCode == 1)
        let pairs = try #require(json.crossCheck?.pairs)
        let old = try #require(pairs.first { $0.formula == "old" })
        #expect(old.logMs == 62.0)
        #expect(old.agrees)
        let expectBug = try TestSupport.tool([sample("flip.mov"), "--log", sample("probe.txt"), "--expect", "bug"])
        #expect(expectBug.status == 0, "\(expectBug.stdout)")
        #expect(expectBug.stdout.contains("PASS (bug reproduced)"))
        let expectFixed = try TestSupport.tool([sample("flip.mov"), "--log", sample("probe.txt"), "--expect", "fixed"])
        #expect(expectFixed.status == 1)
    }

    /// With the template the sprite is followed through the capture and shows no flip: the fix ran.
    /// Auto mode finds no mirror event, so it never locates the sprite: it cannot rule the flip out.
    @Test func theFixedCaptureMatchesTheClampedFormula() throws {
        let (r, json) = try analyze([sample("fixed.mov"), "--log", sample("probe-fixed.txt")] + TestSupport.snailTemplate)
        #expect(r.status == 0)
        #expect(json.flips.isEmpty)
        #expect(verdict(json) == "matches-new")
        let expectFixed = try TestSupport.tool(
            [sample("fixed.mov"), "--log", sample("probe-fixed.txt"), "--expect", "fixed"] + TestSupport.snailTemplate)
        #expect(expectFixed.status == 0)
        #expect(expectFixed.stdout.contains("PASS (fixed)"))
        let (auto, autoJSON) = try analyze([sample("fixed.mov"), "--log", sample("probe-fixed.txt")])
        #expect(auto.status == 1)
        #expect(verdict(autoJSON) == "undetermined")
        let autoFixed = try TestSupport.tool([sample("fixed.mov"), "--log", sample("probe-fixed.txt"), "--expect", "fixed"])
        #expect(autoFixed.status == 1)
        #expect(autoFixed.stdout.contains("Verdict: UNDETERMINED: no transient mirror flip;"), "\(autoFixed.stdout)")
        #expect(autoFixed.stdout.contains("no sprite was located"))
    }

    @Test func aLogMissingItsSecondToFifthEvaluationsIsInconsistent() throws {
        let dir = TestSupport.temporaryDirectory("edited-log")
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = try String(contentsOfFile: sample("probe.txt"), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        // Lines 1-2 are the baseline and the arming; evaluations #02-#05 are lines 4-7.
        let edited = lines.enumerated().filter { !(3...6).contains($0.offset) }.map(\.element).joined(separator: "\n")
        let path = dir.appendingPathComponent("probe-edited.txt").path
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let (r, json) = try analyze([sample("flip.mov"), "--log", path])
        #expect(r.status == 1)
        #expect(verdict(json) == "inconsistent")
        let disagreements = json.crossCheck?.disagreements ?? []
        #expect(disagreements.contains { $0.hasPrefix("old: video 66.7 ms vs log 2") && $0.contains("differs by") }, "\(disagreements)")
        let text = try TestSupport.tool([sample("flip.mov"), "--log", path])
        #expect(text.stdout.contains("disagrees: old: video 66.7 ms vs log"))
    }

    @Test func theConsoleLogGivesTheSameResult() throws {
        let (_, article) = try analyze([sample("flip.mov"), "--log", sample("probe.txt")])
        let (r, console) = try analyze([sample("flip.mov"), "--log", sample("probe-console.txt")])
        #expect(r.status == 1)
        #expect(verdict(console) == verdict(article))
        let a = try #require(article.crossCheck?.pairs)
        let c = try #require(console.crossCheck?.pairs)
        #expect(a.map(\.logMs) == c.map(\.logMs))
    }

    @Test func withoutALogTheVerdictIsTheVideosAlone() throws {
        let bug = try TestSupport.tool([sample("turns.mov")])
        #expect(bug.status == 1)
        #expect(bug.stdout.contains("Turns      5.233 s → mirrored"))
        let clean = try TestSupport.tool(["analyze", sample("fixed.mov")] + TestSupport.snailTemplate)
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("Verdict: PASS"))
        let unseen = try TestSupport.tool(["analyze", sample("fixed.mov")])
        #expect(unseen.status == 1 && unseen.stdout.contains("Verdict: UNDETERMINED"), "\(unseen.stdout)")
        #expect(!clean.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }

    /// After its flip is cut off, turns.mov shows only real turns. Auto mode follows the first
    /// thing it sees mirror in place; with a second sprite that might be another one than the
    /// sprite under test, so its "no flip" passes nothing. The template names the sprite.
    @Test func withoutAFlipAutoModesSpritePassesNoCheck() throws {
        let dir = TestSupport.temporaryDirectory("turns-only")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cut = dir.appendingPathComponent("turns-only.mov").path
        try TestSupport.ffmpegRun(["-ss", "4.5", "-i", sample("turns.mov"), "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p", cut])
        for expect in [[], ["--expect", "fixed"]] {
            let (auto, json) = try analyze([cut] + expect)
            #expect(json.flips.isEmpty && json.turns.count == 3, "\(json.turns)")
            #expect(auto.status == 1 && json.verdict.undetermined && !json.verdict.passed)
            #expect(json.verdict.spriteIdentity == "first_mirror_event")
            #expect(json.verdict.summary.contains("auto mode followed the first thing it saw mirror in place (it turns at 0.683 s)"))
            let (named, namedJSON) = try analyze([cut] + expect + TestSupport.snailTemplate)
            #expect(named.status == 0 && namedJSON.verdict.passed && namedJSON.verdict.spriteIdentity == "template")
            #expect(namedJSON.turns.count == 3)
        }
    }

    @Test func evidenceFolderHasTheFilmstripTimelineJSONAndPage() throws {
        let dir = TestSupport.temporaryDirectory("evidence")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("ev").path
        let r = try TestSupport.tool([sample("flip.mov"), "--log", sample("probe.txt"), "--evidence", out])
        #expect(r.status == 1)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        // The flip seen, and the moment the log predicts it (here the same one), each with a close-up.
        #expect(
            files == [
                "flip-1.png", "flip-1-closeup.png", "predicted-old-1.png", "predicted-old-1-closeup.png", "timeline.png", "report.json",
                "index.html"
            ])
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains("src=\"flip-1.png\"") && html.contains("src=\"timeline.png\"") && html.contains("href=\"report.json\""))
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") && !html.contains("https://"))
        let json = try AnalyzeDocument.decode(Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        #expect(verdict(json) == "matches-old")
        if let ffprobe = TestSupport.ffprobe {
            let probe = try TestSupport.run(
                ffprobe, ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", out + "/flip-1.png"])
            // Two slots before, the four mirrored slots, two after: eight tiles.
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(8 * 390 + 7 * 2),844")
        }
    }

    @Test func badLogsAndOptions() throws {
        let dir = TestSupport.temporaryDirectory("bad-log")
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("notes.txt").path
        try "hello\nno probe here\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let r = try TestSupport.tool([sample("flip.mov"), "--log", empty])
        #expect(r.status == 65)
        #expect(r.stderr.contains("notes.txt") && r.stderr.contains("no FlipProbe evaluation line"))
        #expect(r.stderr.split(separator: "\n").count == 1)
        let missing = try TestSupport.tool(["log", dir.appendingPathComponent("nope.txt").path])
        #expect(missing.status == 66)
        let junk = dir.appendingPathComponent("junk.bin").path
        try Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: junk))
        let j = try TestSupport.tool(["log", junk])
        #expect(j.status == 65 && !j.crashed)
        for args in [
            ["--expect", "maybe"], ["--tolerance-ms", "-3"], ["--roi", "1,2,3"], ["--transient-ms", "0"], ["--transient-ms", "1e-7"],
            ["--grid", "fps"], ["--timestamps", "best"]
        ] {
            let u = try TestSupport.tool([sample("flip.mov")] + args)
            #expect(u.status == 64, "\(args): \(u.stderr)")
        }
    }

    @Test func logSubcommandExplainsTheLog() throws {
        let r = try TestSupport.tool(["log", sample("probe.txt")])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Old predicts  a 62.0 ms flip"))
        #expect(r.stdout.contains("15 of 15 baseline skews negative"))
        let j = try TestSupport.tool(["log", sample("probe-console.txt"), "--json", "-"])
        let log = try #require(try TestSupport.parseJSON(j.stdout)["log"] as? [String: Any])
        #expect(log["evaluations"] as? Int == 80)
        #expect(log["skew_samples"] as? Int == 15)
        #expect((log["evaluation_list"] as? [Any])?.count == 80)
    }
}
