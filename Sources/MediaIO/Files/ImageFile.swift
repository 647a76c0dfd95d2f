import CFFmpeg
import Foundation
import RecordingAnalysis

/// Reads still images (sprite templates) with libavcodec's PNG decoder.
public enum ImageFile {
    /// A decoded image as straight-alpha RGBA bytes.
    public struct RGBA: Sendable {
        public var width: Int
        public var height: Int
        public var pixels: [UInt8]
        /// Whether the file had an alpha channel (otherwise alpha is 255 everywhere).
        public var hasAlpha: Bool
    }

    /// Largest PNG read, in bytes: templates are small sprites.
    public static let maximumBytes = Limits.templateBytes

    /// Decodes the PNG at `path`.
    public static func readPNG(_ path: String) throws(MediaError) -> RGBA {
        _ = configureLogging
        let size = try InputFile.checkReadable(path, what: "a PNG image")
        guard size > 0, size <= Int64(ImageFile.maximumBytes) else {
            throw MediaError(
                kind: .invalidData, operation: "stat", message: "\(path): is \(size == 0 ? "empty" : "too large for a sprite template")")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MediaError(kind: .cannotOpen, operation: "read", message: "\(path): permission denied")
        }
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
            throw MediaError(kind: .invalidData, operation: "png", message: "\(path): is not a PNG image")
        }
        // The header's size, checked before decoding: a small file can claim 16000x16000 and cost
        // gigabytes and seconds to decode before its size could be checked afterwards.
        let header = [UInt8](data.prefix(24))
        guard header.count == 24, Array(header[12..<16]) == Array("IHDR".utf8) else {
            throw MediaError(kind: .invalidData, operation: "png", message: "\(path): is not a PNG image (no IHDR header)")
        }
        let claimedWidth = header[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let claimedHeight = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        guard claimedWidth > 0, claimedHeight > 0, claimedWidth <= Limits.templateDimension, claimedHeight <= Limits.templateDimension
        else {
            throw MediaError(
                kind: .invalidData, operation: "png",
                message:
                    "\(path): image size \(claimedWidth)x\(claimedHeight) is not a sprite template (at most \(Limits.templateDimension) px a side)"
            )
        }
        guard let decoder = avcodec_find_decoder(AV_CODEC_ID_PNG) else {
            throw MediaError(kind: .unavailable, operation: "avcodec_find_decoder", message: "this FFmpeg build has no PNG decoder")
        }
        let context = try OwnedCodecContext(decoder)
        let packet = try OwnedPacket()
        let frame = try OwnedFrame()
        let ctx = context.pointer
        let pkt = packet.pointer
        let frm = frame.pointer
        // The owners must outlive every use of their raw pointers below, not just their last mention.
        defer { withExtendedLifetime((context, frame, packet)) {} }
        ctx.pointee.thread_count = 1
        ctx.pointee.max_pixels = Int64(Limits.templateDimension) * Int64(Limits.templateDimension)
        try check(avcodec_open2(ctx, decoder, nil), "avcodec_open2(png)")
        try check(av_new_packet(pkt, Int32(data.count)), "av_new_packet", kind: .unavailable)
        data.withUnsafeBytes { raw in
            if let base = raw.bindMemory(to: UInt8.self).baseAddress { pkt.pointee.data.update(from: base, count: data.count) }
        }
        let sent = avcodec_send_packet(ctx, pkt)
        if sent < 0 {
            throw MediaError(
                kind: .invalidData, operation: "avcodec_send_packet(png)", code: sent,
                message: "\(path): not a readable PNG (\(ffmpegErrorText(sent)))")
        }
        let received = avcodec_receive_frame(ctx, frm)
        if received < 0 {
            throw MediaError(
                kind: .invalidData, operation: "avcodec_receive_frame(png)", code: received,
                message: "\(path): not a readable PNG (\(ffmpegErrorText(received)))")
        }
        let width = Int(frm.pointee.width), height = Int(frm.pointee.height)
        guard width > 0, height > 0, width <= Limits.templateDimension, height <= Limits.templateDimension else {
            throw MediaError(
                kind: .invalidData, operation: "png", message: "\(path): image size \(width)x\(height) is not a sprite template")
        }
        let source = AVPixelFormat(rawValue: frm.pointee.format)
        var hasAlpha = false
        if let descriptor = av_pix_fmt_desc_get(source) {
            hasAlpha = descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        }
        let pixels = try FrameScaler().rgba(frm, width: width, height: height)
        return RGBA(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }
}
