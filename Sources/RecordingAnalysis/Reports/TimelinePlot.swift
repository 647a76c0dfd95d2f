/// Draws the sprite's facing along the recording as an image: a bar coloured by facing per slot,
/// flips marked above it, and frame arrival times as ticks below (seconds as taller ticks).
public enum TimelinePlot {
    public static let canonicalColor = Filmstrip.Color(70, 150, 90)
    public static let mirroredColor = Filmstrip.Color(220, 50, 60)
    public static let unknownColor = Filmstrip.Color(190, 190, 190)

    /// The plot, `width` pixels wide. `arrivals` are the source frames' times in seconds on the
    /// recording clock.
    public static func render(timeline: OrientationTimeline, arrivals: [Double], width: Int = 1200) -> RGBImage {
        let height = 96, barTop = 24, barHeight = 36, tickTop = barTop + barHeight + 6
        var img = RGBImage(width: width, height: height, red: 255, green: 255, blue: 255)
        let slots = max(1, timeline.map.slotCount)
        let duration = timeline.map.seconds(ofSlot: slots)
        func fill(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ c: Filmstrip.Color) {
            for y in max(0, y0)..<min(height, y0 + h) {
                for x in max(0, x0)..<min(width, x0 + w) {
                    let i = (y * width + x) * 3
                    img.pixels[i] = c.red
                    img.pixels[i + 1] = c.green
                    img.pixels[i + 2] = c.blue
                }
            }
        }
        for x in 0..<width {
            let slot = Int64(Double(x) / Double(width) * Double(slots))
            let color: Filmstrip.Color
            switch timeline.facing(atSlot: slot) {
            case .canonical?: color = canonicalColor
            case .mirrored?: color = mirroredColor
            default: color = unknownColor
            }
            fill(x, barTop, 1, barHeight, color)
        }
        // Flips are often a few slots in thousands: mark each wide enough to see.
        for flip in timeline.flips {
            let x0 = Int(Double(flip.startSlot) / Double(slots) * Double(width))
            let w = max(3, Int(Double(flip.slots) / Double(slots) * Double(width)))
            fill(x0, barTop, w, barHeight, mirroredColor)
            for row in 0..<14 {
                let half = (14 - row) / 2
                fill(x0 + w / 2 - half, 4 + row, 2 * half + 1, 1, mirroredColor)
            }
        }
        let dark = Filmstrip.Color(60, 60, 70)
        for t in arrivals where t >= 0 && t <= duration {
            fill(Int(t / max(duration, 1e-9) * Double(width - 1)), tickTop, 1, 10, dark)
        }
        var second = 0.0
        while second <= duration {
            fill(Int(second / max(duration, 1e-9) * Double(width - 1)), tickTop + 12, 1, 14, Filmstrip.Color(120, 120, 130))
            second += 1
        }
        return img
    }
}
