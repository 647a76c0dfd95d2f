import Foundation
import Testing
import TestSupport

/// Probe logs as the unified log prints them: every style reads to exactly the evaluations of the
/// Xcode console paste they were written from (scripts/make-log-fixtures.py), lines from another
/// process or category are ignored and counted, and the log's own timestamps become a second clock.
@Suite struct LogStyleTests {
    private static let fixtures = TestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/logs")
    private static let console = TestSupport.sampleMedia.appendingPathComponent("probe-console.txt").path

    private func logJSON(_ arguments: [String]) throws -> [String: Any] {
        let r = try TestSupport.tool(["log"] + arguments + ["--json", "-"])
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        return try #require(try TestSupport.parseJSON(r.stdout)["log"] as? [String: Any])
    }

    /// The facts of each evaluation that must not depend on the wrapping.
    private func evaluations(_ log: [String: Any]) throws -> [String] {
        let list = try #require(log["evaluation_list"] as? [[String: Any]])
        return list.map { e in
            ["skew", "elapsed", "old", "old_facing", "new", "new_facing"].map { "\(e[$0] ?? "nil")" }.joined(separator: " ")
        }
    }

    @Test(arguments: [
        ("probe-log-show.txt", "log-default"), ("probe-compact.txt", "log-compact"), ("probe-syslog.txt", "log-syslog"),
        ("probe.json", "log-json"), ("probe.ndjson", "log-ndjson")
    ])
    func eachStyleReadsToTheSameEvaluations(file: String, style: String) throws {
        let truth = try evaluations(try logJSON([Self.console]))
        #expect(truth.count == 80)
        let log = try logJSON([Self.fixtures.appendingPathComponent(file).path])
        #expect(try evaluations(log) == truth, "\(file)")
        #expect(log["style"] as? String == style)
        #expect(log["process"] as? String == "Tinnitus")
        #expect(log["source"] as? String == "com.example.tinnitus:FlipProbe")
        // After every ninth probe line the fixture adds one line from Safari and one from another category.
        #expect(log["other_source_lines"] as? Int == 16, "\(log["other_source_lines"] ?? "nil")")
        let offset = log["log_clock_offset"] as? [String: Any]
        if style == "log-compact" {
            #expect(offset == nil, "compact timestamps have no zone and must not be used")
        } else {
            #expect((offset?["median_ms"] as? Double).map { abs($0) < 0.01 } == true, "\(offset ?? [:])")
            #expect(offset?["evaluations"] as? Int == 80)
        }
    }

    @Test func theVerdictDoesNotDependOnTheStyle() throws {
        let flip = TestSupport.sampleMedia.appendingPathComponent("flip.mov").path
        let reference = try TestSupport.tool([flip, "--log", Self.console, "--json", "-"])
        let expected = try #require((try TestSupport.parseJSON(reference.stdout)["verdict"] as? [String: Any])?["summary"] as? String)
        for file in ["probe-log-show.txt", "probe.ndjson"] {
            let r = try TestSupport.tool([flip, "--log", Self.fixtures.appendingPathComponent(file).path, "--json", "-"])
            let verdict = try #require(try TestSupport.parseJSON(r.stdout)["verdict"] as? [String: Any])
            #expect(verdict["summary"] as? String == expected, "\(file)")
        }
    }

    @Test func aLogPipedToStandardInput() throws {
        let ndjson = Self.fixtures.appendingPathComponent("probe.ndjson").path
        let r = try TestSupport.run("/bin/sh", ["-c", "cat '\(ndjson)' | '\(TestSupport.toolPath)' log - --json -"])
        #expect(r.status == 0, "\(r.stderr)")
        let log = try #require(try TestSupport.parseJSON(r.stdout)["log"] as? [String: Any])
        #expect(log["evaluations"] as? Int == 80 && log["style"] as? String == "log-ndjson")
    }
}
