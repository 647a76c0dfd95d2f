import CFFmpeg
import Foundation
import RecordingAnalysis

/// Encodes RGB images with libavcodec and muxes them with libavformat, with explicit per-frame pts
/// in a chosen time base: what the sample maker and `cfr --output` need.
///
/// Writes to a temporary file and renames it into place in `finish()`, so an error never leaves a
/// partial file; the temporary file is removed if the writer is dropped unfinished.
public final class VideoWriter {
    /// Video codecs the writer can use, by preference.
    public enum Codec: String, Sendable {
        case h264, hevc, mpeg4

        var encoderNames: [String] {
            switch self {
            case .h264: return ["libx264"]
            case .hevc: return ["libx265"]
            case .mpeg4: return ["mpeg4"]
            }
        }
    }

    /// What to write.
    /// Colour tags (FFmpeg's AVCOL_* values; 2 is "unspecified"). The RGB frames are converted to
    /// YUV with this matrix and range, and the stream is tagged with all four, so a copy of a BT.709
    /// capture is still BT.709.
    public struct Colorimetry: Sendable, Equatable {
        public var space: Int32 = 2
        public var range: Int32 = 0
        public var primaries: Int32 = 2
        public var transfer: Int32 = 2
        public init(space: Int32 = 2, range: Int32 = 0, primaries: Int32 = 2, transfer: Int32 = 2) {
            self.space = space
            self.range = range
            self.primaries = primaries
            self.transfer = transfer
        }
    }

    public struct Settings: Sendable {
        public var codec: Codec
        public var width: Int
        public var height: Int
        /// Time base of the pts passed to `append`; also the track's time scale.
        public var timeBase: Rational
        /// Nominal frame rate, a hint for the encoder's rate control.
        public var frameRate: Rational
        /// Maximum consecutive B-frames (0: none).
        public var bFrames: Int = 0
        /// Constant rate factor for x264/x265 (lower is better quality), or qscale for mpeg4.
        public var quality: Int = 28
        /// Key frame interval in frames.
        public var gopSize: Int = 60
        /// `creation_time` metadata, if any.
        public var creationTime: String?
        /// Container format name for libavformat (`mov`, `mp4`).
        public var container: String = "mov"
        /// Encoder threads; 1 gives the same bytes on every machine, 0 lets the encoder choose.
        public var threads: Int = 1
        /// Colour tags of the output (default: untagged, BT.601 limited range, as before).
        public var colorimetry = Colorimetry()

        public init(
            codec: Codec, width: Int, height: Int, timeBase: Rational, frameRate: Rational,
            bFrames: Int = 0, quality: Int = 28, gopSize: Int = 60, creationTime: String? = nil, container: String = "mov",
            threads: Int = 1
        ) {
            self.codec = codec
            self.width = width
            self.height = height
            self.timeBase = timeBase
            self.frameRate = frameRate
            self.bFrames = bFrames
            self.quality = quality
            self.gopSize = gopSize
            self.creationTime = creationTime
            self.container = container
            self.threads = threads
        }
    }

    /// Whether this FFmpeg build has an encoder for `codec`.
    public static func isAvailable(_ codec: Codec) -> Bool {
        codec.encoderNames.contains { avcodec_find_encoder_by_name($0) != nil }
    }

    /// Rewrites a packet's timestamps before muxing: `(index in muxing order, pts, dts) -> (pts, dts)`.
    /// Used to make captures whose pts run backwards, as broken recorders do.
    public typealias TimestampRewrite = @Sendable (Int, Int64, Int64) -> (pts: Int64, dts: Int64)

    private let path: String
    private let temporaryPath: String
    private var temporarySlot: Int?
    /// The scaler the output's colorimetry was set on (a new one needs it again).
    private var colorimetryScaler: OpaquePointer?
    private let settings: Settings
    private let rewrite: TimestampRewrite?
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    /// Converts decoded pictures that are not already the encoder's format (`append(picture:…)`).
    private var pictureScaler: OpaquePointer?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var ioOpen = false
    private var finished = false
    private var durations: [Int64: Int64] = [:]
    private var packetsWritten = 0

    /// Opens `path` for writing (through a temporary file beside it).
    public init(path: String, settings: Settings, rewrite: TimestampRewrite? = nil, preset: String = "medium") throws(MediaError) {
        _ = configureLogging
        self.path = path
        self.settings = settings
        self.rewrite = rewrite
        let directory = (path as NSString).deletingLastPathComponent
        temporaryPath = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).partial-\(getpid())"

