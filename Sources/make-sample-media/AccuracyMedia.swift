import Foundation
import MediaIO
import RecordingAnalysis
import SampleScene

/// `make-sample-media --accuracy DIR COUNT SEED`: seeded random walks of the snail with known flips,
/// over the axes a real capture varies on, each with a line of truth in `DIR/truth.jsonl`.
enum AccuracyMedia {
    static func write(to dir: URL, count: Int, seed: UInt64) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var rng = SplitMix64(seed: seed)
        var truth = ""
        for i in 0..<count {
            let c = AccuracyCase.random(&rng)
            let s = c.scenario
            let codec: VideoWriter.Codec = c.codec == "hevc" && VideoWriter.isAvailable(.hevc) ? .hevc : .h264
            let name = String(format: c.uiOnly ? "ui-%03d.mov" : "walk-%03d.mov", i)
            let width = c.width, height = c.height, ticks = c.ticks
            let writer = try VideoWriter(
                path: dir.appendingPathComponent(name).path,
                settings: VideoWriter.Settings(
                    codec: codec, width: width, height: height, timeBase: Rational(1, s.timeScale),
                    frameRate: Rational(Int64(s.refreshRate), 1), bFrames: c.bFrames, quality: c.quality, threads: 0))
            let scene = s.makeScene()
            for n in stride(from: 0, to: ticks, by: c.bodyEvery) {
                let image = RGBImage(width: width, height: height, pixels: c.pixels(n, scene: scene))
                try writer.append(image, pts: Int64(n) * s.ticksPerRefresh, duration: Int64(c.bodyEvery) * s.ticksPerRefresh)
            }
            try writer.finish()
            let survival = try flipSurvival(of: c, scene: scene, path: dir.appendingPathComponent(name).path)
            func list(_ values: [Double?]) -> String {
                values.map { $0.map { String(format: "%.3f", $0) } ?? "null" }.joined(separator: ",")
            }
            let flips = c.flips.map { "[\($0.start),\($0.ticks)]" }.joined(separator: ",")
            let turns = c.turns.map(String.init).joined(separator: ",")
            // The second sprite turns for real: a turn reported then is that sprite's, not a false one.
            let companionTurn = c.uiOnly ? nil : s.companion.flatMap { _ in s.companionTurnTick }
            truth +=
                "{\"file\":\"\(name)\",\"refresh\":\(s.refreshRate),\"scale\":\(c.uiOnly ? 1 : s.pixelScale),"
                + "\"brightness\":\(String(format: "%.2f", s.brightness)),"
                + "\"codec\":\"\(codec.rawValue)\",\"b_frames\":\(c.bFrames),\"crf\":\(c.quality),\"body_every\":\(c.bodyEvery),"
                + "\"rearmed\":\(c.rearmed),\"ui_only\":\(c.uiOnly),\"sprite\":\"\(c.uiOnly ? "none" : s.sprite.rawValue)\","
                + "\"sprite_size\":\(s.spriteSize),\"sprite_px\":\(Int(Double(s.spriteAssetWidth) * s.spriteSize) * s.pixelScale),"
                + "\"bounce\":\(s.bounce > 0),\"companion\":\(s.companion != nil && !c.uiOnly),\"occluded\":\(c.occluded && !c.uiOnly),"
                + "\"duration_s\":\(Double(ticks) / Double(s.refreshRate)),\"flips\":[\(flips)],\"turns\":[\(turns)],"
                + "\"flip_survival\":[\(list(survival.map(\.flip)))],\"side_survival\":[\(list(survival.map(\.sides)))],"
                + "\"companion_turn\":\(companionTurn.map(String.init) ?? "null")}\n"
            FileHandle.standardError.write(Data("\r\(i + 1)/\(count)".utf8))
        }
        FileHandle.standardError.write(Data("\n".utf8))
        try OutputFile.writeAtomically(Array(truth.utf8), to: dir.appendingPathComponent("truth.jsonl").path)
        try writeSpriteAssets(to: dir)
    }

    /// For each truth flip, as decoded from `path` (`FlipSurvival.margin`): its weakest frame, and
    /// the weaker of the frames just before and just after it. Below 0, the encoding left a frame
    /// nearer the sprite the other way round than as drawn. A frame the decoder did not give counts as −1.
    static func flipSurvival(of c: AccuracyCase, scene: SnailScene, path: String) throws -> [(flip: Double?, sides: Double?)] {
        let step = c.bodyEvery
        let flips = c.flips.map {
            (
                inside: Array(stride(from: $0.start, to: $0.start + $0.ticks, by: step)),
                sides: [$0.start - step, $0.start + $0.ticks].filter { (0..<c.ticks).contains($0) }
            )
        }
        let all = flips.flatMap { $0.inside + $0.sides }
        let decoded = try FrameExtraction.rgbImages(path: path, sources: Set(all.map { $0 / step }))
        func margin(_ n: Int) -> Double? {
            guard let image = decoded[n / step] else { return -1 }
            return FlipSurvival.margin(
                decoded: image.pixels, drawn: c.pixels(n, scene: scene), otherWay: c.pixelsFacingTheOtherWay(n, scene: scene))
        }
        return flips.map { (FlipSurvival.weakest($0.inside.map(margin)), FlipSurvival.weakest($0.sides.map(margin))) }
    }

    /// Each sprite's @1x asset as `NAME.png`, for template mode (whatever the capture's pixel scale
    /// and size) and for the browser scene (scripts/browser-accuracy.py).
    static func writeSpriteAssets(to dir: URL) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for kind in SpriteKind.allCases {
            let sprite = kind.render()
            try OutputFile.writeAtomically(
                try PNGEncoder.encodeRGBA(width: sprite.width, height: sprite.height, pixels: sprite.rgbaBytes()),
                to: dir.appendingPathComponent("\(kind.rawValue).png").path)
        }
    }
}
