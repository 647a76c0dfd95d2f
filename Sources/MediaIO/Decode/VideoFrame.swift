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

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }

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
        try scaler.gray(pointer, width: width ?? self.width, height: height ?? self.height, region: region)
    }

    /// The frame in `ColourChannel` (the chroma's distance from gray) at `width` x `height`.
    public func colourChannelImage(width: Int? = nil, height: Int? = nil) throws(MediaError) -> GrayImage {
        try scaler.colourChannel(pointer, width: width ?? self.width, height: height ?? self.height)
    }

    /// The frame converted to RGB24 at `width` x `height` (full size by default).
    public func rgbImage(width: Int? = nil, height: Int? = nil) throws(MediaError) -> RGBImage {
        try scaler.rgb(pointer, width: width ?? self.width, height: height ?? self.height)
    }
}
