import CFFmpeg
import Foundation
import RecordingAnalysis

/// Options for decoding a recording's video stream.
public struct DecodeOptions: Sendable {
    /// Decoder threads; 0 lets libavcodec choose (frame and slice threads).
    public var threads: Int = 0
    /// Skip the in-loop deblocking filter: faster, slightly softer pixels. Timing is unaffected.
    public var skipLoopFilter: Bool = false

    public init(threads: Int = 0, skipLoopFilter: Bool = false) {
        self.threads = threads
        self.skipLoopFilter = skipLoopFilter
    }
}

/// What a full pass over the video stream saw besides the frames themselves.
public struct DecodeSummary: Sendable {
    /// Packets of the video stream in decode order.
    public var packets: Int = 0
    /// Frames the decoder produced.
    public var frames: Int = 0
    /// Packets the demuxer marked to be decoded but not shown (outside the edit list): no frame
    /// comes of them, by design.
    public var discardedPackets: Int = 0
    /// Packets the decoder rejected (corrupted data inside an otherwise readable file).
    public var corruptPackets: Int = 0
    /// Set when demuxing stopped early on an error other than end of file.
    public var readError: String?
    /// Error-level messages FFmpeg logged while reading the header and decoding: how many, and the first few.
    public var ffmpegErrors = 0
    public var ffmpegMessages: [String] = []
}

/// Thrown from a `decode` callback to stop decoding early; `decode` then returns normally.
public struct StopDecoding: Error {
    public init() {}
}

/// An open recording: the demuxer and the video decoder of one file.
///
/// Opens only the file it was given, as a real recording container: the `file` protocol alone and a
/// whitelist of recording demuxers, so a playlist or concat script cannot make it read other files
/// or reach a network. Every C object is owned here and freed exactly once in `deinit`.
public final class RecordingReader {
    /// Demuxers a recording may use: QuickTime/MP4 family, Matroska/WebM.
    public static let allowedFormats = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm"
    /// Largest width or height accepted; simulator captures are at most a few thousand pixels.
    public static let maximumDimension = Limits.videoDimension

    /// Container and stream facts.
    public private(set) var info: RecordingInfo
    /// The stream's colour tags, carried over to a constant-rate copy.
    public private(set) var colorimetry = VideoWriter.Colorimetry()

    /// The recording, opened once and checked; FFmpeg reads it through `/dev/fd`, never by its name again.
    private let descriptor: OwnedDescriptor
    private let format: OwnedFormatContext
    private let codec: OwnedCodecContext
    private let packet: OwnedPacket
    private let frame: OwnedFrame
    /// The frame output before the one being handed out (a new reference to its picture), for
    /// `VideoFrame.repeatsPrevious`.
    private let previousOutput: OwnedFrame
    private var hasPreviousOutput = false
    private let streamIndex: Int32
    /// Error-level messages FFmpeg logged while reading the header (a broken index, an invalid time
    /// scale it replaced with a guess): part of every pass's count, since what follows rests on them.
    private let openLog: (count: Int, messages: [String])
    private let timeBase: Rational
    private let scaler = FrameScaler()
    private var consumed = false

