/// Container and video-stream facts of a recording, as read from its headers.
public struct RecordingInfo: Sendable, Equatable {
    public var path: String
    /// Demuxer name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    public var format: String
    /// Codec name, e.g. `h264` or `hevc`.
    public var codec: String
    public var width: Int
    public var height: Int
    /// The video stream's time base (QuickTime captures use `1/600`).
    public var timeBase: Rational
    /// The stream's start time in `timeBase` ticks, when the container says.
    public var startTime: Int64?
    /// The container's start time (the earliest of its streams) in microseconds: what the ffmpeg CLI
    /// subtracts from every timestamp unless given `-copyts`.
    public var containerStartMicroseconds: Int64?
    /// The video track's edit list (QuickTime/MP4), when it has one.
    public var editList: QuickTimeEditList?
    /// Frame count stored in the container header (0 or nil when not stored).
    public var headerFrameCount: Int64?
    /// Stream duration in `timeBase` ticks, when stored.
    public var streamDuration: Int64?
    /// Container duration in microseconds, when known.
    public var containerDurationMicroseconds: Int64?
    /// `creation_time` metadata, verbatim.
    public var creationTime: String?
    /// Average frame rate the demuxer estimated, if any.
    public var averageFrameRate: Rational?
    /// Pixel format name, e.g. `yuv420p`.
    public var pixelFormat: String?
    /// The frame rate FFmpeg's CLI assumes for the stream (`av_guess_frame_rate`): what its output
    /// rate conversion (`-fps_mode cfr`) takes as a frame's length when the frame carries none.
    public var guessedFrameRate: Rational?
    /// How frames are shown (the stream's display matrix); `width` and `height` are as stored.
    public var display: DisplayTransform = .identity

    /// The width frames are shown at (`display` applied), as the ffmpeg CLI writes them.
    public var shownWidth: Int { display.shownSize(width: width, height: height).width }
    /// The height frames are shown at.
    public var shownHeight: Int { display.shownSize(width: width, height: height).height }

    public init(
        path: String, format: String, codec: String, width: Int, height: Int, timeBase: Rational,
        startTime: Int64? = nil, headerFrameCount: Int64? = nil, streamDuration: Int64? = nil,
        containerDurationMicroseconds: Int64? = nil, creationTime: String? = nil,
        averageFrameRate: Rational? = nil, pixelFormat: String? = nil, guessedFrameRate: Rational? = nil,
        containerStartMicroseconds: Int64? = nil
    ) {
        self.guessedFrameRate = guessedFrameRate
        self.path = path
        self.format = format
        self.codec = codec
        self.width = width
        self.height = height
        self.timeBase = timeBase
        self.startTime = startTime
        self.headerFrameCount = headerFrameCount
        self.streamDuration = streamDuration
        self.containerDurationMicroseconds = containerDurationMicroseconds
        self.creationTime = creationTime
        self.averageFrameRate = averageFrameRate
        self.pixelFormat = pixelFormat
        self.containerStartMicroseconds = containerStartMicroseconds
    }

    /// Pixels a full decode would produce, from the header: frames (stored, or duration × average
    /// rate) × width × height; nil when the header says neither.
    public var estimatedDecodePixels: Int64? {
        var frames = headerFrameCount
        if frames == nil, let seconds = streamDurationSeconds ?? containerDurationSeconds, let rate = averageFrameRate, seconds.isFinite {
            frames = Int64(min(9e15, max(0, seconds * rate.doubleValue)))
        }
        guard let frames else { return nil }
        let product = frames.multipliedReportingOverflow(by: Int64(width) * Int64(height))
        return product.overflow ? Int64.max : product.partialValue
    }

    /// Stream duration in seconds, for display.
    public var streamDurationSeconds: Double? { streamDuration.map { Double($0) * timeBase.doubleValue } }
    /// Container duration in seconds, for display.
    public var containerDurationSeconds: Double? { containerDurationMicroseconds.map { Double($0) / 1_000_000 } }
}
