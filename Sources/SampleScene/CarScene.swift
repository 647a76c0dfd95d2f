/// A second, unrelated scene for testing the detector beyond the story's snail: a small red car
/// (cabin at the back, bonnet and headlight in front, facing right) driving on a road under
/// drifting clouds, 320 x 240.
public enum CarScene {
    public static let width = 320
    public static let height = 240
    public static let roadY = 180.0

    /// The car facing right, RGBA.
    public static func sprite() -> Canvas {
        var c = Canvas(width: 56, height: 30)
        c.fillRoundedRect(x: 2, y: 12, width: 52, height: 11, radius: 4, .rgb(200, 40, 40))
        c.fillRoundedRect(x: 6, y: 3, width: 24, height: 12, radius: 4, .rgb(180, 30, 30))
        c.fillRoundedRect(x: 9, y: 5, width: 18, height: 7, radius: 2, .rgb(170, 210, 240))
        c.fillRoundedRect(x: 48, y: 14, width: 6, height: 4, radius: 1, .rgb(255, 240, 150))
        c.fillCircle(cx: 13, cy: 24, radius: 5, .rgb(30, 30, 30))
        c.fillCircle(cx: 43, cy: 24, radius: 5, .rgb(30, 30, 30))
        c.fillCircle(cx: 13, cy: 24, radius: 2, .rgb(160, 160, 160))
        c.fillCircle(cx: 43, cy: 24, radius: 2, .rgb(160, 160, 160))
        return c
    }

    /// One frame: the car at `x` (left edge), facing right or mirrored, clouds drifting with `time`.
    public static func render(x: Double, facingRight: Bool, time: Double, sprite: Canvas) -> [UInt8] {
        var c = Canvas(width: width, height: height)
        for y in 0..<height {
            let k = Float(y) / Float(height)
            for x in 0..<width {
                if Double(y) < roadY - 10 {
                    c.blend(x, y, Canvas.Color(0.55 + 0.2 * k, 0.7 + 0.15 * k, 0.95, 1), coverage: 1)
                } else {
                    let dash: Float = (y > Int(roadY) + 14 && y < Int(roadY) + 17 && (x / 16) % 2 == 0) ? 0.5 : 0
                    c.blend(x, y, Canvas.Color(0.35 + dash, 0.35 + dash, 0.38 + dash, 1), coverage: 1)
                }
            }
        }
        for (i, base) in [(0, 30.0), (1, 150.0), (2, 260.0)] {
            let cx = (base + time * (12 + Double(i) * 5)).truncatingRemainder(dividingBy: Double(width) + 80) - 40
            c.fillEllipse(cx: cx, cy: 40 + Double(i) * 18, rx: 30, ry: 12, .rgb(250, 250, 252))
        }
        c.composite(facingRight ? sprite : sprite.mirrored(), x: x, y: roadY - 18)
        return c.rgbBytes()
    }
}
