/// The timing of one decoded frame, as the decoder delivered it.
///
/// Like PyAV's frames: a missing pts is `nil`, never a sentinel, and the time base travels
/// with the value so that seconds can be derived when they are needed for display.
public struct FrameTiming: Hashable, Sendable {
    /// Position in decoder output order, 0-based.
    public var index: Int
    /// Raw presentation timestamp of the decoded frame (not `best_effort_timestamp`).
    public var pts: Int64?
    /// Decode timestamp of the packet that produced the frame (`pkt_dts`), when known.
    public var dts: Int64?
    /// FFmpeg's `best_effort_timestamp`: the pts, or the dts once pts have proved less reliable than
    /// dts (libavcodec's `guess_correct_pts`). What the ffmpeg CLI places frames by.
    public var bestEffort: Int64?
    /// Duration in time-base ticks as the container stored it (0 when unknown).
    public var duration: Int64
    /// Whether the decoder marked the frame as a key frame.
    public var isKey: Bool
    /// The time base of `pts` and `duration`.
    public var timeBase: Rational

    public init(
        index: Int, pts: Int64?, dts: Int64? = nil, bestEffort: Int64? = nil, duration: Int64, isKey: Bool,
        timeBase: Rational
    ) {
        self.index = index
        self.pts = pts
        self.bestEffort = bestEffort ?? pts
        self.dts = dts
        self.duration = duration
        self.isKey = isKey
        self.timeBase = timeBase
    }

    /// Seconds of `pts` on the stream clock, for display.
    public var time: Double? { pts.map { Double($0) * timeBase.doubleValue } }
}

/// The timing of one demuxed packet, in decode order.
public struct PacketTiming: Hashable, Sendable {
    public var pts: Int64?
    public var dts: Int64?
    public var duration: Int64
    public var isKey: Bool
    public var isCorrupt: Bool
    /// Marked by the demuxer to be decoded but not shown (outside the edit list): no frame comes of it.
    public var isDiscarded: Bool

    public init(pts: Int64?, dts: Int64?, duration: Int64 = 0, isKey: Bool = false, isCorrupt: Bool = false, isDiscarded: Bool = false) {
        self.isDiscarded = isDiscarded
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.isKey = isKey
        self.isCorrupt = isCorrupt
    }
}

extension Array where Element == FrameTiming {
    /// These frames with `dts` taken from the packet that carried each one: the earliest packet in
    /// decode order with the same pts that no earlier frame has claimed. Frames whose pts matches
    /// no packet keep a nil dts.
    public func attachingDTS(from packets: [PacketTiming]) -> [FrameTiming] {
        var queues: [Int64: [Int64?]] = [:]
        for p in packets {
            guard let pts = p.pts else { continue }
            queues[pts, default: []].append(p.dts)
        }
        var heads: [Int64: Int] = [:]
        return map { frame in
            var f = frame
            guard let pts = frame.pts, let queue = queues[pts] else { return f }
            let head = heads[pts, default: 0]
            guard head < queue.count else { return f }
            f.dts = queue[head]
            heads[pts] = head + 1
            return f
        }
    }
}
