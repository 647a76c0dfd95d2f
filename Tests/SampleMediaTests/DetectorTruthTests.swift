import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import SampleScene
import TestSupport

/// The detector against ground truth: every SampleMedia capture in both modes, and a second scene.
@Suite struct DetectorTruthTests {
    struct Expected {
        var flips: [(start: Double, cfrFrames: Int, sourceFrames: Int)]
        var turns: [Double]
    }

    private func expected(fromTruth url: URL) throws -> Expected {
        let truth = try TestSupport.parseJSON(String(contentsOf: url, encoding: .utf8))
        let flips = (truth["flips"] as? [[String: Any]] ?? []).map {
            (
                start: $0["start_s"] as? Double ?? -1, cfrFrames: $0["cfr_frames"] as? Int ?? -1,
                sourceFrames: $0["source_frames"] as? Int ?? -1
            )
        }
        let turns = (truth["turns"] as? [[String: Any]] ?? []).map { $0["at_s"] as? Double ?? -1 }
        return Expected(flips: flips, turns: turns)
    }

    private func check(_ path: String, template: String?, against e: Expected, label: String) throws {
        var args = ["orientation", path, "--json", "-"]
        if let template { args += ["--template", template] }
        let r = try TestSupport.tool(args)
        #expect(r.status == (e.flips.isEmpty ? 0 : 1), "\(label): \(r.stderr)")
        let json = try TestSupport.parseJSON(r.stdout)
        let flips = json["flips"] as? [[String: Any]] ?? []
        let turns = json["turns"] as? [[String: Any]] ?? []
        #expect(flips.count == e.flips.count, "\(label): \(flips.count) flips, truth \(e.flips.count): \(flips)")
        for (got, want) in zip(flips, e.flips) {
            let start = got["start_s"] as? Double ?? -9
            #expect(abs(start - want.start) <= 1.0 / 60 + 1e-6, "\(label): flip at \(start) s, truth \(want.start) s")
            #expect(
                got["cfr_frames"] as? Int == want.cfrFrames, "\(label): \(got["cfr_frames"] ?? "nil") cfr frames, truth \(want.cfrFrames)")
            if want.sourceFrames >= 0 { #expect(got["source_frames"] as? Int == want.sourceFrames, "\(label)") }
        }
        #expect(turns.count == e.turns.count, "\(label): turns \(turns), truth \(e.turns)")
        for (got, want) in zip(turns, e.turns) {
            let at = got["at_s"] as? Double ?? -9
            #expect(abs(at - want) <= 1.0 / 60 + 1e-6, "\(label): turn at \(at) s, truth \(want) s")
        }
    }

    @Test(arguments: ["flip", "fixed", "turns", "nonmonotonic", "flip-hevc"])
    func sampleMediaInBothModes(name: String) throws {
        let truth = TestSupport.sampleMedia.appendingPathComponent("\(name).truth.json")
        // Every sample, flip-hevc included, is committed with its truth: a missing one is a failure.
        try #require(FileManager.default.fileExists(atPath: truth.path), "\(truth.path) is missing")
        let e = try expected(fromTruth: truth)
        let path = TestSupport.sampleMedia.appendingPathComponent("\(name).mov").path
        try check(path, template: nil, against: e, label: "\(name) auto")
        try check(path, template: TestSupport.sampleMedia.appendingPathComponent("snail.png").path, against: e, label: "\(name) template")
        if name == "fixed" { #expect(e.flips.isEmpty) }
    }

    /// A car on a road, 30 fps with a hole (variable rate), H.264 with B-frames: a 1-frame flip, a
    /// 10-frame flip and a real turnaround.
    @Test func aSecondSceneWithAnotherSprite() throws {
        let dir = TestSupport.temporaryDirectory("car")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sprite = CarScene.sprite()
        let path = dir.appendingPathComponent("car.mov").path
        let writer = try VideoWriter(
            path: path,
            settings: VideoWriter.Settings(
                codec: .h264, width: CarScene.width, height: CarScene.height, timeBase: Rational(1, 600), frameRate: Rational(30, 1),
                bFrames: 2))
        let frames = (0..<120).filter { !(50...54).contains($0) }
        for (i, n) in frames.enumerated() {
            let x = n < 90 ? 20 + 2.5 * Double(n) : 20 + 2.5 * Double(180 - n)
            let mirrored = n == 40 || (70...79).contains(n) || n >= 90
            let image = RGBImage(
                width: CarScene.width, height: CarScene.height,
                pixels: CarScene.render(x: x, facingRight: !mirrored, time: Double(n) / 30, sprite: sprite))
            let next = i + 1 < frames.count ? frames[i + 1] : 120
            try writer.append(image, pts: Int64(n) * 20, duration: Int64(next - n) * 20)
        }
        try writer.finish()
        let png = dir.appendingPathComponent("car.png").path
        try OutputFile.writeAtomically(
            try PNGEncoder.encodeRGBA(width: sprite.width, height: sprite.height, pixels: sprite.rgbaBytes()), to: png)
        // The grid is the capture's own 30 fps (detected from the frame intervals): frame n is slot n.
        let e = Expected(
            flips: [(start: 40.0 / 30, cfrFrames: 1, sourceFrames: 1), (start: 70.0 / 30, cfrFrames: 10, sourceFrames: 10)],
            turns: [90.0 / 30])
        try check(path, template: nil, against: e, label: "car auto")
        try check(path, template: png, against: e, label: "car template")
    }
}

/// Skipping the deblocking filter for analysis must not change a verdict.
@Suite struct LoopFilterTests {
    @Test(arguments: ["flip", "fixed", "turns", "nonmonotonic", "flip-hevc"])
    func skippingTheLoopFilterChangesNoFlipOrTurn(name: String) throws {
        let path = TestSupport.sampleMedia.appendingPathComponent("\(name).mov").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        func result(_ extra: [String]) throws -> (String, String) {
            let r = try TestSupport.tool(["orientation", path, "--json", "-"] + extra)
            let json = try TestSupport.parseJSON(r.stdout)
            func canonical(_ key: String) throws -> String {
                let data = try JSONSerialization.data(withJSONObject: json[key] ?? [], options: [.sortedKeys])
                return String(decoding: data, as: UTF8.self)
            }
            return (try canonical("flips"), try canonical("turns"))
        }
        let fast = try result([]), full = try result(["--full-decode"])
        #expect(fast.0 == full.0, "\(name) flips differ without the loop filter")
        #expect(fast.1 == full.1, "\(name) turns differ without the loop filter")
    }
}
