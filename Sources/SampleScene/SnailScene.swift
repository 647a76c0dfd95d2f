/// What the simulated app shows at one moment: everything the screen's pixels depend on.
///
/// The screen is a pure function of this state, so two equal states are two identical screens;
/// the simulated recorder compares states to decide whether the screen changed.
public struct SnailScreenState: Equatable, Sendable {
    /// Rows of the sound list shown so far (the list appears row by row at launch).
    public var rowsRevealed: Int
    /// Whether the rain sound is playing (its row is highlighted).
    public var playing: Bool
    /// Opacity of the rain backdrop over the ground, 0...1.
    public var fade: Double
    /// Timeline time driving the rain streaks, seconds since the recording started (0 when hidden).
    public var rainTime: Double
    /// Horizontal offset of the sprite inside the card, in points (= pixels at 1x).
    public var spriteX: Double
    /// Which way the sprite faces.
    public var facingRight: Bool
    /// Points the sprite is lifted off the ground (a bounce); 0 on the ground.
    public var spriteLift: Double = 0
    /// Card-local x of a second sprite high in the card, when the scene has one.
    public var companionX: Double?
    /// Which way the second sprite faces.
    public var companionFacingRight = true

    public init(
        rowsRevealed: Int, playing: Bool, fade: Double, rainTime: Double, spriteX: Double, facingRight: Bool,
        spriteLift: Double = 0, companionX: Double? = nil, companionFacingRight: Bool = true
    ) {
        self.rowsRevealed = rowsRevealed
        self.playing = playing
        self.fade = fade
        self.rainTime = rainTime
        self.spriteX = spriteX
        self.facingRight = facingRight
        self.spriteLift = spriteLift
        self.companionX = companionX
        self.companionFacingRight = companionFacingRight
    }
}

/// Renders the sounds tab of the story's app: a scene card with Coco on the ground or in the rain,
/// and a static list of sounds below, at 390 x 844 (an iPhone simulator capture at 1x).
public final class SnailScene {
    public static let width = 390
    public static let height = 844
    /// The card's frame on screen.
    public static let card = (x: 12, y: 56, width: 366, height: 236)
    /// Card-local y of the ground line.
    public static let groundY = 196.0
    /// How far the sprite travels across the card: card width minus sprite width and margins.
    public static let travel = Double(card.width - SnailSprite.width - 32)
    /// The sprite's card-local x for a triangle-wave position 0...1 (the article's `16 + tri * travel`).
    public static func spriteX(tri: Double) -> Double { 16 + tri * travel }
    /// Card-local y of the sprite's top edge.
    public static let spriteY = groundY - Double(SnailSprite.height) + 4

    private let sprite: Canvas
    private let mirroredSprite: Canvas
    private let companion: Canvas?
    private let ground: Canvas
    private let rainBackdrop: Canvas
    private var listCache: [String: Canvas] = [:]
    private let streaks: [(x: Double, y: Double, speed: Double, length: Double)]

    /// - Parameter companion: a second sprite, drawn high in the card where a state places it.
    public init(sprite: Canvas = SnailSprite.render(), companion: Canvas? = nil) {
        self.sprite = sprite
        mirroredSprite = sprite.mirrored()
        self.companion = companion
        let w = SnailScene.card.width, h = SnailScene.card.height
        var g = Canvas(width: w, height: h)
        var r = Canvas(width: w, height: h)
        let gy = Int(SnailScene.groundY)
        for y in 0..<h {
            let k = Float(y) / Float(h)
            for x in 0..<w {
                if y < gy {
                    g.blend(x, y, Canvas.Color(0.74 + 0.12 * k, 0.86 + 0.06 * k, 0.96, 1), coverage: 1)
                    r.blend(x, y, Canvas.Color(0.30 + 0.10 * k, 0.35 + 0.10 * k, 0.44 + 0.08 * k, 1), coverage: 1)
                } else {
                    let stripe: Float = (x / 7 + y / 5) % 2 == 0 ? 0.02 : 0
                    g.blend(x, y, Canvas.Color(0.47 + stripe, 0.67 + stripe, 0.35, 1), coverage: 1)
                    r.blend(x, y, Canvas.Color(0.25 + stripe, 0.36 + stripe, 0.30, 1), coverage: 1)
                }
            }
        }
        // Hills on the ground scene, a dark cloud bank on the rain scene.
        g.fillEllipse(cx: 80, cy: Double(gy) + 14, rx: 110, ry: 34, .rgb(132, 186, 104))
        g.fillEllipse(cx: 300, cy: Double(gy) + 18, rx: 130, ry: 30, .rgb(120, 176, 96))
        g.fillCircle(cx: 310, cy: 44, radius: 18, .rgb(255, 226, 120))
        for (cx, cy, rr) in [(60.0, 30.0, 34.0), (120, 22, 40), (190, 34, 36), (260, 20, 42), (330, 30, 38)] {
            r.fillCircle(cx: cx, cy: cy, radius: rr, .rgb(64, 72, 86))
        }
        ground = g
        rainBackdrop = r
        var rng = SplitMix64(seed: 0x5EED_2A17)
        streaks = (0..<80).map { _ in
            (x: rng.uniform(-40...Double(w)), y: rng.uniform(0...Double(h)), speed: rng.uniform(380...520), length: rng.uniform(8...14))
        }
    }

