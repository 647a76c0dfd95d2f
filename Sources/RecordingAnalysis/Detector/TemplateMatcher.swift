/// Finds a sprite template in a gray image by weighted normalised cross-correlation (NCC), which
/// ignores the brightness and contrast of the surroundings and counts only the template's weighted
/// (alpha-masked) pixels.
public struct TemplateMatcher: Sendable {
    /// A match: the template's top-left corner in the image and its NCC score in -1...1.
    public struct Match: Equatable, Sendable {
        public var x: Int
        public var y: Int
        public var score: Float
    }

    public let template: SpriteTemplate
    private let centred: [Float]
    private let weightSum: Float
    private let templateNorm: Float
    /// Indices of pixels with a weight, as (dx, dy, weight, centred value).
    private let taps: [(Int, Int, Float, Float)]

    public init(_ template: SpriteTemplate) {
        self.template = template
        var sw: Float = 0, s: Float = 0
        for i in 0..<template.pixels.count {
            sw += template.weights[i]
            s += template.weights[i] * template.pixels[i]
        }
        let mean = sw > 0 ? s / sw : 0
        var c = [Float](repeating: 0, count: template.pixels.count)
        var norm: Float = 0
        var taps: [(Int, Int, Float, Float)] = []
        for y in 0..<template.height {
            for x in 0..<template.width {
                let i = y * template.width + x
                let w = template.weights[i]
                guard w > 0.02 else { continue }
                c[i] = template.pixels[i] - mean
                norm += w * c[i] * c[i]
                taps.append((x, y, w, c[i]))
            }
        }
        centred = c
        weightSum = sw
        templateNorm = norm
        self.taps = taps
    }

    /// NCC of the template with its top-left corner at (x, y); nil when it does not fit.
    public func score(in image: GrayImage, x: Int, y: Int) -> Float? {
        guard x >= 0, y >= 0, x + template.width <= image.width, y + template.height <= image.height,
            templateNorm > 0, weightSum > 0
        else { return nil }
        return image.pixels.withUnsafeBufferPointer { px in
            taps.withUnsafeBufferPointer { t in score(px, stride: image.width, x: x, y: y, taps: t) }
        }
    }

    @inline(__always)
    private func score(
        _ px: UnsafeBufferPointer<UInt8>, stride: Int, x: Int, y: Int,
        taps: UnsafeBufferPointer<(Int, Int, Float, Float)>
    ) -> Float {
        var si: Float = 0, sii: Float = 0, sti: Float = 0
        guard let base = px.baseAddress else { return 0 }
        let origin = base + y * stride + x
        for (dx, dy, w, t) in taps {
            let v = Float(origin[dy * stride + dx])
            let wv = w * v
            si += wv
            sii += wv * v
            sti += wv * t
        }
        let varI = sii - si * si / weightSum
        // A patch flatter than one gray level of deviation has nothing to correlate with; below
        // that, single-precision cancellation in `sii - si²/n` (sums near 255² per pixel) would
        // leave noise that divides into scores above 1 on flat UI backgrounds.
        guard varI > weightSum else { return 0 }
        return min(1, max(-1, sti / (templateNorm * varI).squareRoot()))
    }

    /// The best match with the top-left corner inside `positions` (clipped to where the template
    /// fits), visiting every `step`-th position.
    public func best(in image: GrayImage, positions: PixelRect, step: Int = 1) -> Match? {
        let maxX = min(positions.maxX - 1, image.width - template.width)
        let maxY = min(positions.maxY - 1, image.height - template.height)
        let minX = max(0, positions.x), minY = max(0, positions.y)
        guard minX <= maxX, minY <= maxY, templateNorm > 0, weightSum > 0 else { return nil }
        var best: Match?
        image.pixels.withUnsafeBufferPointer { px in
            taps.withUnsafeBufferPointer { t in
                var y = minY
                while y <= maxY {
                    var x = minX
                    while x <= maxX {
                        let s = score(px, stride: image.width, x: x, y: y, taps: t)
                        if s > (best?.score ?? -2) { best = Match(x: x, y: y, score: s) }
                        x += max(1, step)
                    }
                    y += max(1, step)
                }
            }
        }
        return best
    }

    /// Coarse-to-fine: every second position of `positions`, then the neighbours of the best.
    public func bestCoarseToFine(in image: GrayImage, positions: PixelRect) -> Match? {
        guard let coarse = best(in: image, positions: positions, step: 2) else { return nil }
        return best(in: image, positions: PixelRect(x: coarse.x - 1, y: coarse.y - 1, width: 3, height: 3))
    }
}
