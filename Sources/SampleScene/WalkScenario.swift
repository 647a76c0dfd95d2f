import Foundation

/// A short capture of the snail walking in the rain, with chosen mirror events, refresh rate, pixel
/// scale and brightness: the ordinary variation the detector must handle (a re-armed walk, a dark
/// compressed capture, a 3x screen, a 120 Hz display). Pure: it says which screen each refresh tick
/// shows and what the truth is; the caller encodes it.
public struct WalkScenario: Sendable {
    /// Display refresh rate in Hz; one frame is emitted per tick (the pts are ticks in 1/`timeScale`).
    public var refreshRate: Int = 60
    /// Ticks in the capture.
    public var ticks: Int = 120
    /// Device pixels per point: the screen is rendered at 390x844 points and enlarged by this.
    public var pixelScale: Int = 1
    /// Every channel is multiplied by this (a dimmed, dark capture below 1).
    public var brightness: Double = 1
    /// Points the sprite crawls per second.
    public var speed: Double = 30
    /// The sprite's card-local x where the walk starts (and where a re-armed walk jumps back to); a
    /// negative value starts it partly hidden beyond the card's left edge.
    public var startX: Double = 16
    /// Ticks at which the sprite shows mirrored.
    public var mirroredTicks: Set<Int> = []
    /// Ticks at which the walk re-arms: the sprite jumps back to where it started.
    public var rearmTicks: Set<Int> = []
    /// Which sprite walks, and its size relative to its @1x asset.
    public var sprite: SpriteKind = .snail
    public var spriteSize: Double = 1
    /// Ticks at which the sprite turns round for good (a real turn, not a flip).
    public var turnTicks: Set<Int> = []
    /// Points the sprite bounces off the ground, once a second; 0 for a walk on the ground.
    public var bounce: Double = 0
    /// A second sprite high in the card, and the tick at which it turns round for good.
    public var companion: SpriteKind?
    public var companionTurnTick: Int?

    public init(
        refreshRate: Int = 60, ticks: Int = 120, pixelScale: Int = 1, brightness: Double = 1, speed: Double = 30,
        mirroredTicks: Set<Int> = [], rearmTicks: Set<Int> = []
    ) {
        self.refreshRate = refreshRate
        self.ticks = ticks
        self.pixelScale = pixelScale
        self.brightness = brightness
        self.speed = speed
        self.mirroredTicks = mirroredTicks
        self.rearmTicks = rearmTicks
    }

    /// The QuickTime time scale: 600 for 60 Hz and below (as the simulator writes), 1200 above.
    public var timeScale: Int64 { refreshRate > 60 ? 1200 : 600 }
    /// Ticks of the time scale per refresh.
    public var ticksPerRefresh: Int64 { timeScale / Int64(refreshRate) }
    public var width: Int { SnailScene.width * pixelScale }
    public var height: Int { SnailScene.height * pixelScale }

    /// The screen at refresh tick `n`.
    public func state(at n: Int) -> SnailScreenState {
        let start = rearmTicks.filter { $0 <= n }.max() ?? 0
        let t = Double(n - start) / Double(refreshRate)
        let turned = turnTicks.filter { $0 <= n }.count % 2 == 1
        let seconds = Double(n) / Double(refreshRate)
        return SnailScreenState(
            rowsRevealed: 6, playing: true, fade: 1, rainTime: seconds,
            spriteX: startX + speed * t, facingRight: mirroredTicks.contains(n) == turned,
            spriteLift: bounce * abs(sin(seconds * Double.pi)),
            companionX: companion == nil ? nil : 250, companionFacingRight: companionTurnTick.map { n < $0 } ?? true)
    }

    /// The @1x width of the scenario's sprite.
    public var spriteAssetWidth: Int { sprite.render().width }

    /// The scene this scenario is drawn in: its sprite at its size, and the companion if any.
    public func makeScene() -> SnailScene {
        let drawn = spriteSize == 1 ? sprite.render() : sprite.render().scaled(by: spriteSize)
        return SnailScene(sprite: drawn, companion: companion?.render())
    }

    /// The truth: runs of consecutive mirrored ticks, as (first tick, ticks).
    public var flips: [(start: Int, ticks: Int)] {
        var runs: [(start: Int, ticks: Int)] = []
        for n in mirroredTicks.sorted() {
            if let last = runs.last, last.start + last.ticks == n { runs[runs.count - 1].ticks += 1 } else { runs.append((n, 1)) }
        }
        return runs
    }

    /// RGB bytes of tick `n`, enlarged and dimmed as configured.
    public func render(_ n: Int, scene: SnailScene) -> [UInt8] {
        let base = scene.render(state(at: n))
        let k = pixelScale
        let gain = brightness
        guard k > 1 || gain != 1 else { return base }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let sy = y / k
            for x in 0..<width {
                let s = (sy * SnailScene.width + x / k) * 3, d = (y * width + x) * 3
                for c in 0..<3 { out[d + c] = UInt8(min(255, (Double(base[s + c]) * gain).rounded())) }
            }
        }
        return out
    }
}
