/// An 8-bit luma image, row-major without padding: the detector's unit of work.
public struct GrayImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// An image of `width` x `height` filled with `value`.
    public init(width: Int, height: Int, fill value: UInt8 = 0) {
        precondition(width >= 0 && height >= 0)
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: value, count: width * height)
    }

    /// Wraps existing pixels; `pixels.count` must be `width * height`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "pixel count does not match dimensions")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// This image shrunk by an integer `factor`, each pixel the mean of a factor x factor block.
    public func downsampled(by factor: Int) -> GrayImage {
        guard factor > 1 else { return self }
        let w = max(1, width / factor), h = max(1, height / factor)
        var out = [UInt8](repeating: 0, count: w * h)
        let n = factor * factor
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0
                for dy in 0..<factor {
                    let row = (y * factor + dy) * width + x * factor
                    for dx in 0..<factor { sum += Int(pixels[row + dx]) }
                }
                out[y * w + x] = UInt8((sum + n / 2) / n)
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Whether `other` has this image's size and every pixel equal, compared eight bytes at a time.
    public func hasSamePixels(as other: GrayImage) -> Bool {
        guard width == other.width, height == other.height, pixels.count == other.pixels.count else { return false }
        return pixels.withUnsafeBytes { a in
            other.pixels.withUnsafeBytes { b in
                let n = a.count
                var i = 0
                while i + 8 <= n {
                    if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                        return false
                    }
                    i += 8
                }
                while i < n {
                    if a[i] != b[i] { return false }
                    i += 1
                }
                return true
            }
        }
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

/// An 8-bit RGB image (3 bytes per pixel), row-major without padding, for evidence images.
public struct RGBImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// An image of `width` x `height` filled with one colour.
    public init(width: Int, height: Int, red: UInt8 = 0, green: UInt8 = 0, blue: UInt8 = 0) {
        precondition(width >= 0 && height >= 0)
        self.width = width
        self.height = height
        var p = [UInt8](repeating: 0, count: width * height * 3)
        if red != 0 || green != 0 || blue != 0 {
            for i in stride(from: 0, to: p.count, by: 3) {
                p[i] = red
                p[i + 1] = green
                p[i + 2] = blue
            }
        }
        pixels = p
    }

    /// The part of this image inside `rect` (clipped), enlarged `zoom` times by pixel repetition so
    /// that a small sprite stays sharp in evidence images.
    public func cropped(to rect: PixelRect, zoom: Int = 1) -> RGBImage? {
        guard let r = rect.clipped(width: width, height: height), zoom >= 1 else { return nil }
        var out = RGBImage(width: r.width * zoom, height: r.height * zoom)
        for y in 0..<out.height {
            let sy = r.y + y / zoom
            for x in 0..<out.width {
                let s = (sy * width + r.x + x / zoom) * 3, d = (y * out.width + x) * 3
                out.pixels[d] = pixels[s]
                out.pixels[d + 1] = pixels[s + 1]
                out.pixels[d + 2] = pixels[s + 2]
            }
        }
        return out
    }

    /// Wraps existing pixels; `pixels.count` must be `width * height * 3`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "pixel count does not match dimensions")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
