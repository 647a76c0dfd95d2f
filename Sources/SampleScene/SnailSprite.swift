/// Coco the snail, drawn procedurally facing right: shell with a spiral at the back (left),
/// soft body along the ground, eye stalks in front (right).
public enum SnailSprite {
    public static let width = 60
    public static let height = 44

    /// The sprite in its canonical orientation (facing right), RGBA with transparency.
    public static func render() -> Canvas {
        var c = Canvas(width: width, height: height)
        let body = Canvas.Color.rgb(236, 196, 140)
        let bodyShade = Canvas.Color.rgb(214, 168, 112)
        let shell = Canvas.Color.rgb(176, 104, 52)
        let shellDark = Canvas.Color.rgb(112, 58, 28)
        let eye = Canvas.Color.rgb(40, 30, 30)

        // Foot: a long soft blob on the ground, tapering at the tail (left).
        c.fillEllipse(cx: 30, cy: 37, rx: 27, ry: 6, bodyShade)
        c.fillEllipse(cx: 32, cy: 35.5, rx: 24, ry: 5.5, body)
        // Head and neck rising at the front.
        c.fillEllipse(cx: 48, cy: 30, rx: 8, ry: 8.5, body)
        // Eye stalks with eyes.
        c.strokeLine(x0: 50, y0: 25, x1: 55, y1: 8, width: 2.2, body)
        c.strokeLine(x0: 46, y0: 25, x1: 46.5, y1: 10, width: 2.2, bodyShade)
        c.fillCircle(cx: 55, cy: 7.5, radius: 2.8, eye)
        c.fillCircle(cx: 46.5, cy: 9.5, radius: 2.5, eye)
        // Mouth.
        c.strokeLine(x0: 52.5, y0: 33, x1: 55.5, y1: 32, width: 1.1, bodyShade)
        // Shell at the back with a spiral.
        c.fillCircle(cx: 22, cy: 21, radius: 15.5, shellDark)
        c.fillCircle(cx: 22, cy: 21, radius: 14, shell)
        var spiral: [(Double, Double)] = []
        var a = 0.0
        while a < 5.2 * Double.pi {
            let r = 1.2 + 2.05 * a / Double.pi
            spiral.append((22 + r * cos(a), 21 + r * sin(a)))
            a += 0.15
        }
        c.strokePolyline(spiral, width: 2.0, shellDark)
        // Highlight on the shell.
        c.fillEllipse(cx: 17, cy: 12, rx: 3.5, ry: 2, .rgb(222, 160, 104, 0.8))
        return c
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