        guard settings.width > 0, settings.height > 0, settings.width % 2 == 0, settings.height % 2 == 0 else {
            throw MediaError(
                kind: .invalidData, operation: "VideoWriter",
                message: "cannot encode \(settings.width)x\(settings.height): dimensions must be even and positive")
        }
        let fitsC = { (v: Int64) in v > 0 && v <= Int64(Int32.max) }
        guard settings.width <= RecordingReader.maximumDimension, settings.height <= RecordingReader.maximumDimension,
            fitsC(settings.timeBase.numerator), fitsC(settings.timeBase.denominator),
            fitsC(settings.frameRate.numerator), fitsC(settings.frameRate.denominator),
            (0...Int(Int32.max)).contains(settings.gopSize), (0...16).contains(settings.bFrames)
        else {
            throw MediaError(
                kind: .invalidData, operation: "VideoWriter",
                message:
                    "cannot encode \(settings.width)x\(settings.height) at \(settings.frameRate) fps in time base \(settings.timeBase): out of the encoder's range"
            )
        }
        guard let encoder = settings.codec.encoderNames.lazy.compactMap({ avcodec_find_encoder_by_name($0) }).first else {
            throw MediaError(
                kind: .unavailable, operation: "avcodec_find_encoder_by_name",
                message:
                    "this FFmpeg build has no \(settings.codec.rawValue) encoder (\(settings.codec.encoderNames.joined(separator: ", ")))")
        }

        temporarySlot = TemporaryFiles.add(temporaryPath)
        var fmt: UnsafeMutablePointer<AVFormatContext>?
        try check(
            avformat_alloc_output_context2(&fmt, nil, settings.container, temporaryPath), "avformat_alloc_output_context2",
            kind: .cannotCreate)
        formatContext = fmt
        guard let fmt else {
            throw MediaError(kind: .cannotCreate, operation: "avformat_alloc_output_context2", message: "no output context")
        }
        fmt.pointee.flags |= AVFMT_FLAG_BITEXACT

