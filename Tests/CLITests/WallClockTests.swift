import Foundation
import Testing
import TestSupport

/// Locating frames by wall time: every accepted form, every mapping source with its uncertainty,
/// and the evidence at the moment a formula predicts a flip, checked against the sample maker's
/// truth (the wall time of the first frame, the flip's start and the predicted flip's wall time).
@Suite struct WallClockTests {
    private static func sample(_ name: String) -> String { TestSupport.sampleMedia.appendingPathComponent(name).path }

    private func truth(_ name: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.sample(name)))) as? [String: Any])
    }

    /// The legacy formula's predicted flip (wall time) and the first frame's wall time, from the truth file.
    private func legacyFlipWall(_ truth: [String: Any]) throws -> (flip: Double, wallStart: Double) {
        let log = try #require(truth["log"] as? [String: Any])
        let old = try #require(((log["predicted"] as? [String: Any])?["old"] as? [[String: Any]])?.first)
        return (try #require(old["start_wall"] as? Double), try #require(truth["wall_start"] as? Double))
    }

    @Test func throughTheProbeLogTheMirroredFrameIsWritten() throws {
        let dir = TestSupport.temporaryDirectory("at-wall")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try truth("flip.truth.json")
        let (flipWall, _) = try legacyFlipWall(t)
        let flipStart = try #require((t["flips"] as? [[String: Any]])?.first?["start_s"] as? Double)
        let png = dir.appendingPathComponent("f.png").path
        let r = try TestSupport.tool([
            "frame", Self.sample("flip.mov"), "--at-wall", String(format: "%.5f", flipWall),
            "--log", Self.sample("probe.txt"), "--output", png
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("(from the probe log, ±16.7 ms"), "\(r.stdout)")
        #expect(r.stdout.contains(String(format: "→ %.3f s on the recording", flipStart)), "\(r.stdout)")
        // The mirrored frame: the one the orientation report calls mirrored.
        let o = try TestSupport.tool(["orientation", Self.sample("flip.mov"), "--json", "-"])
        let flips = try #require(try TestSupport.parseJSON(o.stdout)["flips"] as? [[String: Any]])
        let mirrored = try #require((flips.first?["sources"] as? [Int])?.first)
        #expect(r.stdout.contains("Wrote \(png): source frame #\(mirrored),"), "\(r.stdout)")
    }

    @Test func fromWallOriginAndCreationTimeWithTheirUncertainty() throws {
        let dir = TestSupport.temporaryDirectory("at-wall-origin")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (flipWall, wallStart) = try legacyFlipWall(try truth("flip.truth.json"))
        let png = dir.appendingPathComponent("f.png").path
        // The same instant in all three accepted forms.
        let unix = String(format: "@%.5f", flipWall + 978_307_200)
        for form in [String(format: "%.5f", flipWall), unix] {
            let r = try TestSupport.tool([
                "frame", Self.sample("flip.mov"), "--at-wall", form, "--wall-origin", String(format: "%.3f", wallStart), "--output", png
            ])
            #expect(r.status == 0, "\(form): \(r.stderr)")
            #expect(
                r.stdout.contains(String(format: "→ %.3f s on the recording (from --wall-origin, ±0.0 ms", flipWall - wallStart)),
                "\(r.stdout)")
        }
        let iso = try TestSupport.tool(["frame", Self.sample("flip.mov"), "--at-wall", "2026-08-20T18:14:25.315+02:00", "--output", png])
        #expect(
            iso.stdout.contains("wall 2026-08-20T16:14:25.315Z → ") && iso.stdout.contains("(from creation_time, ±500.0 ms"),
            "\(iso.stdout)")
    }

    @Test func badFormsAndMissingMappingsAreUsageErrors() throws {
        let dir = TestSupport.temporaryDirectory("at-wall-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("f.png").path
        for bad in ["4.05", "2026-08-20T16:14:25", "yesterday", "@abc"] {
            let r = try TestSupport.tool(["frame", Self.sample("flip.mov"), "--at-wall", bad, "--output", png])
            #expect(r.status == 64 && r.stderr.contains("ISO 8601"), "\(bad): \(r.stderr)")
        }
        let clip = try Clips.h264WithBFrames(in: dir)
        let none = try TestSupport.tool(["frame", clip, "--at-wall", "@1787242465", "--output", png])
        #expect(none.status == 64 && none.stderr.contains("--wall-origin"), "no creation_time: \(none.stderr)")
        let outside = try TestSupport.tool(["frame", Self.sample("flip.mov"), "--at-wall", "@1000000000", "--output", png])
        #expect(outside.status == 64 && outside.stderr.contains("outside the recording"), "\(outside.stderr)")
    }

    /// A fixed build shows no flip; the evidence still shows the moment the legacy formula would
    /// have flipped, and the sprite facing the same way in every slot of it.
    @Test func aFixedCaptureGetsPicturesOfThePredictedMoment() throws {
        let dir = TestSupport.temporaryDirectory("predicted")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try truth("fixed.truth.json")
        let (_, wallStart) = try legacyFlipWall(t)
        let appears = try #require(t["tap_appears_s"] as? Double)
        for origin in [nil, String(format: "%.3f", wallStart)] {
            let evidence = dir.appendingPathComponent(origin == nil ? "creation" : "origin").path
            let r = try TestSupport.tool(
                [Self.sample("fixed.mov"), "--log", Self.sample("probe-fixed.txt"), "--evidence", evidence, "--json", "-"]
                    + TestSupport.snailTemplate
                    + (origin.map { ["--wall-origin", $0] } ?? []))
            #expect(r.status == 0, "\(r.stderr)")
            let json = try TestSupport.parseJSON(r.stdout)
            let clock = try #require(json["wall_clock"] as? [String: Any])
            #expect(clock["source"] as? String == (origin == nil ? "creation-time" : "wall-origin"))
            let moment = try #require((json["predicted_moments"] as? [[String: Any]])?.first)
            #expect(moment["formula"] as? String == "old")
            let first = try #require(moment["first_slot"] as? Int), last = try #require(moment["last_slot"] as? Int)
            let slot = Int((appears * 60).rounded())
            #expect(first <= slot && slot <= last, "the predicted window \(first)–\(last) misses the true moment, slot \(slot)")
            let seen = try #require(moment["seen"] as? [[String: Any]])
            #expect(seen.count == 1 && seen.first?["facing"] as? String != "mirrored", "\(seen)")
            let files = try FileManager.default.contentsOfDirectory(atPath: evidence)
            #expect(files.contains { $0.hasPrefix("predicted-old-1") && $0.hasSuffix(".png") }, "\(files)")
            let html = try String(contentsOfFile: evidence + "/index.html", encoding: .utf8)
            #expect(html.contains("The legacy formula predicts"), "the strip is labelled with its formula")
        }
    }
}

@Suite struct WallTimeParsingTests {
    @Test func acceptedFormsAgree() {
        let a = WallTimeProbe.parse("808935265.31518"), b = WallTimeProbe.parse("@1787242465.31518"),
            c = WallTimeProbe.parse("2026-08-20T16:14:25.31518Z")
        #expect(a != nil && b != nil && c != nil)
        #expect(abs((a ?? 0) - (b ?? 0)) < 1e-6 && abs((a ?? 0) - (c ?? 0)) < 1e-6)
    }
}

/// Parses through the tool, the way a user's argument is parsed (the core type is internal to it).
private enum WallTimeProbe {
    static func parse(_ text: String) -> Double? {
        guard
            let r = try? TestSupport.tool([
                "frame", TestSupport.sampleMedia.appendingPathComponent("flip.mov").path, "--at-wall", text,
                "--wall-origin", "808935261.3", "--output", "/dev/null"
            ]),
            let line = r.stdout.split(separator: "\n").first(where: { $0.hasPrefix("wall ") }),
            let arrow = line.range(of: "→ "), let s = line[arrow.upperBound...].split(separator: " ").first
        else { return nil }
        return Double(s)
    }
}
