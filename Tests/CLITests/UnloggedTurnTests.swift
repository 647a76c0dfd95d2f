import Foundation
import Testing
import TestSupport

/// The sprite in view turns where the probe log's sprite does not: `analyze` names each such turn,
/// in text and JSON, and takes the log's word only where the turns agree.
@Suite struct UnloggedTurnTests {
    private static let turns = TestSupport.sampleMedia.appendingPathComponent("turns.mov").path

    private func unloggedTurns(log: String) throws -> [Double] {
        let r = try TestSupport.tool(
            [Self.turns, "--log", TestSupport.sampleMedia.appendingPathComponent(log).path, "--json", "-"] + TestSupport.snailTemplate)
        let json = try TestSupport.parseJSON(r.stdout)
        let check = try #require(json["cross_check"] as? [String: Any], "\(r.stderr)")
        let rows = try #require(check["unlogged_turns"] as? [[String: Any]])
        return rows.compactMap { $0["at_s"] as? Double }
    }

    @Test func theCapturesOwnLogMakesEveryTurn() throws {
        #expect(try unloggedTurns(log: "probe-turns.txt").isEmpty)
    }

    @Test func aLogWhoseSpriteNeverTurnsNamesEveryTurn() throws {
        // probe.txt is flip.mov's log: the same tap and flip, but a walk that never turns.
        let truth = try TestSupport.parseJSON(
            try String(contentsOf: TestSupport.sampleMedia.appendingPathComponent("turns.truth.json"), encoding: .utf8))
        let truthTurns = try #require(truth["turns"] as? [[String: Any]]).compactMap { $0["at_s"] as? Double }
        #expect(truthTurns.count == 3)
        let found = try unloggedTurns(log: "probe.txt")
        #expect(found.count == truthTurns.count, "\(found)")
        for (a, b) in zip(found, truthTurns) { #expect(abs(a - b) < 1.5 / 60, "\(a) vs \(b)") }
        let text = try TestSupport.tool(
            [Self.turns, "--log", TestSupport.sampleMedia.appendingPathComponent("probe.txt").path] + TestSupport.snailTemplate)
        #expect(text.stdout.contains("not in the log: the sprite in view turns at 5.233 s"), "\(text.stdout)")
    }
}
