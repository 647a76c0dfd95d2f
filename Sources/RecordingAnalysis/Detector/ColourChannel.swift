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
public enum ColourChannel {
    /// The channel's value for full-range chroma (centred at 128).
    @inlinable
    public static func value(cb: Float, cr: Float) -> Float {
        min(254, abs(cb - 128) + abs(cr - 128))
    }

    /// The channel's value of an RGB pixel, through BT.601 full-range YCbCr.
    @inlinable
    public static func value(red r: Float, green g: Float, blue b: Float) -> Float {
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        return value(cb: 128 + 0.564 * (b - y), cr: 128 + 0.713 * (r - y))
    }
}
