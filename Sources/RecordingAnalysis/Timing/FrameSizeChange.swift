/// A decoded frame whose size differs from the frame's before it (a browser capture of a resized
/// window, a recorder that follows the display).
///
/// The ffmpeg CLI (FFmpeg 5.1 `ifilter_send_frame`) rebuilds its filter graph at such a frame
/// without draining the old one: the `fps` filter's buffered frame, the one before the change, is
/// never output, and the new graph starts its grid afresh at the new frame's slot. A grid computed
/// over the whole stream is then not the CLI's, so the tool does not claim it is.
public struct FrameSizeChange: Sendable, Equatable {
    /// Decoder-output index of the first frame at the new size.
    public var index: Int
    /// The size before, as shown.
    public var previousWidth: Int, previousHeight: Int
    /// The new size, as shown.
    public var width: Int, height: Int

    public init(index: Int, previousWidth: Int, previousHeight: Int, width: Int, height: Int) {
        self.index = index
        self.previousWidth = previousWidth
        self.previousHeight = previousHeight
        self.width = width
        self.height = height
    }

    /// "390x844 → 195x422".
    public var sizesText: String { "\(previousWidth)x\(previousHeight) → \(width)x\(height)" }
}
