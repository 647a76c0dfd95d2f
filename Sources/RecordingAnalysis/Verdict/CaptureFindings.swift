/// Everything `analyze` concludes about one capture, from plain values: the flips the video shows,
/// how they compare with the probe log's predictions, where those predictions fall on the recording,
/// and the verdict. Reports render it; nothing here writes sentences.
public struct CaptureFindings: Sendable {
    /// Each frame's facing on the grid, with flips, turns and unknown stretches.
    public let timeline: OrientationTimeline
    /// The timeline's flips on the recording clock, as the cross-check sees them.
    public let videoFlips: [CrossCheck.VideoFlip]
    /// How far a video flip and a predicted flip may differ.
    public let toleranceMS: Double
    /// The video against the log's two formulas, when there is a log.
    public let crossCheck: CrossCheck?
    /// How wall time maps to the recording, when there is a log and a mapping.
    public let wallClock: WallClockMapping?
    /// Where each flip the log predicts falls on the recording, and what the timeline shows there.
    public let predictedMoments: [PredictedMoment]
    /// Pass, fail or undetermined, with the facts it rests on.
    public let verdict: CaptureVerdict
    /// The video's turns the probe log's sprite does not make (`UnloggedTurns`): the log's answer
    /// is then about another sprite than the one in view, and no check passes on it.
    public let unloggedTurns: [OrientationTimeline.Turn]
    /// What ties the followed sprite to the sprite under test. Without a flip, a check passes only
    /// when something does: a template, or a probe log whose sprite makes the video's turns.
    public let spriteIdentity: SpriteIdentity

    /// What the findings are computed from, besides the timeline and the log.
    public struct Context: Sendable {
        /// What the capture should show (`--expect`).
        public var expectation: CaptureVerdict.Expectation?
        /// nil: 1.5 periods of the grid.
        public var toleranceMS: Double?
        /// Changes of facing longer than this are turns, not flips.
        public var transientMS: Double
        /// What is wrong with the capture, when it is damaged.
        public var damage: String?
        /// The wall time of the first frame, when the user gave it (`--wall-origin`).
        public var wallOrigin: WallTime?
        /// The container's creation_time tag: the weakest wall-clock mapping.
        public var creationTime: String?
        /// The first frame's time on the recording clock.
        public var firstFrameSeconds: Double
        /// Whether the user named the sprite with a template; otherwise auto mode chose it.
        public var templateGiven: Bool

        public init(
            expectation: CaptureVerdict.Expectation? = nil, toleranceMS: Double? = nil, transientMS: Double,
            damage: String? = nil, wallOrigin: WallTime? = nil, creationTime: String? = nil, firstFrameSeconds: Double = 0,
            templateGiven: Bool = false
        ) {
            self.expectation = expectation
            self.toleranceMS = toleranceMS
            self.transientMS = transientMS
            self.damage = damage
            self.wallOrigin = wallOrigin
            self.creationTime = creationTime
            self.firstFrameSeconds = firstFrameSeconds
            self.templateGiven = templateGiven
        }
    }

    public init(timeline: OrientationTimeline, log: ProbeLog?, context: Context) {
        self.timeline = timeline
        let slotSeconds = timeline.map.rate.inverse.doubleValue
        let videoFlips = Self.videoFlips(timeline)
        let toleranceMS = context.toleranceMS ?? 1.5 * 1000 * slotSeconds
        self.videoFlips = videoFlips
        self.toleranceMS = toleranceMS
        let crossCheck = log.map {
            CrossCheck(
                video: videoFlips, unknown: Self.unknownStretches(timeline), log: $0, toleranceMS: toleranceMS,
                transientMS: context.transientMS)
        }
        self.crossCheck = crossCheck
        var unlogged: [OrientationTimeline.Turn] = []
        var logged: [OrientationTimeline.Turn] = []
        if let log, let crossCheck,
            let mapping = WallClockMapping.best(
                wallOrigin: context.wallOrigin, crossCheck: crossCheck, walkOrigin: log.walkOrigin,
                slotSeconds: slotSeconds, creationTime: context.creationTime,
                firstFrameSeconds: context.firstFrameSeconds)
        {
            wallClock = mapping
            predictedMoments = PredictedMoment.all(log: log, mapping: mapping, timeline: timeline, transientMS: context.transientMS)
            (logged, unlogged) = UnloggedTurns.split(timeline, log: log, mapping: mapping, toleranceMS: toleranceMS)
        } else {
            wallClock = nil
            predictedMoments = []
        }
        unloggedTurns = unlogged
        var uncertainty = timeline.uncertainty(slotMS: 1000 * slotSeconds)
        if let turn = unlogged.first {
            let why =
                "the sprite in view turns at \(Format.seconds(timeline.map.seconds(ofSlot: turn.slot))) where the probe log's sprite does not turn: it may be another sprite (a template names the one to follow)"
            uncertainty = [uncertainty, why].compactMap { $0 }.joined(separator: " and ")
        }
        let identity: SpriteIdentity =
            context.templateGiven
            ? .template : !timeline.spriteLocated ? .none : !logged.isEmpty && unlogged.isEmpty ? .log : .firstMirrorEvent
        spriteIdentity = identity
        if identity == .firstMirrorEvent, timeline.flips.isEmpty, unlogged.isEmpty {
            let turn = timeline.turns.first.map { " (it turns at \(Format.seconds(timeline.map.seconds(ofSlot: $0.slot))))" } ?? ""
            let why =
                "auto mode followed the first thing it saw mirror in place\(turn), and nothing ties it to the sprite under test (a template names the sprite; a probe log whose sprite makes the same turn confirms it)"
            uncertainty = [uncertainty, why].compactMap { $0 }.joined(separator: " and ")
        }
        verdict = CaptureVerdict(
            flips: timeline.flips, crossCheck: crossCheck, expectation: context.expectation,
            uncertainty: uncertainty, damage: context.damage)
    }

    /// Where `timeline` cannot show a flip for sure, on the recording clock: its unknown stretches and
    /// its short changes of facing next to unknown frames; all of it when the sprite was never located.
    public static func unknownStretches(_ timeline: OrientationTimeline) -> [CrossCheck.UnknownStretch] {
        let slotMS = 1000 * timeline.map.rate.inverse.doubleValue
        if !timeline.spriteLocated {
            let first = timeline.segments.first?.firstSlot ?? 0
            let end = timeline.segments.last.map { $0.firstSlot + $0.slots } ?? first
            return [CrossCheck.UnknownStretch(startSeconds: timeline.map.seconds(ofSlot: first), durationMS: Double(end - first) * slotMS)]
        }
        let spans = timeline.unknownStretches.map { ($0.firstSlot, $0.slots) } + timeline.undecided.map { ($0.startSlot, $0.slots) }
        return spans.map { CrossCheck.UnknownStretch(startSeconds: timeline.map.seconds(ofSlot: $0.0), durationMS: Double($0.1) * slotMS) }
    }

    /// The flips of `timeline` on the recording clock: start and duration.
    public static func videoFlips(_ timeline: OrientationTimeline) -> [CrossCheck.VideoFlip] {
        timeline.flips.map {
            CrossCheck.VideoFlip(
                startSeconds: timeline.map.seconds(ofSlot: $0.startSlot),
                durationMS: Double($0.slots) * 1000 * timeline.map.rate.inverse.doubleValue)
        }
    }
}