        let codec = try allocated(avcodec_alloc_context3(encoder), "avcodec_alloc_context3")
        codecContext = codec
        codec.pointee.width = Int32(settings.width)
        codec.pointee.height = Int32(settings.height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.colorspace = AVColorSpace(rawValue: UInt32(bitPattern: settings.colorimetry.space))
        codec.pointee.color_range = AVColorRange(rawValue: UInt32(bitPattern: settings.colorimetry.range))
        codec.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(bitPattern: settings.colorimetry.primaries))
        codec.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(bitPattern: settings.colorimetry.transfer))
        codec.pointee.time_base = AVRational(num: Int32(settings.timeBase.numerator), den: Int32(settings.timeBase.denominator))
        codec.pointee.framerate = AVRational(num: Int32(settings.frameRate.numerator), den: Int32(settings.frameRate.denominator))
        codec.pointee.gop_size = Int32(settings.gopSize)
        codec.pointee.max_b_frames = Int32(settings.bFrames)
        codec.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        // One thread (the default) gives the same bytes on every machine, whatever its core count.
        codec.pointee.thread_count = Int32(clamping: max(0, settings.threads))
        if fmt.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        switch settings.codec {
        case .h264:
            av_dict_set(&options, "crf", String(settings.quality), 0)
            av_dict_set(&options, "preset", preset, 0)
            av_dict_set(
                &options, "x264-params",
                settings.threads == 1
                    ? "bframes=\(settings.bFrames):threads=1:sliced-threads=0:lookahead-threads=1" : "bframes=\(settings.bFrames)", 0)
        case .hevc:
            av_dict_set(&options, "crf", String(settings.quality), 0)
            av_dict_set(&options, "preset", preset, 0)
            av_dict_set(
                &options, "x265-params",
                settings.threads == 1
                    ? "bframes=\(settings.bFrames):pools=none:frame-threads=1:log-level=error"
                    : "bframes=\(settings.bFrames):log-level=error", 0)
            av_dict_set(&options, "tag", "hvc1", 0)
        case .mpeg4:
            codec.pointee.flags |= AV_CODEC_FLAG_QSCALE
            codec.pointee.global_quality = Int32(FF_QP2LAMBDA) * Int32(max(1, min(31, settings.quality / 4)))
        }
        try check(avcodec_open2(codec, encoder, &options), "avcodec_open2(\(settings.codec.rawValue))", kind: .unavailable)

        let st = try allocated(avformat_new_stream(fmt, nil), "avformat_new_stream")
        stream = st
        try check(avcodec_parameters_from_context(st.pointee.codecpar, codec), "avcodec_parameters_from_context", kind: .cannotCreate)
        st.pointee.time_base = codec.pointee.time_base
        if settings.codec == .hevc {
            st.pointee.codecpar.pointee.codec_tag =
                UInt32(UInt8(ascii: "h")) | UInt32(UInt8(ascii: "v")) << 8
                | UInt32(UInt8(ascii: "c")) << 16 | UInt32(UInt8(ascii: "1")) << 24
        }
        if let created = settings.creationTime {
            av_dict_set(&fmt.pointee.metadata, "creation_time", created, 0)
        }

        // Only ever a local file, whatever the name looks like: `file:` makes `http://…` or
        // `results:v2/x.mov` a path, and the whitelist forbids any other protocol.
        var ioOptions: OpaquePointer?
        defer { av_dict_free(&ioOptions) }
        av_dict_set(&ioOptions, "protocol_whitelist", "file", 0)
        let ioResult = avio_open2(&fmt.pointee.pb, "file:" + temporaryPath, AVIO_FLAG_WRITE, nil, &ioOptions)
        if ioResult < 0 {
            throw MediaError(
                kind: .cannotCreate, operation: "avio_open", code: ioResult,
                message: "\(path): cannot write: \(OutputFile.reason(for: path))")
        }
        ioOpen = true
        var muxOptions: OpaquePointer?
        defer { av_dict_free(&muxOptions) }
        // Without this the mov muxer multiplies small time scales up past 10000.
        av_dict_set(&muxOptions, "video_track_timescale", String(settings.timeBase.denominator), 0)
        try check(avformat_write_header(fmt, &muxOptions), "avformat_write_header", kind: .cannotCreate)

        let f = try allocated(av_frame_alloc(), "av_frame_alloc")
        frame = f
        f.pointee.width = Int32(settings.width)
        f.pointee.height = Int32(settings.height)
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer", kind: .unavailable)
        packet = try allocated(av_packet_alloc(), "av_packet_alloc")
    }

    deinit {
        sws_freeContext(scaler)
        sws_freeContext(pictureScaler)
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        if let fmt = formatContext {
            if ioOpen { avio_closep(&fmt.pointee.pb) }
            avformat_free_context(fmt)
        }
        if !finished { unlink(temporaryPath) }
        TemporaryFiles.remove(temporarySlot)
    }

    /// Encodes `image` (RGB24, the writer's size) with presentation time `pts` and duration
    /// `duration`, both in `settings.timeBase`.
    public func append(_ image: RGBImage, pts: Int64, duration: Int64) throws(MediaError) {
        guard let codec = codecContext, let frame else { return }
        guard image.width == settings.width, image.height == settings.height else {
            throw MediaError(
                kind: .invalidData, operation: "VideoWriter.append",
                message: "image is \(image.width)x\(image.height), writer is \(settings.width)x\(settings.height)")
        }
        try check(av_frame_make_writable(frame), "av_frame_make_writable", kind: .unavailable)
        scaler = sws_getCachedContext(
            scaler, Int32(image.width), Int32(image.height), AV_PIX_FMT_RGB24,
            Int32(settings.width), Int32(settings.height), AV_PIX_FMT_YUV420P,
            SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT, nil, nil, nil)
        guard let scaler else {
            throw MediaError(kind: .unavailable, operation: "sws_getCachedContext", message: "cannot convert RGB to YUV")
        }
        if scaler != colorimetryScaler {
            VideoWriter.useColorimetry(settings.colorimetry, on: scaler)
            colorimetryScaler = scaler
        }
        image.pixels.withUnsafeBufferPointer { src in
            var srcPlanes: [UnsafePointer<UInt8>?] = [src.baseAddress, nil, nil, nil]
            var srcStrides: [Int32] = [Int32(image.width * 3), 0, 0, 0]
            _ = frame.withDestinationPlanes { dst, dstStrides in
                sws_scale(scaler, &srcPlanes, &srcStrides, 0, Int32(image.height), dst, dstStrides)
            }
        }
        try send(frame, to: codec, pts: pts, duration: duration)
    }

    /// Encodes a decoded picture (the writer's size or any other) with presentation time `pts` and
    /// duration `duration`: copied as it is when it is already the encoder's format (8-bit 4:2:0) at
    /// the writer's size and range, otherwise converted by libswscale straight to it (its own matrix,
    /// the writer's range): no round trip through RGB, as the ffmpeg CLI feeds its encoder.
    func append(picture source: UnsafeMutablePointer<AVFrame>, pts: Int64, duration: Int64) throws(MediaError) {
        guard let codec = codecContext, let frame else { return }
        try check(av_frame_make_writable(frame), "av_frame_make_writable", kind: .unavailable)
        let format = source.pointee.format
        let outputFull = settings.colorimetry.range == Int32(AVCOL_RANGE_JPEG.rawValue)
        if format == AV_PIX_FMT_YUV420P.rawValue, source.pointee.width == Int32(settings.width),
            source.pointee.height == Int32(settings.height),
            FrameScaler.isFullRange(source) == outputFull
        {
            try check(av_frame_copy(frame, source), "av_frame_copy", kind: .unavailable)
        } else {
            pictureScaler = sws_getCachedContext(
                pictureScaler, source.pointee.width, source.pointee.height, AVPixelFormat(rawValue: format),
                Int32(settings.width), Int32(settings.height), AV_PIX_FMT_YUV420P,
                SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT, nil, nil, nil)
            guard let pictureScaler else {
                throw MediaError(
                    kind: .unavailable, operation: "sws_getCachedContext",
                    message: "cannot convert \(source.pointee.width)x\(source.pointee.height) frames of this pixel format to YUV")
            }
            VideoWriter.keepMatrix(of: source, range: outputFull, on: pictureScaler)
            let scaled = source.withSourcePlanes { srcPlanes, srcStrides in
                frame.withDestinationPlanes { dst, dstStrides in
                    sws_scale(pictureScaler, srcPlanes, srcStrides, 0, source.pointee.height, dst, dstStrides)
                }
            }
            if scaled < 0 {
                throw MediaError(kind: .invalidData, operation: "sws_scale", code: scaled, message: ffmpegErrorText(scaled))
            }
        }
        try send(frame, to: codec, pts: pts, duration: duration)
    }

    /// Encodes the writer's frame, filled, at `pts` for `duration`, and writes what comes out.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>, to codec: UnsafeMutablePointer<AVCodecContext>, pts: Int64, duration: Int64)
        throws(MediaError)
    {
        frame.pointee.pts = pts
        frame.pointee.pkt_duration = duration
        durations[pts] = duration
        try check(avcodec_send_frame(codec, frame), "avcodec_send_frame", kind: .unavailable)
        try drain()
    }

    /// YUV to YUV: the source's own matrix on both sides (`FrameScaler.coefficients`), its range in,
    /// the output's range out; the tags the writer was given are the source's.
    static func keepMatrix(of source: UnsafeMutablePointer<AVFrame>, range outputFull: Bool, on scaler: OpaquePointer) {
        var invTable: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var srcRange: Int32 = 0, dstRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(scaler, &invTable, &srcRange, &table, &dstRange, &brightness, &contrast, &saturation) >= 0,
            let coefficients = FrameScaler.coefficients(forColorSpace: Int32(source.pointee.colorspace.rawValue))
        else { return }
        srcRange = FrameScaler.isFullRange(source) ? 1 : 0
        dstRange = outputFull ? 1 : 0
        _ = sws_setColorspaceDetails(scaler, coefficients, srcRange, coefficients, dstRange, brightness, contrast, saturation)
    }

    /// RGB (full range) to YUV with the output's matrix and range, the inverse of how the frames
    /// were decoded (see `FrameScaler.useFrameColorimetry`).
    static func useColorimetry(_ c: Colorimetry, on scaler: OpaquePointer) {
        var invTable: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var srcRange: Int32 = 0, dstRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(scaler, &invTable, &srcRange, &table, &dstRange, &brightness, &contrast, &saturation) >= 0 else {
            return
        }
        guard let coefficients = FrameScaler.coefficients(forColorSpace: c.space) else { return }
        dstRange = c.range == Int32(AVCOL_RANGE_JPEG.rawValue) ? 1 : 0
        _ = sws_setColorspaceDetails(scaler, invTable, srcRange, coefficients, dstRange, brightness, contrast, saturation)
    }

    /// Flushes the encoder, writes the index and moves the file into place.
    public func finish() throws(MediaError) {
        guard !finished, let codec = codecContext, let fmt = formatContext else { return }
        try check(avcodec_send_frame(codec, nil), "avcodec_send_frame(flush)", kind: .unavailable)
        try drain()
        try check(av_write_trailer(fmt), "av_write_trailer", kind: .cannotCreate)
        avio_closep(&fmt.pointee.pb)
        ioOpen = false
        finished = true
        defer {
            TemporaryFiles.remove(temporarySlot)
            temporarySlot = nil
        }
        try OutputFile.moveIntoPlace(temporaryPath, to: path)
    }

    private func drain() throws(MediaError) {
        guard let codec = codecContext, let packet, let fmt = formatContext, let stream else { return }
        while true {
            let r = avcodec_receive_packet(codec, packet)
            if r == FFmpegCodes.again || r == FFmpegCodes.eof { return }
            try check(r, "avcodec_receive_packet", kind: .unavailable)
            if packet.pointee.duration == 0, let d = durations[packet.pointee.pts] { packet.pointee.duration = d }
            durations[packet.pointee.pts] = nil
            if let rewrite {
                let edited = rewrite(packetsWritten, packet.pointee.pts, packet.pointee.dts)
                packet.pointee.pts = edited.pts
                packet.pointee.dts = edited.dts
            }
            packetsWritten += 1
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let w = av_interleaved_write_frame(fmt, packet)
            av_packet_unref(packet)
            if w < 0 {
                throw MediaError(
                    kind: .cannotCreate, operation: "av_interleaved_write_frame", code: w,
                    message: "\(path): cannot write: \(ffmpegErrorText(w))")
            }
        }
    }
}
