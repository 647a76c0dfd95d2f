/// An axis-aligned rectangle in pixels (origin top-left).
public struct PixelRect: Equatable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Parses `X,Y,W,H` (non-negative integers, positive size).
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            x >= 0, y >= 0, w > 0, h > 0, x <= 1_000_000, y <= 1_000_000, w <= 1_000_000, h <= 1_000_000
        else { return nil }
        self.init(x: x, y: y, width: w, height: h)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var centerX: Double { Double(x) + Double(width) / 2 }
    public var centerY: Double { Double(y) + Double(height) / 2 }

    /// This rectangle clipped to `0..<width, 0..<height`; nil when nothing is left.
    public func clipped(width w: Int, height h: Int) -> PixelRect? {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(w, maxX), y1 = min(h, maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The part of this rectangle inside `other`; nil when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y), x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return x0 < x1 && y0 < y1 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    /// Whether the two rectangles share any pixel.
    public func overlaps(_ other: PixelRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// Scaled by `1/factor` (to a working resolution), rounding outward.
    public func downscaled(by factor: Int) -> PixelRect {
        guard factor > 1 else { return self }
        let x0 = x / factor, y0 = y / factor
        return PixelRect(x: x0, y: y0, width: max(1, (maxX + factor - 1) / factor - x0), height: max(1, (maxY + factor - 1) / factor - y0))
    }

    public var description: String { "\(x),\(y),\(width),\(height)" }
}