    /// Opens `path` and prepares its first video stream for decoding.
    public init(path: String, options: DecodeOptions = DecodeOptions()) throws(MediaError) {
        _ = configureLogging
        // Every C object below has an owner that frees it once, also when init throws half-way.
        let (fd, size) = try InputFile.openChecked(path, what: "a recording")
        descriptor = OwnedDescriptor(fd)
        guard size > 0 else {
            throw MediaError(kind: .invalidData, operation: "stat", message: "\(path): is empty (0 bytes), not a recording")
        }
        // FFmpeg opens the descriptor checked above (on Linux /dev/fd/N reopens that very file, on macOS
        // it duplicates the descriptor), through the file protocol only: the name is never looked up again.
        let logBefore = FFmpegLog.shared.snapshot
        format = try OwnedFormatContext(
            opening: "file:/dev/fd/\(fd)",
            options: [("protocol_whitelist", "file"), ("format_whitelist", RecordingReader.allowedFormats)],
            failure: { RecordingReader.explainOpenFailure(path: path, code: $0) })
        let fmt = format.pointer

        let infoResult = avformat_find_stream_info(fmt, nil)
        if infoResult < 0 {
            throw MediaError(
                kind: .invalidData, operation: "avformat_find_stream_info", code: infoResult,
                message: "\(path): cannot read stream information: \(ffmpegErrorText(infoResult))")
        }
        let logAfter = FFmpegLog.shared.snapshot
        openLog = (logAfter.count - logBefore.count, logAfter.messages.filter { !logBefore.messages.contains($0) })
        var decoder: UnsafePointer<AVCodec>?
        let best = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        if best < 0 {
            throw MediaError(
                kind: .invalidData, operation: "av_find_best_stream", code: best,
                message: best == cff_error_decoder_not_found()
                    ? "\(path): no decoder for the video stream's codec in this FFmpeg build"
                    : "\(path): has no video stream")
        }
        guard let stream = fmt.pointee.streams[Int(best)], let parameters = stream.pointee.codecpar, let decoder else {
            throw MediaError(kind: .invalidData, operation: "av_find_best_stream", message: "\(path): has no video stream")
        }
        for i in 0..<Int(fmt.pointee.nb_streams) where i != Int(best) {
            fmt.pointee.streams[i]?.pointee.discard = AVDISCARD_ALL
        }

        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width > 0, height > 0, width <= RecordingReader.maximumDimension, height <= RecordingReader.maximumDimension else {
            throw MediaError(
                kind: .invalidData, operation: "codec parameters",
                message: "\(path): video dimensions \(width)x\(height) are outside 1…\(RecordingReader.maximumDimension)")
        }
        guard width * height <= Limits.pixelsPerFrame else {
            throw MediaError(
                kind: .invalidData, operation: "codec parameters",
                message: "\(path): \(width)x\(height) frames (" + String(format: "%.1f", Double(width * height) / 1e6)
                    + " M pixels) are beyond the " + String(format: "%.1f", Double(Limits.pixelsPerFrame) / 1e6)
                    + " M pixels a frame this tool decodes")
        }
        let tb = stream.pointee.time_base
        guard tb.num > 0, tb.den > 0 else {
            throw MediaError(
                kind: .invalidData, operation: "stream time base",
                message: "\(path): invalid stream time base \(tb.num)/\(tb.den)")
        }

        colorimetry = VideoWriter.Colorimetry(
            space: Int32(parameters.pointee.color_space.rawValue),
            range: Int32(parameters.pointee.color_range.rawValue),
            primaries: Int32(parameters.pointee.color_primaries.rawValue),
            transfer: Int32(parameters.pointee.color_trc.rawValue))
        self.codec = try OwnedCodecContext(decoder)
        let codec = self.codec.pointer
        try check(avcodec_parameters_to_context(codec, parameters), "avcodec_parameters_to_context")
        codec.pointee.pkt_timebase = tb
        codec.pointee.max_pixels = Int64(Limits.pixelsPerFrame)
        codec.pointee.thread_count = Int32(clamping: max(0, options.threads))
        codec.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        if options.skipLoopFilter { codec.pointee.skip_loop_filter = AVDISCARD_ALL }
        let openCodec = avcodec_open2(codec, decoder, nil)
        if openCodec < 0 {
            throw MediaError(
                kind: .invalidData, operation: "avcodec_open2", code: openCodec,
                message:
                    "\(path): cannot open the \(String(cString: avcodec_get_name(parameters.pointee.codec_id))) decoder: \(ffmpegErrorText(openCodec))"
            )
        }
        packet = try OwnedPacket()
        frame = try OwnedFrame()
        previousOutput = try OwnedFrame()

        streamIndex = best
        timeBase = Rational(Int64(tb.num), Int64(tb.den))
        info = RecordingReader.describe(path: path, format: fmt, stream: stream, parameters: parameters, timeBase: timeBase)
        info.display = DisplayTransform(displayMatrix: RecordingReader.displayMatrix(of: stream))
        if RecordingReader.enforcesWorkLimit, let work = info.estimatedDecodePixels, work > Limits.decodeWorkPixels {
            let frames = work / Int64(width * height)
            throw MediaError(
                kind: .invalidData, operation: "decode budget",
                message:
                    "\(path): asks for \(frames) frames of \(width)x\(height) (\(work / 1_000_000_000) G pixels, hours of decoding); the limit is \(Limits.decodeWorkPixels / 1_000_000_000) G pixels (--no-work-limit lifts it)"
            )
        }
        if info.format.hasPrefix("mov") { info.editList = RecordingReader.videoEditList("/dev/fd/\(fd)") }
    }

