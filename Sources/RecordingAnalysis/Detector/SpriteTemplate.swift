/// A sprite's appearance in gray with a per-pixel weight (the alpha mask), in one orientation.
public struct SpriteTemplate: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Gray levels, row-major.
    public let pixels: [Float]
    /// Weights in 0...1 (alpha); all 1 for a template cut from a frame.
    public let weights: [Float]

    public init(width: Int, height: Int, pixels: [Float], weights: [Float]) {
        precondition(pixels.count == width * height && weights.count == pixels.count)
        self.width = width
        self.height = height
        self.pixels = pixels
        self.weights = weights
    }

    /// The template's columns in `range` (a part of the sprite).
    public func columns(_ range: Range<Int>) -> SpriteTemplate {
        let r = range.clamped(to: 0..<width)
        var p: [Float] = [], w: [Float] = []
        p.reserveCapacity(r.count * height)
        w.reserveCapacity(r.count * height)
        for y in 0..<height {
            p += pixels[(y * width + r.lowerBound)..<(y * width + r.upperBound)]
            w += weights[(y * width + r.lowerBound)..<(y * width + r.upperBound)]
        }
        return SpriteTemplate(width: r.count, height: height, pixels: p, weights: w)
    }

    /// The template's rows in `range`.
    public func rows(_ range: Range<Int>) -> SpriteTemplate {
        let r = range.clamped(to: 0..<height)
        let cut = (r.lowerBound * width)..<(r.upperBound * width)
        return SpriteTemplate(width: width, height: r.count, pixels: Array(pixels[cut]), weights: Array(weights[cut]))
    }

    /// The smallest box holding every pixel the matcher weighs (`TemplateMatcher.weightFloor`);
    /// nil when there is none.
    public var drawnBox: PixelRect? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where weights[y * width + x] > TemplateMatcher.weightFloor {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// A template cut out of a gray image, every pixel weighted 1.
    public init(cutting rect: PixelRect, from image: GrayImage) {
        var p = [Float](repeating: 0, count: rect.width * rect.height)
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                let sx = min(max(rect.x + x, 0), image.width - 1), sy = min(max(rect.y + y, 0), image.height - 1)
                p[y * rect.width + x] = Float(image.pixels[sy * image.width + sx])
            }
        }
        self.init(width: rect.width, height: rect.height, pixels: p, weights: [Float](repeating: 1, count: p.count))
    }

    /// From RGBA bytes (straight alpha): gray = BT.601 luma, weight = alpha. Without alpha, RGB bytes.
    public init(rgba: [UInt8], width: Int, height: Int, hasAlpha: Bool) {
        let channels = hasAlpha ? 4 : 3
        precondition(rgba.count == width * height * channels)
        var p = [Float](repeating: 0, count: width * height)
        var w = [Float](repeating: 1, count: width * height)
        for i in 0..<(width * height) {
            let r = Float(rgba[i * channels]), g = Float(rgba[i * channels + 1]), b = Float(rgba[i * channels + 2])
            // Matching is normalised cross-correlation, so the luma's range and offset do not matter.
            p[i] = 0.299 * r + 0.587 * g + 0.114 * b
            if hasAlpha { w[i] = Float(rgba[i * channels + 3]) / 255 }
        }
        self.init(width: width, height: height, pixels: p, weights: w)
    }

    /// From RGBA bytes as `init(rgba:width:height:hasAlpha:)`, in `ColourChannel` (distance from
    /// gray) instead of luma: the template a frame's colour channel is compared with.
    /// With `axis`, the channel is read along that hue (`ColourChannel.HueAxis`).
    public init(colourOf rgba: [UInt8], width: Int, height: Int, hasAlpha: Bool, along axis: ColourChannel.HueAxis? = nil) {
        let luma = SpriteTemplate(rgba: rgba, width: width, height: height, hasAlpha: hasAlpha)
        let channels = hasAlpha ? 4 : 3
        var p = [Float](repeating: 0, count: width * height)
        for i in p.indices {
            p[i] = ColourChannel.value(
                red: Float(rgba[i * channels]), green: Float(rgba[i * channels + 1]), blue: Float(rgba[i * channels + 2]), along: axis)
        }
        self.init(width: width, height: height, pixels: p, weights: luma.weights)
    }

    /// The horizontal mirror image (`.scaleEffect(x: -1)` about the sprite's own centre).
    public var mirrored: SpriteTemplate {
        var p = pixels, w = weights
        for y in 0..<height {
            for x in 0..<width {
                p[y * width + x] = pixels[y * width + width - 1 - x]
                w[y * width + x] = weights[y * width + width - 1 - x]
            }
        }
        return SpriteTemplate(width: width, height: height, pixels: p, weights: w)
    }

    /// Resampled by `scale` with bilinear interpolation (area-averaged when shrinking by 2 or more).
    public func scaled(by scale: Double) -> SpriteTemplate {
        let w = max(2, Int((Double(width) * scale).rounded())), h = max(2, Int((Double(height) * scale).rounded()))
        if w == width && h == height { return self }
        var p = [Float](repeating: 0, count: w * h), q = p
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        for y in 0..<h {
            for x in 0..<w {
                // Average a footprint of the source pixels this output pixel covers.
                let fx0 = Double(x) * sx, fy0 = Double(y) * sy
                let nx = max(1, Int(sx.rounded(.up))), ny = max(1, Int(sy.rounded(.up)))
                var acc: Float = 0, accW: Float = 0, n: Float = 0
                for j in 0..<ny {
                    for i in 0..<nx {
                        let u = fx0 + (Double(i) + 0.5) * sx / Double(nx) - 0.5
                        let v = fy0 + (Double(j) + 0.5) * sy / Double(ny) - 0.5
                        let (a, b) = sample(u, v)
                        acc += a
                        accW += b
                        n += 1
                    }
                }
                p[y * w + x] = acc / n
                q[y * w + x] = accW / n
            }
        }
        return SpriteTemplate(width: w, height: h, pixels: p, weights: q)
    }

    private func sample(_ u: Double, _ v: Double) -> (Float, Float) {
        let x0 = min(max(Int(u.rounded(.down)), 0), width - 1), y0 = min(max(Int(v.rounded(.down)), 0), height - 1)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = Float(min(max(u - Double(x0), 0), 1)), fy = Float(min(max(v - Double(y0), 0), 1))
        func lerp(_ a: [Float]) -> Float {
            let top = a[y0 * width + x0] * (1 - fx) + a[y0 * width + x1] * fx
            let bottom = a[y1 * width + x0] * (1 - fx) + a[y1 * width + x1] * fx
            return top * (1 - fy) + bottom * fy
        }
        return (lerp(pixels), lerp(weights))
    }

    /// This template weighted by how much each pixel differs from its mirror image: the pixels that
    /// tell the two orientations apart. Symmetric pixels (most of the background) keep a small weight.
    /// The weights are themselves mirror-symmetric, so both orientations are scored on the same pixels.
    public var weightedByAsymmetry: SpriteTemplate {
        var w = weights
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let d = abs(pixels[i] - pixels[y * width + width - 1 - x])
                w[i] = max(0.05, min(1, d / 32)) * min(weights[i], weights[y * width + width - 1 - x])
            }
        }
        return SpriteTemplate(width: width, height: height, pixels: pixels, weights: w)
    }

    /// This template with each weight multiplied by `factors` (one per pixel, row-major).
    public func weighted(by factors: [Float]) -> SpriteTemplate {
        guard factors.count == weights.count else { return self }
        return SpriteTemplate(width: width, height: height, pixels: pixels, weights: zip(weights, factors).map { $0 * $1 })
    }

    /// `weight` of `other` (same size) blended into this template's gray levels; weights are kept.
    public func blended(with other: SpriteTemplate, weight: Float) -> SpriteTemplate {
        guard other.width == width, other.height == height else { return self }
        var p = pixels
        for i in 0..<p.count { p[i] = (1 - weight) * p[i] + weight * other.pixels[i] }
        return SpriteTemplate(width: width, height: height, pixels: p, weights: weights)
    }

    /// Standard deviation of `image`'s gray levels under this template's weights, with the template's
    /// top-left corner at `rect`'s (pixels outside the image left out): how much the frame varies
    /// where the sprite is.
    public func contrast(of image: GrayImage, at rect: PixelRect) -> Float {
        var sw = 0.0, s = 0.0, ss = 0.0
        for y in 0..<height where rect.y + y >= 0 && rect.y + y < image.height {
            for x in 0..<width where rect.x + x >= 0 && rect.x + x < image.width {
                let w = Double(weights[y * width + x]), p = Double(image[rect.x + x, rect.y + y])
                sw += w
                s += w * p
                ss += w * p * p
            }
        }
        return SpriteTemplate.deviation(weight: sw, sum: s, squares: ss)
    }

    /// The weighted mean of `image − 128` under the template placed with its top-left corner at
    /// (x, y), beside the template's own (nil when no weighted pixel lies in the image): on a
    /// channel read along a hue (`ColourChannel.HueAxis`), how strongly each shows that hue.
    public func hueLevels(in image: GrayImage, x: Int, y: Int) -> (frame: Float, template: Float)? {
        var sw = 0.0, f = 0.0, t = 0.0
        for ty in 0..<height where y + ty >= 0 && y + ty < image.height {
            for tx in 0..<width where x + tx >= 0 && x + tx < image.width {
                let w = Double(weights[ty * width + tx])
                sw += w
                f += w * (Double(image[x + tx, y + ty]) - 128)
                t += w * (Double(pixels[ty * width + tx]) - 128)
            }
        }
        guard sw > 0 else { return nil }
        return (Float(f / sw), Float(t / sw))
    }

    /// The standard deviation from a weighted sample's total weight, sum and sum of squares.
    private static func deviation(weight: Double, sum: Double, squares: Double) -> Float {
        guard weight > 0 else { return 0 }
        let mean = sum / weight
        return Float(max(0, squares / weight - mean * mean).squareRoot())
    }

    /// Standard deviation of the weighted gray levels: a template with none cannot be matched.
    /// Summed in double precision: in single precision the squares of a large template lose every
    /// digit of the variance and a sharp checkerboard came out blank.
    public var contrast: Float {
        var sw = 0.0, s = 0.0, ss = 0.0
        for i in 0..<pixels.count {
            let w = Double(weights[i]), p = Double(pixels[i])
            sw += w
            s += w * p
            ss += w * p * p
        }
        return SpriteTemplate.deviation(weight: sw, sum: s, squares: ss)
    }
}
