/// Lays evidence tiles side by side with a thin separator, optionally framing some in colour.
public enum Filmstrip {
    /// An 8-bit colour.
    public struct Color: Sendable, Equatable {
        public var red: UInt8, green: UInt8, blue: UInt8
        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
        public static let separator = Color(255, 255, 255)
        /// Marks mirrored tiles in evidence strips.
        public static let highlight = Color(230, 40, 60)
    }

    /// The largest tile size that keeps a strip of `count` tiles of `width` x `height` under
    /// `maximumWidth` pixels, keeping the aspect ratio; full size when it already fits.
    public static func tileSize(width: Int, height: Int, count: Int, separator: Int = 2, maximumWidth: Int = Limits.filmstripWidth) -> (
        width: Int, height: Int
    ) {
        guard count > 0, width > 0, height > 0 else { return (width, height) }
        let available = maximumWidth - (count - 1) * separator
        guard width * count > available else { return (width, height) }
        let w = max(2, available / count)
        let h = max(2, (height * w + width / 2) / width)
        return (w, h)
    }

    /// Tiles (all the same size) side by side, `separator` pixels apart; a tile with a border colour
    /// gets a `border`-pixel frame drawn inside its edges.
    public static func compose(_ tiles: [RGBImage], separator: Int = 2, borders: [Color?] = [], border: Int = 4) -> RGBImage {
        guard let first = tiles.first else { return RGBImage(width: 0, height: 0) }
        let w = first.width, h = first.height
        let total = tiles.count * w + (tiles.count - 1) * separator
        let sep = Color.separator
        var strip = RGBImage(width: total, height: h, red: sep.red, green: sep.green, blue: sep.blue)
        for (n, tile) in tiles.enumerated() {
            precondition(tile.width == w && tile.height == h, "filmstrip tiles must share one size")
            let x0 = n * (w + separator)
            for y in 0..<h {
                let src = y * w * 3, dst = (y * total + x0) * 3
                strip.pixels.replaceSubrange(dst..<(dst + w * 3), with: tile.pixels[src..<(src + w * 3)])
            }
            if n < borders.count, let color = borders[n] {
                for y in 0..<h {
                    for x in 0..<w where x < border || x >= w - border || y < border || y >= h - border {
                        let i = (y * total + x0 + x) * 3
                        strip.pixels[i] = color.red
                        strip.pixels[i + 1] = color.green
                        strip.pixels[i + 2] = color.blue
                    }
                }
            }
        }
        return strip
    }
}
