/// The second view of a frame in which auto mode looks for mirror events: the chroma's distance from
/// gray, `|Cb − 128| + |Cr − 128|` (full-range values, at most 254).
///
/// Luma alone is blind to colour contrast: a red car on a blue-gray sky has nearly the sky's luma,
/// so only its windows and wheels show, and its mirror image looks like a shift of them. In this
/// channel the saturated body stands out, while gray content (text, most UI) is 0 and costs the
/// event search nothing. It is only a second look: on compressed video the chroma is coarser and
/// noisier than the luma, so events are sought in luma first, and a sprite found here is tracked in
/// luma like any other (`MirrorDetector`). Frames come in this channel from
/// `VideoFrame.colourChannelImage`.
///
/// Template mode reads colour along the template's own hue instead (`HueAxis`): the distance from
/// gray is blind to hue, and a green button's rounded end agreed in it with a brown snail's shell.
public enum ColourChannel {
    /// A direction in the (Cb, Cr) plane, of unit length: the template's prevailing hue. Along it
    /// the channel is `128 + gain · ((Cb − 128) · cb + (Cr − 128) · cr)`, clamped to 0…255: above 128
    /// where a pixel has the template's hue, below where it has the opposite one, 128 where it is gray.
    public struct HueAxis: Sendable, Equatable {
        public let cb: Float
        public let cr: Float
        /// Scales the projection (at most 181 for full-range chroma) into the byte's range.
        public static let gain: Float = 0.7
        /// A template's prevailing hue is read only when its mean chroma lies at least this far from
        /// gray (full-range levels): a gray template, or one whose colours cancel, has none.
        public static let minimumMean: Float = 8

        public init?(cb: Float, cr: Float) {
            let length = (cb * cb + cr * cr).squareRoot()
            guard length > 0, length.isFinite else { return nil }
            self.cb = cb / length
            self.cr = cr / length
        }

        /// The channel's value along this axis for full-range chroma (centred at 128).
        @inlinable
        public func value(cb b: Float, cr r: Float) -> Float {
            min(255, max(0, 128 + HueAxis.gain * ((b - 128) * cb + (r - 128) * cr)))
        }

        /// The prevailing hue of RGBA (or RGB) pixels: their mean chroma weighted by alpha, through
        /// BT.601 full-range YCbCr; nil when it lies closer to gray than `minimumMean`.
        public static func prevailing(in rgba: [UInt8], width: Int, height: Int, hasAlpha: Bool) -> HueAxis? {
            let channels = hasAlpha ? 4 : 3
            var sumCb: Float = 0, sumCr: Float = 0, total: Float = 0
            for i in 0..<(width * height) where (i + 1) * channels <= rgba.count {
                let w = hasAlpha ? Float(rgba[i * channels + 3]) / 255 : 1
                let (b, r) = ColourChannel.chroma(
                    red: Float(rgba[i * channels]), green: Float(rgba[i * channels + 1]), blue: Float(rgba[i * channels + 2]))
                sumCb += w * (b - 128)
                sumCr += w * (r - 128)
                total += w
            }
            guard total > 0 else { return nil }
            let meanCb = sumCb / total, meanCr = sumCr / total
            guard (meanCb * meanCb + meanCr * meanCr).squareRoot() >= minimumMean else { return nil }
            return HueAxis(cb: meanCb, cr: meanCr)
        }
    }

    /// A frame in this channel, and (template mode, when the template has a prevailing hue) along
    /// the template's hue as well: what the detector is given where colour must be compared.
    public struct Views: Sendable {
        /// The distance from gray.
        public var distance: GrayImage
        /// Along the template's `HueAxis`; nil when there is none.
        public var alongHue: GrayImage?

        public init(distance: GrayImage, alongHue: GrayImage? = nil) {
            self.distance = distance
            self.alongHue = alongHue
        }
    }

    /// BT.601 full-range chroma of an RGB pixel (each centred at 128).
    @inlinable
    public static func chroma(red r: Float, green g: Float, blue b: Float) -> (cb: Float, cr: Float) {
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        return (128 + 0.564 * (b - y), 128 + 0.713 * (r - y))
    }

    /// The channel's value for full-range chroma (centred at 128).
    @inlinable
    public static func value(cb: Float, cr: Float) -> Float {
        min(254, abs(cb - 128) + abs(cr - 128))
    }

    /// The channel's value of an RGB pixel, through BT.601 full-range YCbCr.
    @inlinable
    public static func value(red r: Float, green g: Float, blue b: Float) -> Float {
        let (cb, cr) = chroma(red: r, green: g, blue: b)
        return value(cb: cb, cr: cr)
    }

    /// The channel's value of an RGB pixel along `axis` (the distance from gray when nil).
    @inlinable
    public static func value(red r: Float, green g: Float, blue b: Float, along axis: HueAxis?) -> Float {
        guard let axis else { return value(red: r, green: g, blue: b) }
        let (cb, cr) = chroma(red: r, green: g, blue: b)
        return axis.value(cb: cb, cr: cr)
    }
}
