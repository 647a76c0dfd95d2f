import Foundation

/// An ordinary app screen with no sprite at all, doing what UI does: a list scrolling, pages
/// sliding sideways, a navigation push, pull to refresh with a spinner, the keyboard coming up, a
/// symmetric icon pulsing, and the Mac's pointer (which Simulator and QuickTime captures show)
/// wandering over it all and hopping from key to key. Nothing in it turns around, so every flip or
/// turn reported on it is false.
public enum UIDistractorScene {
    public static let width = 390
    public static let height = 844
    /// Seconds the scripted session lasts.
    public static let duration = 4.0

    /// Where each kind of motion happens, for test messages.
    public static func phase(at t: Double) -> String {
        switch t {
        case ..<0.8: return "scrolling list"
        case ..<1.6: return "horizontal paging"
        case ..<2.2: return "navigation push"
        case ..<3.0: return "pull to refresh"
        default: return "keyboard appearing"
        }
    }

    /// The screen at `t` seconds, 8-bit RGB.
    public static func render(at t: Double) -> [UInt8] {
        var c = Canvas(width: width, height: height, red: 0.96, green: 0.96, blue: 0.97, alpha: 1)
        // Navigation push (1.6–2.2 s): the list slides out to the left as the detail screen slides in.
        let push = min(1, max(0, (t - 1.6) / 0.6))
        let eased = push * push * (3 - 2 * push)
        let listX = -eased * Double(width)
        // Pull to refresh (2.2–3.0 s): the content is pulled down and springs back.
        let pull = t > 2.2 && t < 3.0 ? 70 * sin((t - 2.2) / 0.8 * Double.pi) : 0
        // Scrolling (0–0.8 s): rows move up.
        let scroll = min(t, 0.8) * 260
        drawList(&c, x: listX, y: 120 + pull - scroll)
        if eased > 0 { drawDetail(&c, x: listX + Double(width)) }
        // Horizontal paging (0.8–1.6 s): a carousel of cards at the top slides one page.
        let page = min(1, max(0, (t - 0.8) / 0.8))
        drawCarousel(&c, offset: page * page * (3 - 2 * page) * 300, x: listX)
        // Navigation bar with a title and a back chevron, and a pulsing heart (symmetric).
        c.fillRoundedRect(x: 0, y: 0, width: 390, height: 96, radius: 0, .rgb(250, 250, 252))
        c.fillRoundedRect(x: 150, y: 56, width: 90, height: 16, radius: 5, .rgb(30, 30, 36))
        c.strokePolyline([(30, 52), (20, 64), (30, 76)], width: 4, .rgb(0, 122, 255))
        let beat = 1 + 0.12 * sin(t * 2 * Double.pi * 1.5)
        c.fillCircle(cx: 350 - 7 * beat, cy: 60, radius: 8 * beat, .rgb(255, 59, 48))
        c.fillCircle(cx: 350 + 7 * beat, cy: 60, radius: 8 * beat, .rgb(255, 59, 48))
        c.fill(.rgb(255, 59, 48), minX: 335, minY: 58, maxX: 365, maxY: 82) { px, py in
            max(py - (82 - 6 * (1 - beat)) + abs(px - 350) * 1.1 - 2, 58 - py)
        }
        // Spinner while refreshing: 8 spokes, one bright, turning.
        if pull > 2 {
            for k in 0..<8 {
                let a = Double(k) / 8 * 2 * Double.pi + t * 8
                let shade = k == 0 ? 60 : 180
                c.strokeLine(
                    x0: 195 + 8 * cos(a), y0: 110 + 8 * sin(a), x1: 195 + 16 * cos(a), y1: 110 + 16 * sin(a), width: 3,
                    .rgb(shade, shade, shade))
            }
        }
        // Keyboard (3.0–4.0 s): slides up from the bottom.
        let keys = min(1, max(0, (t - 3.0) / 0.4))
        if keys > 0 { drawKeyboard(&c, y: Double(height) - keys * 300) }
        let pointer = pointerPosition(at: t)
        drawPointer(&c, x: pointer.x, y: pointer.y)
        return c.rgbBytes()
    }

    private static func drawList(_ c: inout Canvas, x: Double, y: Double) {
        for row in 0..<24 {
            let top = y + Double(row) * 64
            guard top > -64, top < Double(height) else { continue }
            c.fillRoundedRect(
                x: x + 16, y: top + 8, width: 44, height: 44, radius: 10,
                .rgb(60 + (row * 47) % 160, 90 + (row * 31) % 120, 200 - (row * 23) % 120))
            c.fillRoundedRect(x: x + 72, y: top + 12, width: 90 + Double((row * 37) % 120), height: 12, radius: 4, .rgb(40, 40, 46))
            c.fillRoundedRect(x: x + 72, y: top + 32, width: 140 + Double((row * 53) % 100), height: 9, radius: 3, .rgb(150, 150, 158))
            c.strokePolyline([(x + 360, top + 22), (x + 368, top + 30), (x + 360, top + 38)], width: 2.5, .rgb(190, 190, 196))
            c.fillRoundedRect(x: x + 72, y: top + 63, width: 318, height: 1, radius: 0, .rgb(222, 222, 226))
        }
    }

