/// A floating-point RGBA drawing surface with anti-aliased shapes, used to render the sample scenes.
///
/// Coverage is computed analytically per pixel (signed distance, clamped to one pixel of ramp),
/// so drawing is deterministic and needs no graphics library.
public struct Canvas: Sendable {
    public let width: Int
    public let height: Int
    /// Premultiplied-free RGBA in 0...1, row-major.
    public var red: [Float]
    public var green: [Float]
    public var blue: [Float]
    public var alpha: [Float]

    public init(width: Int, height: Int, red r: Float = 0, green g: Float = 0, blue b: Float = 0, alpha a: Float = 0) {
        self.width = width
        self.height = height
        let n = width * height
        red = [Float](repeating: r, count: n)
        green = [Float](repeating: g, count: n)
        blue = [Float](repeating: b, count: n)
        alpha = [Float](repeating: a, count: n)
    }

    /// A colour with components in 0...1.
    public struct Color: Sendable, Equatable {
        public var r: Float, g: Float, b: Float, a: Float
        public init(_ r: Float, _ g: Float, _ b: Float, _ a: Float = 1) {
            self.r = r
            self.g = g
            self.b = b
            self.a = a
        }
        /// From 8-bit components.
        public static func rgb(_ r: Int, _ g: Int, _ b: Int, _ a: Float = 1) -> Color {
            Color(Float(r) / 255, Float(g) / 255, Float(b) / 255, a)
        }
    }

    /// Blends `color` over pixel (x, y) with `coverage` in 0...1 ("source over").
    @inline(__always)
    public mutating func blend(_ x: Int, _ y: Int, _ color: Color, coverage: Float) {
        guard x >= 0, y >= 0, x < width, y < height, coverage > 0 else { return }
        let i = y * width + x
        let sa = color.a * min(1, coverage)
        let da = alpha[i]
        let oa = sa + da * (1 - sa)
        if oa <= 0 { return }
        red[i] = (color.r * sa + red[i] * da * (1 - sa)) / oa
        green[i] = (color.g * sa + green[i] * da * (1 - sa)) / oa
        blue[i] = (color.b * sa + blue[i] * da * (1 - sa)) / oa
        alpha[i] = oa
    }

    /// Fills the pixels for which `distance(x, y)` (a signed distance in pixels, negative inside) is
    /// below half a pixel, within the bounding box.
    public mutating func fill(
        _ color: Color, minX: Double, minY: Double, maxX: Double, maxY: Double,
        distance: (Double, Double) -> Double
    ) {
        let x0 = max(0, Int((minX - 1).rounded(.down))), x1 = min(width - 1, Int((maxX + 1).rounded(.up)))
        let y0 = max(0, Int((minY - 1).rounded(.down))), y1 = min(height - 1, Int((maxY + 1).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                let d = distance(Double(x) + 0.5, Double(y) + 0.5)
                let coverage = Float(min(1, max(0, 0.5 - d)))
                if coverage > 0 { blend(x, y, color, coverage: coverage) }
            }
        }
    }

    public mutating func fillCircle(cx: Double, cy: Double, radius: Double, _ color: Color) {
        fill(color, minX: cx - radius, minY: cy - radius, maxX: cx + radius, maxY: cy + radius) { x, y in
            ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() - radius
        }
    }

    public mutating func fillEllipse(cx: Double, cy: Double, rx: Double, ry: Double, _ color: Color) {
        fill(color, minX: cx - rx, minY: cy - ry, maxX: cx + rx, maxY: cy + ry) { x, y in
            let nx = (x - cx) / rx, ny = (y - cy) / ry
            let k = (nx * nx + ny * ny).squareRoot()
            return (k - 1) * min(rx, ry)
        }
    }

    public mutating func fillRoundedRect(x: Double, y: Double, width w: Double, height h: Double, radius: Double, _ color: Color) {
        let cx = x + w / 2, cy = y + h / 2
        fill(color, minX: x, minY: y, maxX: x + w, maxY: y + h) { px, py in
            let qx = abs(px - cx) - (w / 2 - radius), qy = abs(py - cy) - (h / 2 - radius)
            let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
            return outside + min(max(qx, qy), 0) - radius
        }
    }

    /// A line segment with round caps.
    public mutating func strokeLine(x0: Double, y0: Double, x1: Double, y1: Double, width w: Double, _ color: Color) {
        let r = w / 2
        fill(color, minX: min(x0, x1) - r, minY: min(y0, y1) - r, maxX: max(x0, x1) + r, maxY: max(y0, y1) + r) { px, py in
            Canvas.segmentDistance(px, py, x0, y0, x1, y1) - r
        }
    }

    /// A polyline with round joins.
    public mutating func strokePolyline(_ points: [(Double, Double)], width w: Double, _ color: Color) {
        guard points.count >= 2 else { return }
        let r = w / 2
        let xs = points.map(\.0), ys = points.map(\.1)
        fill(color, minX: xs.min()! - r, minY: ys.min()! - r, maxX: xs.max()! + r, maxY: ys.max()! + r) { px, py in
            var best = Double.infinity
            for i in 1..<points.count {
                best = min(best, Canvas.segmentDistance(px, py, points[i - 1].0, points[i - 1].1, points[i].0, points[i].1))
            }
            return best - r
        }
    }

