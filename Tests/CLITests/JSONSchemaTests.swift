import Foundation
import RecordingAnalysis
import Testing
import TestSupport

/// The analyze document read through its Decodable mirror (`AnalyzeDocument`), as `batch` reads it:
/// values against the sample's truth file, and the mirror, the document and the README naming the
/// same top-level members.
@Suite struct JSONSchemaTests {
    private func analyze(_ arguments: [String]) throws -> (AnalyzeDocument, [String: Any]) {
        let r = try TestSupport.tool(arguments + ["--json", "-"], directory: TestSupport.packageRoot)
        let document = try AnalyzeDocument.decode(Data(r.stdout.utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return (document, object)
    }

    private func truth(_ name: String) throws -> [String: Any] {
        let url = TestSupport.packageRoot.appendingPathComponent("SampleMedia/\(name).truth.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func theFlipSampleReadsBackAsItsTruth() throws {
        let (document, _) = try analyze(["SampleMedia/flip.mov", "--log", "SampleMedia/probe.txt"])
        let truth = try truth("flip")
        let truthFlips = try #require(truth["flips"] as? [[String: Any]])
        #expect(document.schemaVersion == ReportDocument.schemaVersion)
        #expect(document.flips.count == truthFlips.count)
        for (flip, expected) in zip(document.flips, truthFlips) {
            #expect(abs(flip.startS - (expected["start_s"] as? Double ?? -1)) < 1e-6)
            #expect(abs(flip.durationMs - (expected["duration_ms"] as? Double ?? -1)) < 1e-3)
            #expect(flip.cfrFrames == expected["cfr_frames"] as? Int64 ?? Int64(expected["cfr_frames"] as? Int ?? -1))
            // Slots are ticks of the grid's 1/fps clock: the seconds are the slot over the rate.
            #expect(abs(Double(flip.startSlot) / document.cfr.fps - flip.startS) < 1e-6)
            #expect(flip.endSlot - flip.startSlot == flip.cfrFrames)
        }
        #expect(document.recording.frames == truth["frames"] as? Int)
        #expect(document.cfr.fps == truth["refresh_hz"] as? Double ?? Double(truth["refresh_hz"] as? Int ?? -1))
        #expect(document.crossCheck?.verdict == "matches-old")
        #expect(document.verdict.crossCheck == "matches-old" && !document.verdict.passed && document.exitCode == 1)
        #expect(document.wallClock?.source == "probe-log")
        #expect(document.predictedMoments.first?.formula == "old")
    }

    @Test func turnsReadBackWithTheirSlots() throws {
        let (document, _) = try analyze(["SampleMedia/turns.mov"])
        let truthTurns = try #require(try truth("turns")["turns"] as? [[String: Any]])
        #expect(document.turns.count == truthTurns.count)
        for (turn, expected) in zip(document.turns, truthTurns) {
            let at = try #require(expected["at_s"] as? Double ?? expected["start_s"] as? Double)
            #expect(abs(turn.atS - at) < 1e-6)
            #expect(abs(Double(turn.slot) / document.cfr.fps - turn.atS) < 1e-6)
        }
    }

    @Test func mirrorDocumentAndReadmeNameTheSameMembers() throws {
        let (document, object) = try analyze(["SampleMedia/fixed.mov"])
        let declared = Mirror(reflecting: document).children.compactMap(\.label).map(Self.snakeCase)
        #expect(Set(declared) == Set(object.keys))
        let readme = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let sentence = try #require(
            readme.range(of: "`--json FILE` writes the whole document").map { readme[$0.lowerBound...].prefix(600) })
        for key in object.keys { #expect(sentence.contains("`\(key)`"), "the README's JSON section does not name `\(key)`") }
    }

    private static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { out, c in
            if c.isUppercase { out += "_" + c.lowercased() } else { out.append(c) }
        }
    }
}
