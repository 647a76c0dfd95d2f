/// Whether a capture was read whole: the tool fails closed on a damaged one, so that a capture
/// cut short or corrupted can never pass a check on the frames that happen to decode.
public struct CaptureIntegrity: Sendable, Equatable {
    /// What was read, as plain numbers (from the decoding pass).
    public struct Reading: Sendable, Equatable {
        /// Packets of the video stream the demuxer delivered.
        public var packets: Int
        /// Frames the decoder produced.
        public var frames: Int
        /// The index's sample count, when the container has one.
        public var promisedFrames: Int64?
        /// The stream's duration from the header, in seconds.
        public var promisedSeconds: Double?
        /// From the first frame's pts to the end of the last one, in seconds.
        public var decodedSeconds: Double?
        public var corruptPackets: Int
        public var readError: String?
        public var ffmpegErrors: Int
        public var ffmpegMessages: [String]
        /// Where the frames' timings came from; without decoding, pixel damage cannot be seen.
        public var source: TimingSource
        /// Packets outside the edit list: decoded as references, never shown, so no frame is owed for them.
        public var discardedPackets: Int

        public init(
            packets: Int, frames: Int, promisedFrames: Int64?, promisedSeconds: Double?, decodedSeconds: Double?,
            corruptPackets: Int, readError: String?, ffmpegErrors: Int, ffmpegMessages: [String], source: TimingSource = .decoder,
            discardedPackets: Int = 0
        ) {
            self.source = source
            self.discardedPackets = discardedPackets
            self.packets = packets
            self.frames = frames
            self.promisedFrames = promisedFrames
            self.promisedSeconds = promisedSeconds
            self.decodedSeconds = decodedSeconds
            self.corruptPackets = corruptPackets
            self.readError = readError
            self.ffmpegErrors = ffmpegErrors
            self.ffmpegMessages = ffmpegMessages
        }
    }

    /// One way the capture is damaged.
    public enum Problem: Sendable, Equatable {
        /// The index promises more samples than the file delivered.
        case shortOfIndex(read: Int, promised: Int64)
        /// The decoded frames end well before the duration the header gives.
        case endsEarly(decoded: Double, promised: Double)
        /// Packets the decoder rejected.
        case corruptPackets(Int)
        /// Reading stopped on an error other than the end of the file.
        case readError(String)
        /// The decoder produced far fewer frames than it was given packets, without a word: the
        /// data of those packets did not decode.
        case framesShortOfPackets(frames: Int, packets: Int)
        /// FFmpeg reported errors while reading or decoding (damaged data it concealed or skipped):
        /// the pixels of some frames are not what was recorded.
        case decodingErrors(Int)
    }

    public let reading: Reading
    public let problems: [Problem]

    public var isIntact: Bool { problems.isEmpty }

    public init(_ r: Reading) {
        reading = r
        var problems: [Problem] = []
        if let promised = r.promisedFrames, promised > 0, Int64(r.packets) < promised {
            problems.append(.shortOfIndex(read: r.packets, promised: promised))
        }
        // Edit lists and a last frame without a duration move the end by a frame or two; a capture
        // that stops a quarter second (and 5 %) early was cut.
        if let promised = r.promisedSeconds, let decoded = r.decodedSeconds, promised - decoded > max(0.25, 0.05 * promised) {
            problems.append(.endsEarly(decoded: decoded, promised: promised))
        }
        // A few packets may legitimately carry no picture (VP8's hidden reference frames, a codec's
        // delay); a twentieth of them silently vanishing is damage.
        let owed = r.packets - r.discardedPackets
        if owed - r.frames > 2, Double(r.frames) < 0.95 * Double(owed) {
            problems.append(.framesShortOfPackets(frames: r.frames, packets: owed))
        }
        if r.corruptPackets > 0 { problems.append(.corruptPackets(r.corruptPackets)) }
        if let e = r.readError { problems.append(.readError(e)) }
        if r.ffmpegErrors > 0 { problems.append(.decodingErrors(r.ffmpegErrors)) }
        self.problems = problems
    }

    /// One sentence: "the capture is damaged: the index promises 87 frames but the file delivered 7; …".
    public var summary: String? { details.map { "the capture is damaged: " + $0 } }

    /// What is wrong, without the preamble; nil when intact.
    public var details: String? {
        guard !problems.isEmpty else { return nil }
        var parts: [String] = []
        for p in problems {
            switch p {
            case .shortOfIndex(let read, let promised):
                parts.append("the index promises \(promised) frames but the file delivered \(read)")
            case .endsEarly(let decoded, let promised):
                parts.append(String(format: "decoding ends at %.3f s of the %.3f s the header gives", decoded, promised))
            case .corruptPackets(let n):
                parts.append("\(n) corrupt packet\(n == 1 ? "" : "s")")
            case .readError(let e):
                parts.append("reading stopped early: \(e)")
            case .framesShortOfPackets(let frames, let packets):
                parts.append("\(packets) packets to show decoded to only \(frames) frames")
            case .decodingErrors(let n):
                parts.append(
                    "FFmpeg reported \(n) error\(n == 1 ? "" : "s") reading or decoding (damaged data concealed, skipped or guessed)"
                        + (reading.ffmpegMessages.isEmpty ? "" : ": \(reading.ffmpegMessages.joined(separator: "; "))"))
            }
        }
        return parts.joined(separator: "; ")
    }
}
