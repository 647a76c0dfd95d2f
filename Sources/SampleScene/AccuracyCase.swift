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
    /// A capture of UI motion only (the distractor scene): no sprite, no flip.
    public var uiOnly = false
    /// The walk starts partly beyond the card's edge.
    public var occluded: Bool { scenario.startX < 0 }

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
        var c = AccuracyCase(
            scenario: scenario, codec: codec, bFrames: pick([0, 2]), quality: 18 + Int(rng.next() % 17),
            bodyEvery: bodyEvery, rearmed: rearmed)
        // Drawn after the rest, so that a seed keeps the axes above as they were.
        c.scenario.sprite = pick([.snail, .snail, .car, .bird, .drop])
        // Sizes relative to the @1x asset, within the 0.25x–4x a template is searched over once the
        // capture's pixel scale is applied (so 20–240 pixels wide).
        c.scenario.spriteSize = min(pick([0.5, 0.75, 1, 1, 1.5, 2]), 4 / Double(scale))
        if rng.next() % 4 == 0 { c.scenario.bounce = rng.uniform(2...8) }
        // A real turn after the last flip: the sprite then faces the other way to the end.
        if rng.next() % 3 == 0, next + 12 < ticks { c.scenario.turnTicks = [next / bodyEvery * bodyEvery] }
        if rng.next() % 4 == 0 {
            // Another kind of sprite: two alike would leave "which one is the sprite" open by design.
            c.scenario.companion = c.scenario.sprite == .bird ? .car : c.scenario.sprite == .car ? .bird : pick([.car, .bird])
            c.scenario.companionTurnTick = Int(rng.uniform(0.3...0.8) * Double(ticks)) / bodyEvery * bodyEvery
        }
        c.uiOnly = rng.next() % 10 == 0
        // One in eight starts a quarter to a half hidden beyond the card's edge (partial occlusion:
        // the first flips happen while part of the sprite is clipped). Drawn from a copy of the
        // generator, rehashed, so that the stream (and every later case of a seed) stays as it was.
        var side = SplitMix64(
            seed: {
                var copy = rng
                return copy.next() ^ 0x6F63_636C_7564_6564
            }())
        if side.next() % 8 == 0 {
            c.scenario.startX = -side.uniform(0.25...0.5) * Double(c.scenario.spriteAssetWidth) * c.scenario.spriteSize
        }
        return c
    }

    /// Frame size and length of the capture: the walk's, or the distractor scene's at 1x.
    public var width: Int { uiOnly ? UIDistractorScene.width : scenario.width }
    public var height: Int { uiOnly ? UIDistractorScene.height : scenario.height }
    public var ticks: Int { uiOnly ? Int(UIDistractorScene.duration * Double(scenario.refreshRate)) : scenario.ticks }

    /// RGB bytes of refresh tick `n`; `scene` comes from `scenario.makeScene()`.
    public func pixels(_ n: Int, scene: SnailScene) -> [UInt8] {
        uiOnly ? UIDistractorScene.render(at: Double(n) / Double(scenario.refreshRate)) : scenario.render(n, scene: scene)
    }

    /// RGB bytes of refresh tick `n` with the sprite facing the other way from the truth: the frame
    /// as it would have been without that tick's mirroring (or with it, on a tick drawn unmirrored).
    public func pixelsFacingTheOtherWay(_ n: Int, scene: SnailScene) -> [UInt8] {
        var other = scenario
        if other.mirroredTicks.remove(n) == nil { other.mirroredTicks.insert(n) }
        return other.render(n, scene: scene)
    }

    /// The truth: flips as (first tick, ticks) and real turns by tick; none in a UI-only capture.
    public var flips: [(start: Int, ticks: Int)] { uiOnly ? [] : scenario.flips }
    public var turns: [Int] { uiOnly ? [] : scenario.turnTicks.sorted() }
}
