import CFFmpeg
import RecordingAnalysis

/// A decoded video frame, lent to a `RecordingReader.decode` callback.
///
/// Valid only during the callback that received it; copy out what you need (timing, a gray or
/// RGB image) before returning.
public struct VideoFrame {
    let pointer: UnsafeMutablePointer<AVFrame>
    /// The stream time base of `pts` and `duration`.
    public let timeBase: Rational
    let scaler: FrameScaler
    /// The frame the decoder output before this one, while it is still held.
    let previous: UnsafeMutablePointer<AVFrame>?

    init(
        pointer: UnsafeMutablePointer<AVFrame>, timeBase: Rational, scaler: FrameScaler, display: DisplayTransform,
        previous: UnsafeMutablePointer<AVFrame>? = nil
    ) {
        self.pointer = pointer
        self.timeBase = timeBase
        self.scaler = scaler
        self.display = display
        self.previous = previous
    }

    /// Whether the decoder output the same picture as for the frame before, byte for byte in every
    /// plane: a recorder that writes frames at a fixed rate repeats the last one while nothing on
    /// screen changes. False for the first frame and where the comparison cannot be made (see
    /// `SamePicture`).
    public var repeatsPrevious: Bool {
        guard let previous else { return false }
        return SamePicture.holds(pointer, previous)
    }

    /// Raw presentation timestamp from the decoder, nil when the frame has none.
    /// Deliberately not `best_effort_timestamp`, which silently substitutes dts.
    public var pts: Int64? {
        let value = pointer.pointee.pts
        return value == FFmpegCodes.noPTS ? nil : value
    }

    /// FFmpeg's `best_effort_timestamp` (pts, or dts where pts proved faulty), nil when neither exists.
    public var bestEffortTimestamp: Int64? {
        let value = pointer.pointee.best_effort_timestamp
        return value == FFmpegCodes.noPTS ? nil : value
    }

    /// Duration in time-base ticks (`pkt_duration` in FFmpeg 5.1), 0 when unknown.
    public var duration: Int64 { max(0, pointer.pointee.pkt_duration) }

    /// Whether the decoder flagged this as a key frame.
    public var isKey: Bool { pointer.pointee.key_frame != 0 }

    /// How the frame is shown (the stream's display matrix). Every image below is as shown.
    public let display: DisplayTransform

    /// The width the frame is shown at.
    public var width: Int { display.shownSize(width: storedWidth, height: storedHeight).width }
    /// The height the frame is shown at.
    public var height: Int { display.shownSize(width: storedWidth, height: storedHeight).height }
    var storedWidth: Int { Int(pointer.pointee.width) }
    var storedHeight: Int { Int(pointer.pointee.height) }

    /// An output size as shown, as the stored frame is converted to.
    private func storedSize(_ width: Int?, _ height: Int?) -> (width: Int, height: Int) {
        let w = width ?? self.width, h = height ?? self.height
        return display.swapsAxes ? (h, w) : (w, h)
    }

    /// The frame's timing as a plain value, with `index` in decoder output order. Its `dts` is left
    /// nil: with frame threads `pkt_dts` belongs to whichever packet was last sent, not to this
    /// frame; `FrameTiming.attachingDTS(from:)` recovers it from the packets.
    public func timing(index: Int) -> FrameTiming {
        FrameTiming(index: index, pts: pts, bestEffort: bestEffortTimestamp, duration: duration, isKey: isKey, timeBase: timeBase)
    }

    /// The frame's luma reduced to `width` x `height` (box-averaged from the Y plane, or libswscale
    /// for other formats), full range. With `region` (output pixels), only that part may be filled
    /// and the rest left black: a caller that looks at one neighbourhood saves the rest.
    public func grayImage(width: Int? = nil, height: Int? = nil, region: PixelRect? = nil) throws(MediaError) -> GrayImage {
        let size = storedSize(width, height)
        let storedRegion = region.map { display.storedRect($0, width: size.width, height: size.height) }
        return display.shown(try scaler.gray(pointer, width: size.width, height: size.height, region: storedRegion))
    }

    /// How `grayImage(width:height:region:)` fills a region of this frame at that size.
    public func grayRegionRule(width: Int? = nil, height: Int? = nil) -> GrayRegionRule {
        let size = storedSize(width, height)
        return GrayRegionRule(
            honoursRegions: FrameScaler.boxFactor(pointer, width: size.width, height: size.height) != nil,
            storedWidth: size.width, storedHeight: size.height, display: display)
    }

    /// The frame in `ColourChannel` (the chroma's distance from gray) at `width` x `height`.
    /// With `axis`, read along that hue (`ColourChannel.HueAxis`): template mode's colour channel.
    public func colourChannelImage(
        width: Int? = nil, height: Int? = nil, along axis: ColourChannel.HueAxis? = nil
    ) throws(MediaError) -> GrayImage {
        let size = storedSize(width, height)
        return display.shown(try scaler.colourChannel(pointer, width: size.width, height: size.height, along: axis))
    }

    /// The frame converted to RGB24 at `width` x `height` (full size by default).
    public func rgbImage(width: Int? = nil, height: Int? = nil) throws(MediaError) -> RGBImage {
        let size = storedSize(width, height)
        return display.shown(try scaler.rgb(pointer, width: size.width, height: size.height))
    }

    /// The whole frame as the ffmpeg CLI writes it to a PNG (`FramePicture`): RGB24, or RGB48 from a
    /// source deeper than 8 bits.
    public func picture() throws(MediaError) -> FramePicture {
        guard FramePicture.isDeep(pointer) else { return FramePicture(try rgbImage()) }
        let size = storedSize(nil, nil)
        let stored = try scaler.rgb48(pointer, width: size.width, height: size.height)
        return FramePicture(
            width: width, height: height, bitsPerChannel: 16,
            pixels: display.shown(stored, width: size.width, height: size.height, channels: 6))
    }
}
