import Foundation
import MediaIO
import RecordingAnalysis
import SampleScene

/// `make-sample-media --accuracy DIR COUNT SEED`: seeded random walks of the snail with known flips,
/// over the axes a real capture varies on, each with a line of truth in `DIR/truth.jsonl`.
enum AccuracyMedia {
    struct Case {
        var scenario: WalkScenario
        var codec: VideoWriter.Codec
        var bFrames: Int
        var quality: Int
        /// The app's body runs every this many refreshes; the recorder emits a frame only then.
        var bodyEvery: Int
        var rearmed: Bool
    }

    static func randomCase(_ rng: inout SplitMix64) -> Case {
        func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        let refresh = pick([30, 60, 60, 120])
        let scale = pick([1, 1, 1, 2, 3])
        let brightness = pick([1.0, 1.0, 0.6, 1.0 / 3])
        let bodyEvery = refresh >= 60 ? pick([1, 1, 3]) : 1
        let ticks = 2 * refresh
        var scenario = WalkScenario(refreshRate: refresh, ticks: ticks, pixelScale: scale, brightness: brightness,
                                    speed: rng.uniform(10...60))
        // 1-3 flips of 1-20 evaluations (at most a quarter second), apart and inside the capture.
        var next = Int(rng.uniform(0.15...0.3) * Double(ticks)) / bodyEvery * bodyEvery
        var rearmed = false
        for flip in 0..<(1 + Int(rng.next() % 3)) {
            let maxLength = max(1, min(20, refresh / 4 / bodyEvery))
            let length = (1 + Int(rng.next() % UInt64(maxLength))) * bodyEvery
            guard next + length + 10 < ticks else { break }
            for t in next..<(next + length) { scenario.mirroredTicks.insert(t) }
            // A later tap may re-arm the walk (the sprite jumps back to its start as it flips); the
            // first flip is the cold start, in place, as in the story.
            if rng.next() % 4 == 0, flip > 0 { scenario.rearmTicks.insert(next); rearmed = true }
            next += length + max(12, Int(rng.uniform(0.15...0.35) * Double(ticks))) / bodyEvery * bodyEvery
        }
        let codec: VideoWriter.Codec = VideoWriter.isAvailable(.hevc) && rng.next() % 3 == 0 ? .hevc : .h264
        return Case(scenario: scenario, codec: codec, bFrames: pick([0, 2]), quality: 18 + Int(rng.next() % 17),
                    bodyEvery: bodyEvery, rearmed: rearmed)
    }

    static func write(to dir: URL, count: Int, seed: UInt64) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var rng = SplitMix64(seed: seed)
        let scene = SnailScene()
        var truth = ""
        for i in 0..<count {
            let c = randomCase(&rng)
            let s = c.scenario
            let name = String(format: "walk-%03d.mov", i)
            let writer = try VideoWriter(path: dir.appendingPathComponent(name).path, settings: VideoWriter.Settings(
                codec: c.codec, width: s.width, height: s.height, timeBase: Rational(1, s.timeScale),
                frameRate: Rational(Int64(s.refreshRate), 1), bFrames: c.bFrames, quality: c.quality, threads: 0))
            for n in stride(from: 0, to: s.ticks, by: c.bodyEvery) {
                let image = RGBImage(width: s.width, height: s.height, pixels: s.render(n, scene: scene))
                try writer.append(image, pts: Int64(n) * s.ticksPerRefresh, duration: Int64(c.bodyEvery) * s.ticksPerRefresh)
            }
            try writer.finish()
            let flips = s.flips.map { "[\($0.start),\($0.ticks)]" }.joined(separator: ",")
            truth += "{\"file\":\"\(name)\",\"refresh\":\(s.refreshRate),\"scale\":\(s.pixelScale),\"brightness\":\(String(format: "%.2f", s.brightness)),"
                + "\"codec\":\"\(c.codec.rawValue)\",\"b_frames\":\(c.bFrames),\"crf\":\(c.quality),\"body_every\":\(c.bodyEvery),"
                + "\"rearmed\":\(c.rearmed),\"flips\":[\(flips)]}\n"
            FileHandle.standardError.write(Data("\r\(i + 1)/\(count)".utf8))
        }
        FileHandle.standardError.write(Data("\n".utf8))
        try OutputFile.writeAtomically(Array(truth.utf8), to: dir.appendingPathComponent("truth.jsonl").path)
        let sprite = SnailSprite.render()
        try OutputFile.writeAtomically(try PNGEncoder.encodeRGBA(width: sprite.width, height: sprite.height, pixels: sprite.rgbaBytes()),
                                       to: dir.appendingPathComponent("snail.png").path)
    }
}
