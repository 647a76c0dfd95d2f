import RecordingAnalysis

/// Frame and packet timings of a whole recording, collected in one decoding pass.
public struct TimingScan: Sendable {
    public var info: RecordingInfo
    /// Frames in decoder output order.
    public var frames: [FrameTiming]
    /// Packets in decode order.
    public var packets: [PacketTiming]
    public var summary: DecodeSummary
    /// Whether every frame was decoded, or the frames' output order came from the slice headers.
    public var source: TimingSource = .decoder
    /// Frames whose size differs from the frame's before them (known only when every frame was decoded).
    public var sizeChanges: [FrameSizeChange] = []

    /// Most frames analysed: 24 hours at 60 fps. Timings cost a few dozen bytes a frame, so this bounds memory.
    public static let maximumFrames = Limits.framesPerCapture

    /// Opens `path` and decodes it once, keeping only timings. Pixels are never converted, and the
    /// loop filter is skipped because it cannot change a timestamp.
    public init(path: String) throws {
        try self.init(path: path, options: DecodeOptions(skipLoopFilter: true), onFrame: nil)
    }

    /// Opens `path` and decodes it once, keeping timings and handing every frame (with its
    /// decoder-output index) to `onFrame`, which may convert its pixels.
    public init(path: String, options: DecodeOptions, onFrame: ((VideoFrame, Int) throws -> Void)?) throws {
        let reader = try RecordingReader(path: path, options: options)
        try self.init(reader: reader, onFrame: onFrame)
    }

    /// Decodes an open reader once; see `init(path:options:onFrame:)`.
    public init(reader: RecordingReader, onFrame: ((VideoFrame, Int) throws -> Void)?) throws {
        let path = reader.info.path
        var frames: [FrameTiming] = []
        var packets: [PacketTiming] = []
        var sizeChanges: [FrameSizeChange] = []
        var lastSize: (width: Int, height: Int)?
        let summary = try reader.decode(
            onPacket: { packets.append($0) },
            onFrame: { frame in
                let index = frames.count
                guard index < TimingScan.maximumFrames else {
                    throw MediaError(
                        kind: .invalidData, operation: "decode",
                        message: "\(path): more than \(TimingScan.maximumFrames) frames; not a screen recording this tool analyses")
                }
                frames.append(frame.timing(index: index))
                let size = (width: frame.width, height: frame.height)
                if let last = lastSize, last != size {
                    sizeChanges.append(
                        FrameSizeChange(
                            index: index, previousWidth: last.width, previousHeight: last.height, width: size.width, height: size.height))
                }
                lastSize = size
                try onFrame?(frame, index)
            })
        if frames.isEmpty {
            let why =
                summary.readError.map { ": \($0)" }
                ?? (summary.corruptPackets > 0 ? ": all \(summary.corruptPackets) packets are corrupt" : "")
            throw MediaError(kind: .invalidData, operation: "decode", message: "\(path): no video frame could be decoded\(why)")
        }
        self.info = reader.info
        self.frames = frames.attachingDTS(from: packets)
        self.packets = packets
        self.summary = summary
        self.sizeChanges = sizeChanges
    }

    /// Timings without decoding pixels where the stream allows it: H.264 and HEVC packets are put
    /// in the order the decoder would output them by the picture order counts in their slice
    /// headers (each packet is one picture, its pts, duration and key flag the frame's). Any other
    /// codec, or picture order counts that do not define an order, are decoded as `init(path:)` does.
    public static func withoutDecoding(path: String) throws -> TimingScan {
        try fromSliceHeaders(path: path) ?? TimingScan(path: path)
    }

