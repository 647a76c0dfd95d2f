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
            for i in stride(from: 0, to: p.count, by: 3) { p[i] = red; p[i + 1] = green; p[i + 2] = blue }
        }
        pixels = p
    }

    /// Wraps existing pixels; `pixels.count` must be `width * height * 3`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "pixel count does not match dimensions")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