    private static func drawDetail(_ c: inout Canvas, x: Double) {
        c.fillRoundedRect(x: x, y: 96, width: 390, height: 748, radius: 0, .rgb(255, 255, 255))
        c.fillRoundedRect(x: x + 20, y: 130, width: 350, height: 200, radius: 16, .rgb(88, 86, 214))
        for line in 0..<8 {
            c.fillRoundedRect(
                x: x + 20, y: 360 + Double(line) * 26, width: 200 + Double((line * 41) % 140), height: 11, radius: 4, .rgb(60, 60, 66))
        }
    }

    private static func drawCarousel(_ c: inout Canvas, offset: Double, x: Double) {
        for card in 0..<4 {
            let left = x + 20 + Double(card) * 300 - offset
            guard left > -300, left < Double(width) else { continue }
            c.fillRoundedRect(x: left, y: 100, width: 280, height: 120, radius: 14, .rgb(240 - card * 30, 150 + card * 20, 80 + card * 40))
            c.fillRoundedRect(x: left + 16, y: 116, width: 120 + Double(card * 20), height: 14, radius: 4, .rgb(255, 255, 255))
            c.fillCircle(cx: left + 240, cy: 190, radius: 14, .rgb(255, 255, 255))
        }
    }

    private static func drawKeyboard(_ c: inout Canvas, y: Double) {
        c.fillRoundedRect(x: 0, y: y, width: 390, height: 300, radius: 0, .rgb(208, 211, 218))
        for row in 0..<4 {
            let count = [10, 9, 7, 3][row]
            let keyWidth = row == 3 ? 100.0 : 33.0
            let startX = (390 - Double(count) * (keyWidth + 5)) / 2
            for k in 0..<count {
                // The bottom row ends in the blue "done" key.
                let done = row == 3 && k == count - 1
                c.fillRoundedRect(
                    x: startX + Double(k) * (keyWidth + 5), y: y + 10 + Double(row) * 54, width: keyWidth, height: 44, radius: 5,
                    done ? .rgb(48, 110, 246) : .rgb(255, 255, 255))
                c.fillRoundedRect(
                    x: startX + Double(k) * (keyWidth + 5) + 12, y: y + 26 + Double(row) * 54, width: 9, height: 12, radius: 2,
                    .rgb(30, 30, 30))
            }
        }
    }

    /// Where the pointer's tip is at `t`: at rest, then an eased move to the next stop, the last
    /// ones a few points at a time over the corner of the blue key (as a hand types with a mouse).
    static func pointerPosition(at t: Double) -> (x: Double, y: Double) {
        let stops = pointerStops
        guard let next = stops.firstIndex(where: { $0.t > t }) else { return (stops[stops.count - 1].x, stops[stops.count - 1].y) }
        guard next > 0 else { return (stops[0].x, stops[0].y) }
        let a = stops[next - 1], b = stops[next]
        let start = b.t - min(b.move, b.t - a.t)
        let u = t <= start ? 0 : (t - start) / (b.t - start)
        let e = u * u * (3 - 2 * u)
        return (a.x + (b.x - a.x) * e, a.y + (b.y - a.y) * e)
    }

    /// The places the pointer's tip reaches (seconds, points), and how long the move there takes.
    private static let pointerStops: [(t: Double, x: Double, y: Double, move: Double)] = [
        (0, 210, 470, 0), (0.3, 250, 420, 0.1), (0.7, 170, 380, 0.1), (1.0, 120, 170, 0.1), (1.4, 260, 150, 0.1),
        (1.9, 300, 560, 0.1), (2.4, 190, 330, 0.1), (2.9, 230, 250, 0.1), (3.45, 130, 640, 0.1), (3.55, 171, 642, 0.1),
        (3.62, 236, 704, 0.05), (3.68, 242, 704, 0.02), (3.74, 248, 705, 0.02), (3.8, 254, 706, 0.02), (3.86, 260, 708, 0.02),
        (3.92, 266, 710, 0.02), (3.98, 272, 712, 0.02)
    ]

    /// The Mac's arrow pointer with its tip at (x, y): black, outlined in white, with a soft shadow.
    private static func drawPointer(_ c: inout Canvas, x: Double, y: Double) {
        let arrow: [(Double, Double)] = [(0, 0), (0, 17), (4, 13.2), (6.8, 19.6), (9.4, 18.5), (6.7, 12.3), (12, 12.3)]
        let placed = arrow.map { (x + 1.3 * $0.0, y + 1.3 * $0.1) }
        c.fillPolygon(placed.map { ($0.0 + 1, $0.1 + 2) }, .rgb(0, 0, 0, 0.3))
        c.strokePolyline(placed + [placed[0]], width: 3, .rgb(255, 255, 255))
        c.fillPolygon(placed, .rgb(0, 0, 0))
    }
}