    /// The timings `withoutDecoding` reads from packets and slice headers alone; nil where the
    /// stream does not allow it (the frames must then be decoded).
    public static func fromSliceHeaders(path: String) throws -> TimingScan? {
        let reader = try RecordingReader(path: path, options: DecodeOptions(skipLoopFilter: true))
        var packets: [PacketTiming] = []
        var orders: [PictureOrder] = []
        var everyPacketHasOrder = true
        let summary = try reader.readPackets { packet, order in
            guard packets.count < TimingScan.maximumFrames else {
                throw MediaError(
                    kind: .invalidData, operation: "demux",
                    message: "\(path): more than \(TimingScan.maximumFrames) frames; not a screen recording this tool analyses")
            }
            packets.append(packet)
            if let order { orders.append(order) } else { everyPacketHasOrder = false }
        }
        guard everyPacketHasOrder, !packets.isEmpty, summary.readError == nil, let order = PictureOrder.outputOrder(orders) else {
            return nil
        }
        let timeBase = reader.info.timeBase
        var frames: [FrameTiming] = []
        frames.reserveCapacity(order.count)
        // A picture outside the edit list is decoded as a reference but never output.
        for k in order where !packets[k].isDiscarded {
            let p = packets[k]
            frames.append(
                FrameTiming(index: frames.count, pts: p.pts, duration: max(0, p.duration), isKey: orders[k].isKey, timeBase: timeBase))
        }
        var scan = TimingScan(info: reader.info, frames: frames.attachingDTS(from: packets), packets: packets, summary: summary)
        scan.summary.frames = frames.count
        scan.source = .sliceHeaders
        return scan
    }

    private init(info: RecordingInfo, frames: [FrameTiming], packets: [PacketTiming], summary: DecodeSummary) {
        self.info = info
        self.frames = frames
        self.packets = packets
        self.summary = summary
    }

    /// A frame's duration in ticks from the stream's average frame rate, for a last frame that has
    /// none (FFmpeg's CLI falls back to the frame rate the same way); 0 when unknown.
    public var fallbackFrameDuration: Int64 {
        guard let rate = info.averageFrameRate else { return 0 }
        return rescale(1, from: rate.inverse, to: info.timeBase)
    }

    /// The stream facts a grid rule needs besides the frames.
    public var gridStream: CFRResampler.Stream {
        CFRResampler.Stream(
            timeBase: info.timeBase, fallbackDuration: fallbackFrameDuration, frameRate: info.guessedFrameRate,
            hasStartTime: info.startTime != nil, containerStartMicroseconds: info.containerStartMicroseconds)
    }

    /// Whether the capture was read whole.
    public var integrity: CaptureIntegrity {
        let timed = frames.compactMap { f in f.pts.map { (pts: $0, duration: f.duration) } }
        var decoded: Double?
        if let first = timed.map(\.pts).min(), let last = timed.max(by: { $0.pts < $1.pts }) {
            decoded = Double((last.pts &+ max(0, last.duration)) &- first) * info.timeBase.doubleValue
        }
        return CaptureIntegrity(
            CaptureIntegrity.Reading(
                packets: summary.packets, frames: summary.frames, promisedFrames: info.headerFrameCount,
                promisedSeconds: info.streamDurationSeconds, decodedSeconds: decoded, corruptPackets: summary.corruptPackets,
                readError: summary.readError, ffmpegErrors: summary.ffmpegErrors, ffmpegMessages: summary.ffmpegMessages,
                source: source, discardedPackets: explainedDiscards))
    }

    /// Packets the demuxer discarded that an edit list explains: their pts lie within the shown
    /// frames' span (plus a second), as a trim's do. A broken index that throws samples far past the
    /// end makes the demuxer discard them too; those stay owed, so the capture counts as damaged.
    var explainedDiscards: Int {
        guard summary.discardedPackets > 0, let last = frames.compactMap(\.pts).max() else { return 0 }
        let slack = rescale(1, from: Rational(1, 1), to: info.timeBase)
        return packets.filter { $0.isDiscarded && ($0.pts.map { $0 <= last &+ slack } ?? false) }.count
    }

    /// The audit of these timings, its times on the default recording clock (from the container's
    /// start, as the ffmpeg CLI counts).
    public var audit: TimestampAudit {
        let zero = GridRule().zeroTicks(containerStartMicroseconds: info.containerStartMicroseconds, timeBase: info.timeBase)
        return TimestampAudit(
            frames: frames, packets: packets, timeBase: info.timeBase, corruptPackets: summary.corruptPackets,
            clock: RecordingClock(timeBase: info.timeBase, zeroTicks: zero))
    }
}
