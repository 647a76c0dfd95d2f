import CFFmpeg
import Foundation

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
    public static let maximumBytes = 64 << 20

    /// Decodes the PNG at `path`.
    public static func readPNG(_ path: String) throws(MediaError) -> RGBA {
        _ = configureLogging
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw MediaError(kind: .cannotOpen, operation: "stat", message: "\(path): no such file")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw MediaError(kind: .cannotOpen, operation: "stat", message: "\(path): is not a regular file")
        }
        guard status.st_size > 0, status.st_size <= ImageFile.maximumBytes else {
            throw MediaError(kind: .invalidData, operation: "stat", message: "\(path): is \(status.st_size == 0 ? "empty" : "too large for a sprite template")")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MediaError(kind: .cannotOpen, operation: "read", message: "\(path): permission denied")
        }
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
            throw MediaError(kind: .invalidData, operation: "png", message: "\(path): is not a PNG image")
        }
        guard let decoder = avcodec_find_decoder(AV_CODEC_ID_PNG) else {
            throw MediaError(kind: .unavailable, operation: "avcodec_find_decoder", message: "this FFmpeg build has no PNG decoder")
        }
        var context = avcodec_alloc_context3(decoder)
        defer { avcodec_free_context(&context) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        let ctx = try allocated(context, "avcodec_alloc_context3")
        let pkt = try allocated(packet, "av_packet_alloc")
        let frm = try allocated(frame, "av_frame_alloc")
        ctx.pointee.thread_count = 1
        try check(avcodec_open2(ctx, decoder, nil), "avcodec_open2(png)")
        try check(av_new_packet(pkt, Int32(data.count)), "av_new_packet", kind: .unavailable)
        data.withUnsafeBytes { raw in
            if let base = raw.bindMemory(to: UInt8.self).baseAddress { pkt.pointee.data.update(from: base, count: data.count) }
        }
        let sent = avcodec_send_packet(ctx, pkt)
        if sent < 0 {
            throw MediaError(kind: .invalidData, operation: "avcodec_send_packet(png)", code: sent, message: "\(path): not a readable PNG (\(ffmpegErrorText(sent)))")
        }
        let received = avcodec_receive_frame(ctx, frm)
        if received < 0 {
            throw MediaError(kind: .invalidData, operation: "avcodec_receive_frame(png)", code: received, message: "\(path): not a readable PNG (\(ffmpegErrorText(received)))")
        }
        let width = Int(frm.pointee.width), height = Int(frm.pointee.height)
        guard width > 0, height > 0, width <= 8192, height <= 8192 else {
            throw MediaError(kind: .invalidData, operation: "png", message: "\(path): image size \(width)x\(height) is not a sprite template")
        }
        let source = AVPixelFormat(rawValue: frm.pointee.format)
        var hasAlpha = false
        if let descriptor = av_pix_fmt_desc_get(source) {
            hasAlpha = descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        }
        guard let sws = sws_getContext(Int32(width), Int32(height), source, Int32(width), Int32(height), AV_PIX_FMT_RGBA,
                                       SWS_POINT, nil, nil, nil) else {
            throw MediaError(kind: .invalidData, operation: "sws_getContext", message: "\(path): unsupported PNG pixel format")
        }
        defer { sws_freeContext(sws) }
        let stride = (width * 4 + 63) & ~63
        var padded = [UInt8](repeating: 0, count: stride * height + 64)
        let scaled: Int32 = padded.withUnsafeMutableBufferPointer { dst in
            var planes: [UnsafeMutablePointer<UInt8>?] = [dst.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(stride), 0, 0, 0]
            return frm.withSourcePlanes { src, srcStrides in
                sws_scale(sws, src, srcStrides, 0, Int32(height), &planes, &strides)
            }
        }
        if scaled < 0 {
            throw MediaError(kind: .invalidData, operation: "sws_scale", code: scaled, message: "\(path): cannot convert the PNG")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            pixels.replaceSubrange((y * width * 4)..<((y + 1) * width * 4), with: padded[(y * stride)..<(y * stride + width * 4)])
        }
        return RGBA(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }
}
