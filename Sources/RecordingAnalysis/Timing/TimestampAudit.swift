/// A forensic audit of a video stream's timestamps: what a pts-based tool would get wrong.
///
/// Pure: built from frame timings in decoder output order and packet timings in decode order.
public struct TimestampAudit: Sendable {
    /// A frame whose pts is smaller than its predecessor's in decoder output order.
    public struct Backstep: Sendable, Equatable {
        public var index: Int
        public var pts: Int64
        public var previousPTS: Int64
        public init(index: Int, pts: Int64, previousPTS: Int64) {
            self.index = index
            self.pts = pts
            self.previousPTS = previousPTS
        }
    }

    /// A frame whose pts equals its predecessor's.
    public struct Duplicate: Sendable, Equatable {
        public var index: Int
        public var pts: Int64
        public init(index: Int, pts: Int64) {
            self.index = index
            self.pts = pts
        }
    }

    /// A packet whose dts is smaller than the previous packet's (a muxing fault).
    public struct DTSBackstep: Sendable, Equatable {
        public var packetIndex: Int
        public var dts: Int64
        public var previousDTS: Int64
        public init(packetIndex: Int, dts: Int64, previousDTS: Int64) {
            self.packetIndex = packetIndex
            self.dts = dts
            self.previousDTS = previousDTS
        }
    }

    /// A stretch without new frames (the simulator recorder emits nothing while the screen is static).
    public struct Gap: Sendable, Equatable {
        /// Pts of the frame before the gap.
        public var startPTS: Int64
        /// Length in time-base ticks.
        public var length: Int64
        public init(startPTS: Int64, length: Int64) {
            self.startPTS = startPTS
            self.length = length
        }
    }

    /// Minimum, median and maximum interval between consecutive presentation times, in ticks.
    public struct Intervals: Sendable, Equatable {
        public var min: Int64
        public var median: Int64
        public var max: Int64
        public init(min: Int64, median: Int64, max: Int64) {
            self.min = min
            self.median = median
            self.max = max
        }
    }

    /// A range of cut times for which `trim=start=T` (first frame in output order with pts ≥ T)
    /// would also pass frames whose pts lies before T.
    public struct CutHazard: Sendable, Equatable {
        /// Exclusive lower bound of the affected cut times, in ticks.
        public var fromPTS: Int64
        /// Inclusive upper bound, in ticks.
        public var toPTS: Int64
        /// Frame the cut would start with at `toPTS`.
        public var startsAtIndex: Int
        /// Frames shown after the cut although their pts is before it.
        public var earlierFrames: [Int]
        public init(fromPTS: Int64, toPTS: Int64, startsAtIndex: Int, earlierFrames: [Int]) {
            self.fromPTS = fromPTS
            self.toPTS = toPTS
            self.startsAtIndex = startsAtIndex
            self.earlierFrames = earlierFrames
        }
    }

    public let timeBase: Rational
    /// Frames in decoder output order.
    public let frames: [FrameTiming]
    /// The pts seconds are measured from: the recording clock's 0 when given (`RecordingClock`),
    /// else the first decoded frame that has one.
    public let originPTS: Int64?
    public let nonMonotonic: [Backstep]
    public let duplicates: [Duplicate]
    public let missingPTS: [Int]
    public let dtsNonMonotonic: [DTSBackstep]
    /// Packet pts out of order in decode order: the stream uses B-frame reordering (not an anomaly).
    public let hasBFrames: Bool
    public let intervals: Intervals?
    public let isVariableFrameRate: Bool
    public let gaps: [Gap]
    public let cutHazards: [CutHazard]
    /// Packets the decoder rejected as corrupt.
    public let corruptPackets: Int

    /// Presentation timestamps that run backwards, repeat or are missing: findings (exit 1).
    public var hasPTSFaults: Bool { !nonMonotonic.isEmpty || !duplicates.isEmpty || !missingPTS.isEmpty }

    /// The smallest interval counted as a gap, in seconds: a static screen rather than jitter.
    public static let minimumGapSeconds = Rational(1, 4)

