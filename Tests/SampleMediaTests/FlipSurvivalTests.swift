import Foundation
import Testing
import SampleScene
import TestSupport

/// What the encoding left of a flip (`FlipSurvival`): the pure margin, and the generator's record of
/// it against the frames the ffmpeg CLI decodes.
@Suite struct FlipSurvivalTests {
    let mirrored: [UInt8] = [10, 10, 10, 200, 200, 200, 50, 50, 50]
    let unmirrored: [UInt8] = [10, 10, 10, 40, 40, 40, 90, 90, 90]

    @Test func aFrameDecodedAsDrawnScoresOneAndAsTheOtherFacingMinusOne() {
        #expect(FlipSurvival.margin(decoded: mirrored, mirrored: mirrored, unmirrored: unmirrored) == 1)
        #expect(FlipSurvival.margin(decoded: unmirrored, mirrored: mirrored, unmirrored: unmirrored) == -1)
    }

    @Test func anEvenBlendOfBothFacingsScoresZero() {
        let blend = zip(mirrored, unmirrored).map { UInt8((Int($0) + Int($1)) / 2) }
        #expect(FlipSurvival.margin(decoded: blend, mirrored: mirrored, unmirrored: unmirrored) == 0)
    }

    @Test func pixelsBothDrawingsShareAreNotEvidence() {
        // Noise on the first pixel (the same in both drawings) must not pull the margin.
        var decoded = mirrored
        decoded[0] = 250
        decoded[1] = 0
        #expect(FlipSurvival.margin(decoded: decoded, mirrored: mirrored, unmirrored: unmirrored) == 1)
    }

    @Test func identicalDrawingsGiveNoMarginAndAreLeftOutOfTheWeakest() {
        #expect(FlipSurvival.margin(decoded: mirrored, mirrored: mirrored, unmirrored: mirrored) == nil)
        #expect(FlipSurvival.weakest([0.8, nil, 0.3, 0.9]) == 0.3)
        #expect(FlipSurvival.weakest([nil]) == nil)
    }

    /// `make-sample-media --accuracy` records each flip's weakest frame; recomputed here from the
    /// frames ffmpeg decodes and the same seeded drawings, it must agree.
    @Test func theGeneratorsRecordAgreesWithTheFramesFFmpegDecodes() throws {
        let dir = TestSupport.temporaryDirectory("survival")
        defer { try? FileManager.default.removeItem(at: dir) }
        let count = 3
        let r = try TestSupport.run(
            TestSupport.productPath("make-sample-media"), ["--accuracy", dir.path, String(count), "1"], timeout: 300)
        try #require(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOf: dir.appendingPathComponent("truth.jsonl"), encoding: .utf8).split(separator: "\n")
        var rng = SplitMix64(seed: 1)
        var compared = 0
        for line in lines {
            let c = AccuracyCase.random(&rng)
            let truth = try TestSupport.parseJSON(String(line))
            let recorded = truth["flip_survival"] as? [Any] ?? []
            try #require(recorded.count == c.flips.count, "\(line)")
            let scene = c.scenario.makeScene()
            for (flip, value) in zip(c.flips, recorded) {
                let margins = try stride(from: flip.start, to: flip.start + flip.ticks, by: c.bodyEvery).map { n in
                    let decoded = try FFmpegOracle.frameRGB(
                        dir.appendingPathComponent(truth["file"] as? String ?? "").path, index: n / c.bodyEvery, in: dir)
                    return FlipSurvival.margin(
                        decoded: decoded, mirrored: c.pixels(n, scene: scene), unmirrored: c.pixelsFacingTheOtherWay(n, scene: scene))
                }
                let expected = try #require(FlipSurvival.weakest(margins))
                let value = try #require(value as? Double, "\(line)")
                // ffmpeg's RGB conversion rounds differently from the tool's by a level or so.
                #expect(abs(value - expected) < 0.05, "\(truth["file"] ?? "") flip at \(flip.start): \(value) vs ffmpeg \(expected)")
                compared += 1
            }
        }
        #expect(compared > 0)
    }
}
