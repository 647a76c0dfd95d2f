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
        #expect(FlipSurvival.margin(decoded: mirrored, drawn: mirrored, otherWay: unmirrored) == 1)
        #expect(FlipSurvival.margin(decoded: unmirrored, drawn: mirrored, otherWay: unmirrored) == -1)
    }

    @Test func anEvenBlendOfBothFacingsScoresZero() {
        let blend = zip(mirrored, unmirrored).map { UInt8((Int($0) + Int($1)) / 2) }
        #expect(FlipSurvival.margin(decoded: blend, drawn: mirrored, otherWay: unmirrored) == 0)
    }

    @Test func pixelsBothDrawingsShareAreNotEvidence() {
        // Noise on the first pixel (the same in both drawings) must not pull the margin.
        var decoded = mirrored
        decoded[0] = 250
        decoded[1] = 0
        #expect(FlipSurvival.margin(decoded: decoded, drawn: mirrored, otherWay: unmirrored) == 1)
    }

    @Test func identicalDrawingsGiveNoMarginAndAreLeftOutOfTheWeakest() {
        #expect(FlipSurvival.margin(decoded: mirrored, drawn: mirrored, otherWay: mirrored) == nil)
        #expect(FlipSurvival.weakest([0.8, nil, 0.3, 0.9]) == 0.3)
        #expect(FlipSurvival.weakest([nil]) == nil)
    }

    /// `make-sample-media --accuracy` records each flip's weakest frame and the weaker frame beside
    /// it; recomputed here from the frames ffmpeg decodes and the same seeded drawings, they must agree.
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
            let file = dir.appendingPathComponent(truth["file"] as? String ?? "").path
            let recorded = [truth["flip_survival"] as? [Any] ?? [], truth["side_survival"] as? [Any] ?? []]
            try #require(recorded.allSatisfy { $0.count == c.flips.count }, "\(line)")
            let scene = c.scenario.makeScene()
            func weakest(_ ticks: [Int]) throws -> Double? {
                FlipSurvival.weakest(
                    try ticks.map { n in
                        FlipSurvival.margin(
                            decoded: try FFmpegOracle.frameRGB(file, index: n / c.bodyEvery, in: dir),
                            drawn: c.pixels(n, scene: scene), otherWay: c.pixelsFacingTheOtherWay(n, scene: scene))
                    })
            }
            for (k, flip) in c.flips.enumerated() {
                let inside = Array(stride(from: flip.start, to: flip.start + flip.ticks, by: c.bodyEvery))
                let sides = [flip.start - c.bodyEvery, flip.start + flip.ticks]
                for (recorded, expected) in zip(recorded.map { $0[k] as? Double }, [try weakest(inside), try weakest(sides)]) {
                    let value = try #require(recorded, "\(line)")
                    let expected = try #require(expected)
                    // ffmpeg's RGB conversion rounds differently from the tool's by a level or so.
                    #expect(abs(value - expected) < 0.05, "\(file) flip at \(flip.start): \(value) vs ffmpeg \(expected)")
                    compared += 1
                }
            }
        }
        #expect(compared > 0)
    }
}
