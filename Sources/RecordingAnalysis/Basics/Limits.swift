/// Every bound the tool puts on hostile or absurd input, in one place.
///
/// Each is chosen so that a genuine screen recording, template or probe log is far inside it, while
/// a crafted file cannot make the tool allocate or compute without end.
public enum Limits {
    /// Largest video width or height decoded (a 16K frame; the biggest phone screens are under 3000).
    public static let videoDimension = 16_384
    /// Most pixels in one frame (like FFmpeg's `max_pixels`): an 8K frame is 33 M; a crafted 16000²
    /// frame (256 M) is refused before it is decoded.
    public static let pixelsPerFrame = 8_192 * 8_192
    /// Most pixels decoded from one capture, estimated from its header before decoding starts
    /// (about an hour of 4K at 60 fps, or two of a phone screen): beyond it the tool says how much
    /// work the capture asks for and stops, unless given `--no-work-limit`.
    public static let decodeWorkPixels: Int64 = 2_000_000_000_000
    /// Most frames decoded from one capture: a day at 60 fps.
    public static let framesPerCapture = 24 * 3600 * 60
    /// Most slots in a constant-rate grid: a day at 120 fps.
    public static let gridSlots: Int64 = 24 * 3600 * 120
    /// Largest PNG template file, in bytes.
    public static let templateBytes = 64 << 20
    /// Largest template width or height, in pixels.
    public static let templateDimension = 8_192
    /// Largest PNG written (the format's own limit is 2^31; this keeps images viewable).
    public static let pngDimension = 65_535
    /// Largest probe log, in bytes: a probe printing 20 lines a second writes about 7 MB an hour.
    public static let probeLogBytes = 64 << 20
    /// Bytes of decoded frames held back while re-encoding a constant-rate copy (frames presented
    /// out of decode order wait for their turn) before the writer must catch up.
    public static let pendingEncodeBytes = 128 << 20
    /// Largest QuickTime index (`moov` box) read to find the video track's edit list.
    public static let indexBytes = 64 << 20
    /// Most tiles in one filmstrip.
    public static let filmstripTiles = 120
    /// Widest filmstrip written, in pixels.
    public static let filmstripWidth = 4095

    /// Runs of the slot map a text report lists (the first two thirds and the last third of them
    /// when there are more; the JSON has every slot).
    public static let textRuns = 300
    /// Rows of a long list (cross-check pairs, disagreements, predicted moments) a text report shows.
    public static let textRows = 20
}
