/// One seeded random capture for the accuracy benchmark: a `WalkScenario` with 1–3 flips and the
/// encoding it is written with. Pure; `make-sample-media --accuracy` encodes it, and a smoke test
/// runs a few.
public struct AccuracyCase: Sendable {
    public var scenario: WalkScenario
    /// `h264` or `hevc`.
    public var codec: String
    public var bFrames: Int
    /// crf.
    public var quality: Int
    /// The app's body runs every this many refreshes; the recorder emits a frame only then.
    public var bodyEvery: Int
    public var rearmed: Bool

    /// The next case drawn from `rng`.
    public static func random(_ rng: inout SplitMix64) -> AccuracyCase {
        func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        let refresh = pick([30, 60, 60, 120])
        let scale = pick([1, 1, 1, 2, 3])
        let brightness = pick([1.0, 1.0, 0.6, 1.0 / 3])
        let bodyEvery = refresh >= 60 ? pick([1, 1, 3]) : 1
        let ticks = 2 * refresh
        var scenario = WalkScenario(
            refreshRate: refresh, ticks: ticks, pixelScale: scale, brightness: brightness,
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
            if rng.next() % 4 == 0, flip > 0 {
                scenario.rearmTicks.insert(next)
                rearmed = true
            }
            next += length + max(12, Int(rng.uniform(0.15...0.35) * Double(ticks))) / bodyEvery * bodyEvery
        }
        let codec = rng.next() % 3 == 0 ? "hevc" : "h264"
        return AccuracyCase(
            scenario: scenario, codec: codec, bFrames: pick([0, 2]), quality: 18 + Int(rng.next() % 17),
            bodyEvery: bodyEvery, rearmed: rearmed)
    }
}