    /// Whether a capture whose header promises more than `Limits.decodeWorkPixels` is refused before
    /// decoding (the CLI's `--no-work-limit` turns this off for the run).
    nonisolated(unsafe) public static var enforcesWorkLimit = true

    /// Demuxes and decodes the whole video stream once, in the order of FFmpeg's
    /// `doc/examples/demux_decode.c`: read a packet, send it, receive every frame it completes,
    /// and finally drain the decoder with a null packet.
    ///
    /// - Parameters:
    ///   - onPacket: every video packet in decode order, before it is decoded.
    ///   - onFrame: every decoded frame in output order. The frame is valid only during the call.
    ///     Throw `StopDecoding` from either callback to stop early.
    ///   - skipsUnreferenced: asked before each packet is decoded; true leaves its picture undecoded
    ///     if no other picture refers to it (`AVDISCARD_NONREF`: no frame comes out for it, and every
    ///     other frame is decoded exactly as without it).
    /// - Returns: counts and the read error, if demuxing stopped early.
    @discardableResult
    public func decode(
        onPacket: (PacketTiming) throws -> Void = { _ in },
        skipsUnreferenced: (PacketTiming) -> Bool = { _ in false },
        onFrame: (VideoFrame) throws -> Void
    ) throws -> DecodeSummary {
        guard !consumed else {
            throw MediaError(kind: .invalidData, operation: "decode", message: "\(info.path): a reader decodes its recording only once")
        }
        consumed = true
        return try withErrorLog {
            try decodePackets(
                fmt: format.pointer, codec: codec.pointer, packet: packet.pointer, frame: frame.pointer, onPacket: onPacket,
                skipsUnreferenced: skipsUnreferenced, onFrame: onFrame)
        }
    }

    /// Bytes of one decoded picture in the stream's pixel format (nil when the format is unknown).
    public var pictureBytes: Int? {
        let size = av_image_get_buffer_size(codec.pointer.pointee.pix_fmt, codec.pointer.pointee.width, codec.pointer.pointee.height, 1)
        return size > 0 ? Int(size) : nil
    }

    /// Positions the demuxer at `point`'s key packet (or an earlier one) for the `decode` that
    /// follows; false when this reader has decoded already or the demuxer cannot seek. Which packet
    /// it landed on is for the caller to check on the first one decoded (`SeekPoint.frameNames`).
    public func seek(to point: SeekPoint) -> Bool {
        guard !consumed else { return false }
        // The first packet is where a reader starts.
        if point.packetIndex == 0 { return true }
        guard let timestamp = point.seekTimestamp else { return false }
        return av_seek_frame(format.pointer, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD) >= 0
    }

    /// Runs a pass over the file and adds the error-level messages FFmpeg logged meanwhile, and
    /// those it logged reading the header.
    private func withErrorLog(_ pass: () throws -> DecodeSummary) rethrows -> DecodeSummary {
        let before = FFmpegLog.shared.snapshot
        var summary = try pass()
        let after = FFmpegLog.shared.snapshot
        summary.ffmpegErrors = openLog.count + after.count - before.count
        summary.ffmpegMessages =
            openLog.messages + after.messages.filter { !before.messages.contains($0) && !openLog.messages.contains($0) }
        return summary
    }