    /// A closed polygon, filled (even-odd rule), with anti-aliased edges.
    public mutating func fillPolygon(_ points: [(Double, Double)], _ color: Color) {
        guard points.count >= 3 else { return }
        let xs = points.map(\.0), ys = points.map(\.1)
        fill(color, minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!) { px, py in
            var edge = Double.infinity, inside = false
            for i in points.indices {
                let (x0, y0) = points[i], (x1, y1) = points[(i + 1) % points.count]
                edge = min(edge, Canvas.segmentDistance(px, py, x0, y0, x1, y1))
                if (y0 > py) != (y1 > py), px < x0 + (py - y0) / (y1 - y0) * (x1 - x0) { inside.toggle() }
            }
            return inside ? -edge : edge
        }
    }

    static func segmentDistance(_ px: Double, _ py: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
        let dx = x1 - x0, dy = y1 - y0
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((px - x0) * dx + (py - y0) * dy) / len2 : 0
        t = min(1, max(0, t))
        let ex = px - (x0 + t * dx), ey = py - (y0 + t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }

    /// This canvas mirrored horizontally about its vertical centre line (`.scaleEffect(x: -1)`).
    public func mirrored() -> Canvas {
        var out = self
        for y in 0..<height {
            let row = y * width
            for x in 0..<width {
                let s = row + width - 1 - x
                out.red[row + x] = red[s]
                out.green[row + x] = green[s]
                out.blue[row + x] = blue[s]
                out.alpha[row + x] = alpha[s]
            }
        }
        return out
    }

    /// This canvas resampled by `factor` (area average when shrinking, bilinear when enlarging), with
    /// colours weighted by coverage so that transparent pixels do not darken the edges.
    public func scaled(by factor: Double) -> Canvas {
        let w = max(1, Int((Double(width) * factor).rounded())), h = max(1, Int((Double(height) * factor).rounded()))
        var out = Canvas(width: w, height: h)
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        for y in 0..<h {
            for x in 0..<w {
                // The source footprint of the destination pixel, at least one source pixel wide.
                let x0 = Double(x) * sx, x1 = max(x0 + 1, Double(x + 1) * sx)
                let y0 = Double(y) * sy, y1 = max(y0 + 1, Double(y + 1) * sy)
                var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0, total: Float = 0
                var yy = Int(y0.rounded(.down))
                while Double(yy) < y1, yy < height {
                    let wy = Float(min(y1, Double(yy + 1)) - max(y0, Double(yy)))
                    var xx = Int(x0.rounded(.down))
                    while Double(xx) < x1, xx < width {
                        let wx = Float(min(x1, Double(xx + 1)) - max(x0, Double(xx)))
                        let i = yy * width + xx, wgt = wx * wy, sa = alpha[i] * wgt
                        r += red[i] * sa
                        g += green[i] * sa
                        b += blue[i] * sa
                        a += sa
                        total += wgt
                        xx += 1
                    }
                    yy += 1
                }
                let o = y * w + x
                if a > 0 {
                    out.red[o] = r / a
                    out.green[o] = g / a
                    out.blue[o] = b / a
                }
                out.alpha[o] = total > 0 ? a / total : 0
            }
        }
        return out
    }

    /// Composites `sprite` onto this canvas with its top-left corner at a fractional position, using
    /// bilinear interpolation so that sub-pixel motion changes the image as it would on screen.
    public mutating func composite(_ sprite: Canvas, x ox: Double, y oy: Double, opacity: Float = 1) {
        let fx = ox - ox.rounded(.down), fy = oy - oy.rounded(.down)
        let ix = Int(ox.rounded(.down)), iy = Int(oy.rounded(.down))
        let wx0 = Float(1 - fx), wx1 = Float(fx), wy0 = Float(1 - fy), wy1 = Float(fy)
        for dy in 0...sprite.height {
            for dx in 0...sprite.width {
                // Destination pixel (ix+dx, iy+dy) samples source at (dx - fx, dy - fy).
                var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                func tap(_ sx: Int, _ sy: Int, _ w: Float) {
                    guard w > 0, sx >= 0, sy >= 0, sx < sprite.width, sy < sprite.height else { return }
                    let i = sy * sprite.width + sx
                    let sa = sprite.alpha[i] * w
                    r += sprite.red[i] * sa
                    g += sprite.green[i] * sa
                    b += sprite.blue[i] * sa
                    a += sa
                }
                tap(dx - 1, dy - 1, wx1 * wy1)
                tap(dx, dy - 1, wx0 * wy1)
                tap(dx - 1, dy, wx1 * wy0)
                tap(dx, dy, wx0 * wy0)
                guard a > 0 else { continue }
                blend(ix + dx, iy + dy, Color(r / a, g / a, b / a, 1), coverage: a * opacity)
            }
        }
    }

    /// Composites `layer` (same size) over this canvas with `opacity`.
    public mutating func composite(layer: Canvas, opacity: Float) {
        precondition(layer.width == width && layer.height == height)
        guard opacity > 0 else { return }
        for i in 0..<(width * height) where layer.alpha[i] > 0 {
            blend(i % width, i / width, Color(layer.red[i], layer.green[i], layer.blue[i], layer.alpha[i]), coverage: opacity)
        }
    }

    /// 8-bit RGB, composited over black where transparent, rounded to nearest.
    public func rgbBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            let a = alpha[i]
            out[i * 3] = Canvas.byte(red[i] * a)
            out[i * 3 + 1] = Canvas.byte(green[i] * a)
            out[i * 3 + 2] = Canvas.byte(blue[i] * a)
        }
        return out
    }

    /// 8-bit RGBA (straight alpha).
    public func rgbaBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            out[i * 4] = Canvas.byte(red[i])
            out[i * 4 + 1] = Canvas.byte(green[i])
            out[i * 4 + 2] = Canvas.byte(blue[i])
            out[i * 4 + 3] = Canvas.byte(alpha[i])
        }
        return out
    }

    @inline(__always)
    static func byte(_ v: Float) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
}
