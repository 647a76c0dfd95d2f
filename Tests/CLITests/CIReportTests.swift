import Foundation
import Testing
import TestSupport

/// Reports CI systems read: JUnit XML (checked with a real XML parser and, where xmllint is
/// installed, against a JUnit schema), GitHub Actions annotations and the job summary.
@Suite struct CIReportTests {
    private static let flip = TestSupport.sampleMedia.appendingPathComponent("flip.mov").path
    private static let fixed = TestSupport.sampleMedia.appendingPathComponent("fixed.mov").path
    private static let schema = TestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/junit.xsd").path

    /// Parses `path` with Python's XML parser and returns, per suite, (name, tests, failures, errors, failed case names).
    private func parseJUnit(_ path: String) throws -> [[String]] {
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            assert root.tag == "testsuites", root.tag
            for s in root.findall("testsuite"):
                failed = [c.get("name") for c in s.findall("testcase") if c.find("failure") is not None or c.find("error") is not None]
                print("\\t".join([s.get("name"), s.get("tests"), s.get("failures"), s.get("errors")] + failed))
            """
        let r = try TestSupport.run("/usr/bin/env", ["python3", "-c", script, path])
        #expect(r.status == 0, "not well-formed JUnit XML: \(r.stderr)")
        if let xmllint = TestSupport.which("xmllint") {
            let v = try TestSupport.run(xmllint, ["--noout", "--schema", Self.schema, path])
            #expect(v.status == 0, "JUnit schema: \(v.stderr)")
        }
        return r.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func junitForOneCaptureAndForABatch() throws {
        let dir = TestSupport.temporaryDirectory("junit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = dir.appendingPathComponent("one.xml").path
        let r = try TestSupport.tool([Self.flip, "--log", TestSupport.sampleMedia.appendingPathComponent("probe.txt").path, "--junit", one])
        #expect(r.status == 1)
        let suites = try parseJUnit(one)
        #expect(suites.count == 1)
        #expect(suites.first?[0...3] == [Self.flip, "5", "2", "0"], "\(suites)")
        #expect(Array(suites.first?.dropFirst(4) ?? []) == ["mirror flips", "verdict"])
        let xml = try String(contentsOfFile: one, encoding: .utf8)
        #expect(xml.contains("66.7 ms at 4.017 s"), "the failure must carry the verdict sentence")

        let broken = dir.appendingPathComponent("broken.mov").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: broken))
        let all = dir.appendingPathComponent("all.xml").path
        let b = try TestSupport.tool(
            [
                "batch", Self.fixed, Self.flip, broken
            ] + TestSupport.snailTemplate + [
                "--junit", all, "--json-lines", dir.appendingPathComponent("l.jsonl").path
            ])
        #expect(b.status == 1)
        let batch = try parseJUnit(all)
        #expect(batch.map { $0[0] } == [Self.fixed, Self.flip, broken])
        #expect(batch[0][2] == "0" && batch[1][2] == "2" && batch[2][3] == "1", "\(batch)")
    }

    private func runWithGitHub(_ arguments: [String], summary: String, ci: Bool = true) throws -> RunResult {
        var environment = ProcessInfo.processInfo.environment
        environment["GITHUB_ACTIONS"] = ci ? "true" : nil
        environment["GITHUB_STEP_SUMMARY"] = summary
        return try TestSupport.run(TestSupport.toolPath, arguments, environment: environment)
    }

    @Test func githubAnnotationsAndJobSummary() throws {
        let dir = TestSupport.temporaryDirectory("github")
        defer { try? FileManager.default.removeItem(at: dir) }
        let summary = dir.appendingPathComponent("summary.md").path
        // A name with the characters workflow commands must escape.
        let odd = dir.appendingPathComponent("run 1, take: 100%.mov").path
        try FileManager.default.copyItem(atPath: Self.flip, toPath: odd)
        let r = try runWithGitHub([odd, "--evidence", dir.appendingPathComponent("evidence").path], summary: summary)
        #expect(r.status == 1)
        let annotations = r.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        let escaped = odd.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(
            of: ",", with: "%2C")
        #expect(
            annotations.contains {
                $0.hasPrefix("::error file=\(escaped),title=analyze-recording%3A verdict::FAIL: 1 transient mirror flip")
            }, "\(annotations)")
        let md = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(md.contains("❌") && md.contains("| 1 | 4.017 s | 66.7 ms | 4 |") && md.contains("evidence"), "\(md)")

        let passing = try runWithGitHub([Self.fixed, "--json", "-"] + TestSupport.snailTemplate, summary: summary)
        #expect(passing.status == 0)
        #expect(passing.stderr.contains("::notice file="), "with --json - the annotations go to stderr")
        #expect(try TestSupport.parseJSON(passing.stdout)["verdict"] != nil, "stdout must stay pure JSON")
        #expect(try String(contentsOfFile: summary, encoding: .utf8).contains("✅"), "the summary is appended to")

        let off = try runWithGitHub([Self.flip, "--ci", "none"], summary: dir.appendingPathComponent("none.md").path)
        #expect(!off.stdout.contains("::error") && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("none.md").path))
        let outside = try runWithGitHub([Self.flip], summary: dir.appendingPathComponent("outside.md").path, ci: false)
        #expect(!outside.stdout.contains("::error"), "annotations only under GitHub Actions or --ci github")
    }

    @Test func quietPrintsOnlyTheVerdict() throws {
        let r = try TestSupport.tool([Self.fixed, "--quiet"] + TestSupport.snailTemplate)
        #expect(r.status == 0 && r.stdout == "Verdict: PASS: no transient mirror flip\n", "\(r.stdout)")
    }
}

/// The verdict is coloured on a terminal, never with NO_COLOR or when not a terminal (a pseudo-
/// terminal from util-linux's `script` stands in for one).
@Suite(.enabled(if: TestSupport.which("script") != nil)) struct ColourTests {
    @Test func colourOnlyOnATerminalWithoutNoColor() throws {
        let script = try #require(TestSupport.which("script"))
        let fixed = TestSupport.sampleMedia.appendingPathComponent("fixed.mov").path
        let command = "'\(TestSupport.toolPath)' '\(fixed)' --quiet " + TestSupport.snailTemplate.map { "'\($0)'" }.joined(separator: " ")
        // The test runner's own environment may carry NO_COLOR; `env -u` makes sure it is unset.
        let tty = try TestSupport.run(script, ["-qc", "env -u NO_COLOR " + command, "/dev/null"])
        #expect(tty.stdout.contains("\u{1B}[32mVerdict: PASS"), "\(tty.stdout.debugDescription)")
        let plain = try TestSupport.run(script, ["-qc", "env NO_COLOR=1 " + command, "/dev/null"])
        #expect(plain.stdout.contains("Verdict: PASS") && !plain.stdout.contains("\u{1B}[32m"))
        let piped = try TestSupport.tool([fixed, "--quiet"] + TestSupport.snailTemplate)
        #expect(!piped.stdout.contains("\u{1B}"))
    }
}