    /// Reads every packet of the video stream in decode order and hands `body` its timing (the
    /// packet itself stays readable in `packet` during the call). Returns the read error that
    /// stopped it, nil at the end of the file.
    private func forEachVideoPacket(
        _ fmt: UnsafeMutablePointer<AVFormatContext>, _ packet: UnsafeMutablePointer<AVPacket>,
        _ body: (PacketTiming) throws -> Void
    ) throws -> String? {
        while true {
            let r = av_read_frame(fmt, packet)
            if r == FFmpegCodes.eof { return nil }
            if r < 0 { return ffmpegErrorText(r) }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let p = packet.pointee
            try body(
                PacketTiming(
                    pts: p.pts == FFmpegCodes.noPTS ? nil : p.pts, dts: p.dts == FFmpegCodes.noPTS ? nil : p.dts,
                    duration: p.duration, isKey: p.flags & AV_PKT_FLAG_KEY != 0,
                    isCorrupt: p.flags & AV_PKT_FLAG_CORRUPT != 0, isDiscarded: p.flags & AV_PKT_FLAG_DISCARD != 0))
        }
    }

    private func decodePackets(
        fmt: UnsafeMutablePointer<AVFormatContext>, codec: UnsafeMutablePointer<AVCodecContext>,
        packet: UnsafeMutablePointer<AVPacket>, frame: UnsafeMutablePointer<AVFrame>,
        onPacket: (PacketTiming) throws -> Void, skipsUnreferenced: (PacketTiming) -> Bool, onFrame: (VideoFrame) throws -> Void
    ) throws -> DecodeSummary {
        var summary = DecodeSummary()
        do {
            summary.readError = try forEachVideoPacket(fmt, packet) { packetTiming in
                summary.packets += 1
                if packetTiming.isDiscarded { summary.discardedPackets += 1 }
                var timing = packetTiming
                // Frame threads take the setting with the packet they are given.
                codec.pointee.skip_frame = skipsUnreferenced(packetTiming) ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
                let sent = avcodec_send_packet(codec, packet)
                if sent < 0 && sent != FFmpegCodes.again {
                    // A damaged packet inside a readable file: count it and keep going.
                    summary.corruptPackets += 1
                    timing.isCorrupt = true
                }
                try onPacket(timing)
                try receiveFrames(codec: codec, frame: frame, summary: &summary, onFrame: onFrame)
            }
            avcodec_send_packet(codec, nil)
            try receiveFrames(codec: codec, frame: frame, summary: &summary, onFrame: onFrame)
        } catch is StopDecoding {
            return summary
        }
        return summary
    }

