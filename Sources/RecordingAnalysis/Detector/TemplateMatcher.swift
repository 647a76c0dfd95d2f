/// Finds a sprite template in a gray image by weighted normalised cross-correlation (NCC), which
/// ignores the brightness and contrast of the surroundings and counts only the template's weighted
/// (alpha-masked) pixels.
public struct TemplateMatcher: Sendable {
    /// A match: the template's top-left corner in the image and its NCC score in -1...1.
    public struct Match: Equatable, Sendable {
        public var x: Int
        public var y: Int
        public var score: Float

        /// The box `template` covers at this match.
        public func box(of template: SpriteTemplate) -> PixelRect {
            PixelRect(x: x, y: y, width: template.width, height: template.height)
        }
    }

    public let template: SpriteTemplate
    private let centred: [Float]
    private let weightSum: Float
    private let templateNorm: Float
    /// Indices of pixels with a weight, as (dx, dy, weight, centred value).
    private let taps: [(Int, Int, Float, Float)]

    /// Pixels weighted this little or less (nearly transparent) are left out of the correlation.
    public static let weightFloor: Float = 0.02

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
                guard w > Self.weightFloor else { continue }
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
        return correlation(si: si, sii: sii, sti: sti)
    }

    /// The NCC from a patch's weighted sums: Σwv, Σwv² and Σwv·t (t the centred template).
    @inline(__always)
    private func correlation(si: Float, sii: Float, sti: Float) -> Float {
        let varI = sii - si * si / weightSum
        // A patch flatter than one gray level of deviation has nothing to correlate with; below
        // that, single-precision cancellation in `sii - si²/n` (sums near 255² per pixel) would
        // leave noise that divides into scores above 1 on flat UI backgrounds.
        guard varI > weightSum else { return 0 }
        return min(1, max(-1, sti / (templateNorm * varI).squareRoot()))
    }

    /// NCC at the eight positions (x ... x + 7, y): the same operations as `score` in each lane, in
    /// the same order, so every lane's score is bit for bit the one `score` gives.
    @inline(__always)
    private func scores8(
        _ base: UnsafePointer<UInt8>, stride: Int, x: Int, y: Int, taps: UnsafeBufferPointer<(Int, Int, Float, Float)>
    ) -> SIMD8<Float> {
        let origin = base + y * stride + x
        return scores8(taps: taps) { dx, dy in
            SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(origin + dy * stride + dx).loadUnaligned(as: SIMD8<UInt8>.self)))
        }
    }

    /// `scores8` on pixels already converted to floats: the same values, without widening eight
    /// bytes for every tap.
    @inline(__always)
    private func scores8(
        _ base: UnsafePointer<Float>, stride: Int, x: Int, y: Int, taps: UnsafeBufferPointer<(Int, Int, Float, Float)>
    ) -> SIMD8<Float> {
        let origin = base + y * stride + x
        return scores8(taps: taps) { dx, dy in UnsafeRawPointer(origin + dy * stride + dx).loadUnaligned(as: SIMD8<Float>.self) }
    }

    /// The eight-lane NCC over `taps`, `pixels(dx, dy)` giving the eight pixels under a tap.
    @inline(__always)
    private func scores8(
        taps: UnsafeBufferPointer<(Int, Int, Float, Float)>, pixels: (Int, Int) -> SIMD8<Float>
    ) -> SIMD8<Float> {
        var si = SIMD8<Float>(), sii = SIMD8<Float>(), sti = SIMD8<Float>()
        for (dx, dy, w, t) in taps {
            let v = pixels(dx, dy)
            let wv = w * v
            si += wv
            sii += wv * v
            sti += wv * t
        }
        var out = SIMD8<Float>()
        for lane in 0..<8 { out[lane] = correlation(si: si[lane], sii: sii[lane], sti: sti[lane]) }
        return out
    }

    /// Calls `body` with the score at every `step`-th position whose top-left corner lies inside
    /// `positions` (clipped to where the template fits), row by row, left to right.
    public func forEachScore(in image: GrayImage, positions: PixelRect, step: Int = 1, _ body: (Int, Int, Float) -> Void) {
        let maxX = min(positions.maxX - 1, image.width - template.width)
        let maxY = min(positions.maxY - 1, image.height - template.height)
        let minX = max(0, positions.x), minY = max(0, positions.y)
        guard minX <= maxX, minY <= maxY, templateNorm > 0, weightSum > 0 else { return }
        let step = max(1, step)
        // Over a large area (a whole frame) every pixel is read by every tap: converting the pixels
        // under the area to floats once pays for itself many times over.
        if step == 1, (maxX - minX + 1) * (maxY - minY + 1) >= Self.floatConversionPositions {
            forEachScoreOnFloats(in: image, minX: minX, maxX: maxX, minY: minY, maxY: maxY, body)
            return
        }
        image.pixels.withUnsafeBufferPointer { px in
            taps.withUnsafeBufferPointer { t in
                guard let base = px.baseAddress else { return }
                var y = minY
                while y <= maxY {
                    var x = minX
                    // Eight neighbouring positions at once where they all fit (with a step of 2 or
                    // 4, only every step-th lane is used: still fewer operations than one at a time).
                    while 8 % step == 0 && x + 7 <= maxX {
                        let s = scores8(base, stride: image.width, x: x, y: y, taps: t)
                        for lane in Swift.stride(from: 0, to: 8, by: step) { body(x + lane, y, s[lane]) }
                        x += 8
                    }
                    while x <= maxX {
                        body(x, y, score(px, stride: image.width, x: x, y: y, taps: t))
                        x += step
                    }
                    y += step
                }
            }
        }
    }

    /// Positions from which `forEachScore` converts the pixels to floats first.
    static let floatConversionPositions = 4096

    /// `forEachScore` at every position of minX...maxX × minY...maxY, on the pixels under them
    /// converted to floats (rows padded by eight, so that the last group of eight reads inside).
    private func forEachScoreOnFloats(
        in image: GrayImage, minX: Int, maxX: Int, minY: Int, maxY: Int, _ body: (Int, Int, Float) -> Void
    ) {
        let width = maxX - minX + template.width + 8, height = maxY - minY + template.height
        var floats = [Float](repeating: 0, count: width * height)
        image.pixels.withUnsafeBufferPointer { px in
            floats.withUnsafeMutableBufferPointer { f in
                for row in 0..<height {
                    let from = (minY + row) * image.width + minX, count = min(width, image.width - minX)
                    for i in 0..<count { f[row * width + i] = Float(px[from + i]) }
                }
            }
        }
        floats.withUnsafeBufferPointer { f in
            taps.withUnsafeBufferPointer { t in
                guard let base = f.baseAddress else { return }
                for y in minY...maxY {
                    var x = minX
                    while x <= maxX {
                        let s = scores8(base, stride: width, x: x - minX, y: y - minY, taps: t)
                        for lane in 0..<min(8, maxX - x + 1) { body(x + lane, y, s[lane]) }
                        x += 8
                    }
                }
            }
        }
    }

    /// The best match with the top-left corner inside `positions` (clipped to where the template
    /// fits), visiting every `step`-th position; the first of equal scores in reading order.
    public func best(in image: GrayImage, positions: PixelRect, step: Int = 1) -> Match? {
        var best: Match?
        forEachScore(in: image, positions: positions, step: step) { x, y, s in
            if s > (best?.score ?? -2) { best = Match(x: x, y: y, score: s) }
        }
        return best
    }

    /// Coarse-to-fine: every second position of `positions`, then the neighbours of the best. A
    /// template under 24 pixels (either way) is matched at every position: its correlation peak can
    /// be narrower than the coarse step, so the coarse pass would land beside it.
    public func bestCoarseToFine(in image: GrayImage, positions: PixelRect) -> Match? {
        if min(template.width, template.height) < 24 { return best(in: image, positions: positions) }
        guard let coarse = best(in: image, positions: positions, step: 2) else { return nil }
        return best(in: image, positions: PixelRect(x: coarse.x - 1, y: coarse.y - 1, width: 3, height: 3))
    }
}
