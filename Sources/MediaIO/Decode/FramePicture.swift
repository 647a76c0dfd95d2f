import CFFmpeg
import RecordingAnalysis

/// One decoded frame as the ffmpeg CLI writes it to a PNG: 8 bits per channel (RGB24) from an 8-bit
/// source, 16 (RGB48, big-endian) from a source with deeper samples (10-bit HEVC, ProRes), which is
/// the format FFmpeg 5.1's `png` encoder is given for those: the picture keeps the precision the
/// capture has, and a pixel-for-pixel comparison with ffmpeg's PNG holds.
public struct FramePicture: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// 8 or 16.
    public let bitsPerChannel: Int
    /// Packed rows, 3 channels per pixel; 16-bit samples big-endian.
    public let pixels: [UInt8]

    public init(width: Int, height: Int, bitsPerChannel: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.bitsPerChannel = bitsPerChannel
        self.pixels = pixels
    }

    /// An 8-bit RGB image as a picture.
    public init(_ image: RGBImage) {
        self.init(width: image.width, height: image.height, bitsPerChannel: 8, pixels: image.pixels)
    }

    /// Bytes per pixel: 3 or 6.
    public var bytesPerPixel: Int { 3 * bitsPerChannel / 8 }

    /// Whether the ffmpeg CLI writes `frame` to a PNG with 16 bits per channel: some component of
    /// its pixel format is deeper than 8 bits.
    static func isDeep(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format)) else { return false }
        let components = [descriptor.pointee.comp.0, descriptor.pointee.comp.1, descriptor.pointee.comp.2, descriptor.pointee.comp.3]
        return components.prefix(Int(descriptor.pointee.nb_components)).contains { $0.depth > 8 }
    }
}