    /// Demuxes the whole video stream once without decoding it. For H.264 and HEVC, libavcodec's
    /// parser reads each packet's slice header for its picture order count and key flag (what the
    /// decoder would output it by); for other codecs `onPacket` gets nil.
    @discardableResult
    public func readPackets(onPacket: (PacketTiming, PictureOrder?) throws -> Void) throws -> DecodeSummary {
        guard !consumed else {
            throw MediaError(kind: .invalidData, operation: "readPackets", message: "\(info.path): a reader reads its recording only once")
        }
        consumed = true
        let fmt = format.pointer, codec = self.codec.pointer, packet = self.packet.pointer
        let codecID = codec.pointee.codec_id
        let parser = codecID == AV_CODEC_ID_H264 || codecID == AV_CODEC_ID_HEVC ? av_parser_init(Int32(codecID.rawValue)) : nil
        defer { if parser != nil { av_parser_close(parser) } }
        parser?.pointee.flags |= PARSER_FLAG_COMPLETE_FRAMES
        let isH264 = codecID == AV_CODEC_ID_H264
        let lengthSize =
            isH264 && codec.pointee.extradata != nil && codec.pointee.extradata_size > 0
            ? H264AccessUnit.lengthSize(
                extradata: UnsafeRawBufferPointer(start: codec.pointee.extradata, count: Int(codec.pointee.extradata_size)))
            : nil
        return try withErrorLog {
            var summary = DecodeSummary()
            do {
                summary.readError = try forEachVideoPacket(fmt, packet) { timing in
                    summary.packets += 1
                    if timing.isDiscarded { summary.discardedPackets += 1 }
                    if timing.isCorrupt { summary.corruptPackets += 1 }
                    var order: PictureOrder?
                    if let parser {
                        let p = packet.pointee
                        var out: UnsafeMutablePointer<UInt8>?
                        var outSize: Int32 = 0
                        // The parser's fields describe the last picture it parsed; Int32.min marks "none".
                        parser.pointee.output_picture_number = Int32.min
                        av_parser_parse2(parser, codec, &out, &outSize, p.data, p.size, p.pts, p.dts, p.pos)
                        let count = parser.pointee.output_picture_number
                        if count != Int32.min {
                            // The parser calls a non-IDR H.264 I picture flagged a sync sample key; the
                            // decoder does not.
                            let isKey =
                                parser.pointee.key_frame == 1
                                && (!isH264
                                    || H264AccessUnit.containsIDRSlice(
                                        UnsafeRawBufferPointer(start: p.data, count: Int(max(0, p.size))), lengthSize: lengthSize))
                            order = PictureOrder(count: Int(count), isKey: isKey)
                        }
                    }
                    try onPacket(timing, order)
                }
            } catch is StopDecoding {
            }
            return summary
        }
    }

    /// Receives every frame the decoder has ready; EAGAIN and EOF end the loop, other errors count
    /// as a corrupt packet.
    private func receiveFrames(
        codec: UnsafeMutablePointer<AVCodecContext>, frame: UnsafeMutablePointer<AVFrame>,
        summary: inout DecodeSummary, onFrame: (VideoFrame) throws -> Void
    ) throws {
        while true {
            let r = avcodec_receive_frame(codec, frame)
            if r == FFmpegCodes.again || r == FFmpegCodes.eof { return }
            if r < 0 {
                summary.corruptPackets += 1
                return
            }
            defer {
                av_frame_unref(previousOutput.pointer)
                hasPreviousOutput = av_frame_ref(previousOutput.pointer, frame) >= 0
                av_frame_unref(frame)
            }
            summary.frames += 1
            try onFrame(
                VideoFrame(
                    pointer: frame, timeBase: timeBase, scaler: scaler, display: info.display,
                    previous: hasPreviousOutput ? previousOutput.pointer : nil))
        }
    }

    private static func explainOpenFailure(path: String, code: Int32) -> MediaError {
        if code == cff_error_from_errno(ENOENT) || code == cff_error_from_errno(EACCES) {
            return MediaError(kind: .cannotOpen, operation: "avformat_open_input", code: code, message: "\(path): \(ffmpegErrorText(code))")
        }
        switch diagnoseContainer(path) {
        case .missingIndex:
            return MediaError(
                kind: .invalidData, operation: "avformat_open_input", code: code,
                message:
                    "\(path): recording is truncated: it has media data but no index (moov box); stop `xcrun simctl io recordVideo` with Ctrl-C (SIGINT) so it writes the index"
            )
        case .empty:
            return MediaError(
                kind: .invalidData, operation: "avformat_open_input", code: code, message: "\(path): is empty (0 bytes), not a recording")
        case .indexed:
            return MediaError(
                kind: .invalidData, operation: "avformat_open_input", code: code,
                message: "\(path): QuickTime file is corrupted: \(ffmpegErrorText(code))")
        case .notQuickTime:
            if code == cff_error_from_errno(EINVAL) {
                return MediaError(
                    kind: .invalidData, operation: "avformat_open_input", code: code,
                    message:
                        "\(path): is not a recording container this tool reads (QuickTime/MP4, Matroska/WebM); playlists, concat scripts and image sequences are refused"
                )
            }
            return MediaError(
                kind: .invalidData, operation: "avformat_open_input", code: code,
                message: "\(path): is not a readable video recording (\(ffmpegErrorText(code)))")
        }
    }