    /// The card's contents for a state (backdrop crossfade, rain, sprite), card-sized.
    func renderCard(_ state: SnailScreenState) -> Canvas {
        var card = ground
        if state.fade > 0 {
            var rain = rainBackdrop
            let h = Double(SnailScene.card.height)
            let span = h + 30
            for s in streaks {
                var y = (s.y + s.speed * state.rainTime).truncatingRemainder(dividingBy: span)
                if y < 0 { y += span }
                y -= 15
                let x = s.x + 0.2 * y
                rain.strokeLine(x0: x, y0: y, x1: x + 0.2 * s.length, y1: y + s.length, width: 1.3, .rgb(196, 212, 236, 0.85))
            }
            // Fade-in only: the ground stays opaque underneath while the rain covers it.
            card.composite(layer: rain, opacity: Float(state.fade))
        }
        if let companion, let x = state.companionX {
            card.composite(state.companionFacingRight ? companion : companion.mirrored(), x: x, y: 24)
        }
        let y = SnailScene.groundY - Double(sprite.height) + 4 - state.spriteLift
        card.composite(state.facingRight ? sprite : mirroredSprite, x: state.spriteX, y: y)
        return card
    }

    private func list(rows: Int, playing: Bool) -> Canvas {
        let key = "\(rows)-\(playing)"
        if let cached = listCache[key] { return cached }
        var c = Canvas(width: SnailScene.width, height: SnailScene.height, red: 0.97, green: 0.97, blue: 0.98, alpha: 1)
        // Status bar: clock and battery as blocks.
        c.fillRoundedRect(x: 28, y: 16, width: 44, height: 14, radius: 4, .rgb(30, 30, 34))
        c.fillRoundedRect(x: 330, y: 17, width: 32, height: 12, radius: 3, .rgb(30, 30, 34))
        // Card shadow and frame.
        let k = SnailScene.card
        c.fillRoundedRect(
            x: Double(k.x) - 1, y: Double(k.y) + 1, width: Double(k.width) + 2, height: Double(k.height) + 2, radius: 19,
            .rgb(210, 210, 216))
        // Section title.
        c.fillRoundedRect(x: 16, y: 312, width: 120, height: 18, radius: 5, .rgb(40, 40, 46))
        let icons: [Canvas.Color] = [
            .rgb(70, 110, 200), .rgb(60, 160, 120), .rgb(220, 140, 60), .rgb(150, 90, 190), .rgb(200, 80, 90), .rgb(90, 150, 190)
        ]
        for row in 0..<min(rows, icons.count) {
            let y = 348.0 + Double(row) * 66
            if row == 0 && playing {
                c.fillRoundedRect(x: 10, y: y - 6, width: 370, height: 60, radius: 12, .rgb(222, 232, 250))
            }
            c.fillRoundedRect(x: 20, y: y, width: 46, height: 46, radius: 10, icons[row])
            c.fillRoundedRect(x: 80, y: y + 8, width: 110 + Double((row * 37) % 60), height: 12, radius: 4, .rgb(50, 50, 56))
            c.fillRoundedRect(x: 80, y: y + 28, width: 150 + Double((row * 53) % 80), height: 9, radius: 3, .rgb(150, 150, 158))
            if row == 0 && playing {
                c.fillRoundedRect(x: 344, y: y + 13, width: 6, height: 20, radius: 2, .rgb(60, 100, 200))
                c.fillRoundedRect(x: 354, y: y + 13, width: 6, height: 20, radius: 2, .rgb(60, 100, 200))
            } else {
                c.fill(.rgb(120, 120, 130), minX: 344, minY: y + 12, maxX: 362, maxY: y + 34) { px, py in
                    // A play triangle pointing right.
                    let d1 = 344 - px, d2 = (py - (y + 23)) * 0.8 - (362 - px) * 0.6, d3 = ((y + 23) - py) * 0.8 - (362 - px) * 0.6
                    return max(d1, max(d2, d3))
                }
            }
            c.fillRoundedRect(x: 80, y: y + 57, width: 300, height: 1, radius: 0, .rgb(226, 226, 230))
        }
        listCache[key] = c
        return c
    }

    /// The whole screen for `state`, as 8-bit RGB.
    public func render(_ state: SnailScreenState) -> [UInt8] {
        var screen = list(rows: state.rowsRevealed, playing: state.playing)
        let card = renderCard(state)
        let k = SnailScene.card
        // Clip the card to its rounded rectangle.
        let radius = 18.0
        for y in 0..<k.height {
            for x in 0..<k.width {
                let qx = abs(Double(x) + 0.5 - Double(k.width) / 2) - (Double(k.width) / 2 - radius)
                let qy = abs(Double(y) + 0.5 - Double(k.height) / 2) - (Double(k.height) / 2 - radius)
                let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot() + min(max(qx, qy), 0) - radius
                let coverage = Float(min(1, max(0, 0.5 - outside)))
                guard coverage > 0 else { continue }
                let i = y * k.width + x
                screen.blend(k.x + x, k.y + y, Canvas.Color(card.red[i], card.green[i], card.blue[i], card.alpha[i]), coverage: coverage)
            }
        }
        return screen.rgbBytes()
    }
}
