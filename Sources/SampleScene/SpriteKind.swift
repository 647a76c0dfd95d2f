/// The sprites the accuracy benchmark draws, each facing right: the story's snail, the car, a bird,
/// and a near-symmetric drop whose only asymmetry is a highlight and a glance to the right.
public enum SpriteKind: String, CaseIterable, Sendable {
    case snail, car, bird, drop

    /// The sprite at its @1x size, RGBA.
    public func render() -> Canvas {
        switch self {
        case .snail: return SnailSprite.render()
        case .car: return CarScene.sprite()
        case .bird: return SpriteKind.bird()
        case .drop: return SpriteKind.drop()
        }
    }

    /// A small bird standing, beak to the right, tail to the left.
    private static func bird() -> Canvas {
        var c = Canvas(width: 48, height: 40)
        let body = Canvas.Color.rgb(70, 120, 200), belly = Canvas.Color.rgb(235, 225, 200)
        c.strokeLine(x0: 4, y0: 14, x1: 16, y1: 22, width: 5, .rgb(50, 90, 160))  // tail
        c.fillEllipse(cx: 22, cy: 22, rx: 13, ry: 10, body)
        c.fillEllipse(cx: 25, cy: 26, rx: 8, ry: 5, belly)
        c.fillEllipse(cx: 18, cy: 19, rx: 7, ry: 4, .rgb(40, 80, 150))  // wing
        c.fillCircle(cx: 34, cy: 13, radius: 7, body)  // head
        c.fillCircle(cx: 36, cy: 11, radius: 1.8, .rgb(20, 20, 20))  // eye
        c.fill(.rgb(240, 170, 40), minX: 39, minY: 10, maxX: 47, maxY: 17) { px, py in
            // The beak: a triangle pointing right.
            let d1 = 40 - px, d2 = abs(py - 13.5) - (46 - px) * 0.5
            return max(d1, d2)
        }
        c.strokeLine(x0: 20, y0: 31, x1: 19, y1: 38, width: 1.5, .rgb(200, 130, 40))  // legs
        c.strokeLine(x0: 26, y0: 31, x1: 27, y1: 38, width: 1.5, .rgb(200, 130, 40))
        return c
    }

    /// A round drop with two eyes: nearly mirror-symmetric, told apart only by a highlight on its
    /// right shoulder and pupils looking right.
    private static func drop() -> Canvas {
        var c = Canvas(width: 36, height: 40)
        c.fillCircle(cx: 18, cy: 24, radius: 14, .rgb(90, 170, 220))
        c.fillEllipse(cx: 18, cy: 11, rx: 6, ry: 9, .rgb(90, 170, 220))
        c.fillCircle(cx: 13, cy: 22, radius: 3.5, .rgb(250, 250, 250))
        c.fillCircle(cx: 23, cy: 22, radius: 3.5, .rgb(250, 250, 250))
        c.fillCircle(cx: 14.5, cy: 22, radius: 1.6, .rgb(20, 20, 30))
        c.fillCircle(cx: 24.5, cy: 22, radius: 1.6, .rgb(20, 20, 30))
        c.fillEllipse(cx: 25, cy: 15, rx: 3, ry: 2, .rgb(220, 240, 255, 0.9))
        return c
    }
}