    /// The video track's edit list, read from the file's own index (FFmpeg applies it but does not
    /// expose it).
    private static func videoEditList(_ path: String) -> QuickTimeEditList? {
        readingBoxes(path) { QuickTimeEditList.videoTrack(size: $0, read: $1) } ?? nil
    }

    private static func diagnoseContainer(_ path: String) -> QuickTimeBoxScan.Diagnosis {
        readingBoxes(path) { QuickTimeBoxScan.diagnose(size: $0, read: $1) } ?? .notQuickTime
    }

    /// Hands `body` the file's size and a reader of `count` bytes at an offset (fewer at the end),
    /// as the pure QuickTime box walkers take them; nil when the file cannot be opened.
    private static func readingBoxes<T>(_ path: String, _ body: (Int64, (Int64, Int) -> [UInt8]) -> T) -> T? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).map { Int64($0) } ?? 0
        return body(size) { offset, count in
            guard (try? handle.seek(toOffset: UInt64(offset))) != nil,
                let data = try? handle.read(upToCount: count)
            else { return [] }
            return [UInt8](data)
        }
    }

    /// The stream's display matrix (`AV_PKT_DATA_DISPLAYMATRIX`: nine 32-bit values), nil when it has none.
    static func displayMatrix(of stream: UnsafeMutablePointer<AVStream>) -> [Int32]? {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * MemoryLayout<Int32>.size else {
            return nil
        }
        return UnsafeRawPointer(data).withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
    }

    private static func describe(
        path: String, format fmt: UnsafeMutablePointer<AVFormatContext>,
        stream: UnsafeMutablePointer<AVStream>,
        parameters: UnsafeMutablePointer<AVCodecParameters>, timeBase: Rational
    ) -> RecordingInfo {
        let noPTS = FFmpegCodes.noPTS
        func metadata(_ dict: OpaquePointer?, _ key: String) -> String? {
            guard let entry = av_dict_get(dict, key, nil, 0), let value = entry.pointee.value else { return nil }
            return String(cString: value)
        }
        let formatName = fmt.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        let rate = stream.pointee.avg_frame_rate
        let guessed = av_guess_frame_rate(fmt, stream, nil)
        let pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.pointee.format)).map { String(cString: $0) }
        return RecordingInfo(
            path: path,
            format: formatName,
            codec: String(cString: avcodec_get_name(parameters.pointee.codec_id)),
            width: Int(parameters.pointee.width),
            height: Int(parameters.pointee.height),
            timeBase: timeBase,
            startTime: stream.pointee.start_time == noPTS ? nil : stream.pointee.start_time,
            headerFrameCount: stream.pointee.nb_frames > 0 ? stream.pointee.nb_frames : nil,
            streamDuration: stream.pointee.duration == noPTS ? nil : stream.pointee.duration,
            containerDurationMicroseconds: fmt.pointee.duration == noPTS ? nil : fmt.pointee.duration,
            creationTime: metadata(fmt.pointee.metadata, "creation_time") ?? metadata(stream.pointee.metadata, "creation_time"),
            averageFrameRate: rate.num > 0 && rate.den > 0 ? Rational(Int64(rate.num), Int64(rate.den)) : nil,
            pixelFormat: pixelFormat,
            guessedFrameRate: guessed.num > 0 && guessed.den > 0 ? Rational(Int64(guessed.num), Int64(guessed.den)) : nil,
            containerStartMicroseconds: fmt.pointee.start_time == noPTS ? nil : fmt.pointee.start_time)
    }
}
