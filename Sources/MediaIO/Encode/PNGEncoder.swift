import CFFmpeg
import Foundation
import RecordingAnalysis

/// Encodes evidence images as PNG with libavcodec's `png` encoder.
public enum PNGEncoder {
    /// PNG bytes of an RGB image.
    public static func encode(_ image: RGBImage) throws(MediaError) -> [UInt8] {
        try encode(width: image.width, height: image.height, format: AV_PIX_FMT_RGB24, bytesPerPixel: 3, pixels: image.pixels)
    }

    /// PNG bytes of straight-alpha RGBA pixels (4 bytes per pixel).
    public static func encodeRGBA(width: Int, height: Int, pixels: [UInt8]) throws(MediaError) -> [UInt8] {
        guard pixels.count == width * height * 4 else {
            throw MediaError(kind: .invalidData, operation: "png", message: "RGBA pixel count does not match \(width)x\(height)")
        }
        return try encode(width: width, height: height, format: AV_PIX_FMT_RGBA, bytesPerPixel: 4, pixels: pixels)
    }

    /// PNG bytes of a decoded frame's picture, at its depth (8 or 16 bits per channel).
    public static func encode(_ picture: FramePicture) throws(MediaError) -> [UInt8] {
        try encode(
            width: picture.width, height: picture.height, format: picture.bitsPerChannel == 16 ? AV_PIX_FMT_RGB48BE : AV_PIX_FMT_RGB24,
            bytesPerPixel: picture.bytesPerPixel, pixels: picture.pixels)
    }

    /// Writes `image` to `path` as PNG, atomically: a failure never leaves a partial file.
    public static func write(_ image: RGBImage, to path: String) throws(MediaError) {
        try OutputFile.writeAtomically(try encode(image), to: path)
    }

    /// Writes `picture` to `path` as PNG, as `write(_:to:)` writes an image.
    public static func write(_ picture: FramePicture, to path: String) throws(MediaError) {
        try OutputFile.writeAtomically(try encode(picture), to: path)
    }

    private static func encode(
        width: Int, height: Int, format: AVPixelFormat, bytesPerPixel: Int,
        pixels: [UInt8]
    ) throws(MediaError) -> [UInt8] {
        _ = configureLogging
        guard width > 0, height > 0, width <= Limits.pngDimension, height <= Limits.pngDimension else {
            throw MediaError(kind: .invalidData, operation: "png", message: "cannot encode a \(width)x\(height) image")
        }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw MediaError(kind: .unavailable, operation: "avcodec_find_encoder", message: "this FFmpeg build has no PNG encoder")
        }
        let context = try OwnedCodecContext(codec)
        let frame = try OwnedFrame()
        let packet = try OwnedPacket()
        let ctx = context.pointer
        let frm = frame.pointer
        let pkt = packet.pointer
        // The owners must outlive every use of their raw pointers below, not just their last mention.
        defer { withExtendedLifetime((context, frame, packet)) {} }

        ctx.pointee.width = Int32(width)
        ctx.pointee.height = Int32(height)
        ctx.pointee.pix_fmt = format
        ctx.pointee.time_base = AVRational(num: 1, den: 1)
        try check(avcodec_open2(ctx, codec, nil), "avcodec_open2(png)", kind: .unavailable)

        frm.pointee.width = Int32(width)
        frm.pointee.height = Int32(height)
        frm.pointee.format = format.rawValue
        try check(av_frame_get_buffer(frm, 0), "av_frame_get_buffer", kind: .unavailable)
        let rowBytes = width * bytesPerPixel
        let stride = Int(frm.pointee.linesize.0)
        guard let plane = frm.pointee.data.0 else {
            throw MediaError(kind: .unavailable, operation: "av_frame_get_buffer", message: "no image plane")
        }
        pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                (plane + y * stride).update(from: src.baseAddress! + y * rowBytes, count: rowBytes)
            }
        }
        frm.pointee.pts = 0
        try check(avcodec_send_frame(ctx, frm), "avcodec_send_frame(png)", kind: .unavailable)
        try check(avcodec_send_frame(ctx, nil), "avcodec_send_frame(png, flush)", kind: .unavailable)
        var bytes: [UInt8] = []
        while true {
            let r = avcodec_receive_packet(ctx, pkt)
            if r == FFmpegCodes.eof || r == FFmpegCodes.again { break }
            try check(r, "avcodec_receive_packet(png)", kind: .unavailable)
            if let data = pkt.pointee.data {
                bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(pkt.pointee.size)))
            }
            av_packet_unref(pkt)
        }
        return bytes
    }
}