    /// Audits `frames` (decoder output order) and `packets` (decode order) in `timeBase`.
    /// Times are shown on `clock` when given.
    public init(frames: [FrameTiming], packets: [PacketTiming], timeBase: Rational, corruptPackets: Int = 0, clock: RecordingClock? = nil) {
        self.timeBase = timeBase
        self.frames = frames
        self.corruptPackets = corruptPackets
        originPTS = clock?.zeroTicks ?? frames.lazy.compactMap(\.pts).first

        var backsteps: [Backstep] = []
        var duplicates: [Duplicate] = []
        var missing: [Int] = []
        var previous: Int64?
        for frame in frames {
            guard let pts = frame.pts else {
                missing.append(frame.index)
                continue
            }
            if let prev = previous {
                if pts < prev { backsteps.append(Backstep(index: frame.index, pts: pts, previousPTS: prev)) }
                if pts == prev { duplicates.append(Duplicate(index: frame.index, pts: pts)) }
            }
            previous = pts
        }
        nonMonotonic = backsteps
        self.duplicates = duplicates
        missingPTS = missing

        var dtsSteps: [DTSBackstep] = []
        var previousDTS: Int64?
        var maxPacketPTS: Int64?
        var reordered = false
        for (i, packet) in packets.enumerated() {
            if let dts = packet.dts {
                if let prev = previousDTS, dts < prev {
                    dtsSteps.append(DTSBackstep(packetIndex: i, dts: dts, previousDTS: prev))
                }
                previousDTS = dts
            }
            if let pts = packet.pts {
                if let m = maxPacketPTS, pts < m { reordered = true }
                maxPacketPTS = Swift.max(maxPacketPTS ?? pts, pts)
            }
        }
        dtsNonMonotonic = dtsSteps
        // Packet pts out of order in decode order is what B-frames look like, but only when the
        // decoder then reorders them: a stream without B-frames outputs frames in packet order,
        // so its pts running backwards is an anomaly, not reordering.
        let packetOrder = packets.compactMap(\.pts)
        let outputOrder = frames.compactMap(\.pts)
        hasBFrames = reordered && packetOrder != outputOrder

        let presentation = Array(Set(frames.compactMap(\.pts))).sorted()
        var steps: [Int64] = []
        steps.reserveCapacity(Swift.max(0, presentation.count - 1))
        for i in presentation.indices.dropFirst() {
            let (d, overflow) = presentation[i].subtractingReportingOverflow(presentation[i - 1])
            steps.append(overflow ? Int64.max : d)
        }
        if steps.isEmpty {
            intervals = nil
            isVariableFrameRate = false
            gaps = []
        } else {
            let sorted = steps.sorted()
            let stats = Intervals(min: sorted[0], median: sorted[sorted.count / 2], max: sorted[sorted.count - 1])
            intervals = stats
            // One tick of jitter is a muxer rounding a constant rate into the time base, not VFR.
            let spread = stats.max - stats.min
            isVariableFrameRate = spread > 1 && Double(spread) > 0.02 * Double(stats.median)
            let minimumGap = rescale(1, from: TimestampAudit.minimumGapSeconds, to: timeBase, rounding: .up)
            let threshold = Swift.max(minimumGap, stats.median.multipliedReportingOverflow(by: 4).partialValue)
            var gaps: [Gap] = []
            for i in steps.indices where steps[i] >= threshold {
                gaps.append(Gap(startPTS: presentation[i], length: steps[i]))
            }
            self.gaps = gaps
        }
        cutHazards = TimestampAudit.cutHazards(frames: frames)
    }

    /// For each backwards step, the cut times at which a pts-based trim starts before the
    /// backwards frame and therefore also shows it, although its pts lies before the cut.
    static func cutHazards(frames: [FrameTiming]) -> [CutHazard] {
        var hazards: [CutHazard] = []
        var runningMax: Int64?
        var maxIndex = 0
        for frame in frames {
            guard let pts = frame.pts else { continue }
            if let m = runningMax, pts < m {
                if var last = hazards.last, last.toPTS == m, last.startsAtIndex == maxIndex {
                    last.fromPTS = Swift.min(last.fromPTS, pts)
                    last.earlierFrames.append(frame.index)
                    hazards[hazards.count - 1] = last
                } else {
                    hazards.append(CutHazard(fromPTS: pts, toPTS: m, startsAtIndex: maxIndex, earlierFrames: [frame.index]))
                }
            }
            if runningMax.map({ pts > $0 }) ?? true {
                runningMax = pts
                maxIndex = frame.index
            }
        }
        return hazards
    }

    /// Seconds of `pts` from `originPTS`, for display.
    public func seconds(_ pts: Int64) -> Double {
        Double(pts &- (originPTS ?? 0)) * timeBase.doubleValue
    }

    /// Seconds of a tick count, for display.
    public func duration(_ ticks: Int64) -> Double {
        Double(ticks) * timeBase.doubleValue
    }

    /// True when nothing a pts-based tool would trip over was found.
    public var isClean: Bool {
        nonMonotonic.isEmpty && duplicates.isEmpty && missingPTS.isEmpty && dtsNonMonotonic.isEmpty
    }
}
