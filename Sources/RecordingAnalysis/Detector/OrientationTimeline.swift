/// Which way the sprite faces along the constant-rate grid, and the flips and turns in it.
public struct OrientationTimeline: Sendable {
    /// A transient mirror flip: the sprite turned to the other facing and came back quickly.
    public struct Flip: Sendable, Equatable {
        /// First slot showing the other facing.
        public var startSlot: Int64
        /// Slots showing it.
        public var slots: Int64
        /// The facing shown during the flip.
        public var facing: SpriteFacing
        /// Decoded frames showing it, in presentation order.
        public var sourceFrames: [Int]
        /// From the first of those frames' timestamp to the timestamp of the first frame after them, in ticks.
        public var sourceDuration: Int64?
        /// Those of `sourceFrames` caught mid-flip: found, but fitting both orientations about equally
        /// (`UnknownReason.ambiguous`), between the facing before and the other one. The flip's start
        /// or end is known to within them.
        public var smearedFrames: [Int] = []
        /// A frame directly before or after the flip where the sprite was lost (`lostEdgeFramesAtMost`
        /// at most), with the facing before confidently beyond it: the flip is certain, and it may
        /// have started or ended in that frame, which is not counted in it.
        public var lostEdgeFrames: [Int] = []
    }

    /// A lasting change of facing (a real turnaround).
    public struct Turn: Sendable, Equatable {
        public var slot: Int64
        public var facing: SpriteFacing
    }

    /// A stretch of consecutive slots with one facing.
    public struct Segment: Sendable, Equatable {
        public var facing: SpriteFacing
        public var firstSlot: Int64
        public var slots: Int64
        public var sources: [Int]
        /// Why the facing is unknown (unknown segments only).
        public var reason: UnknownReason?
    }

    /// A change of facing the video cannot establish as a flip or a turn, so it is neither counted
    /// nor ignored: a short one next to frames whose facing is unknown (where it starts or ends is
    /// not seen), or one read at another place than the facing before it (`Why`).
    public struct UndecidedChange: Sendable, Equatable {
        public var startSlot: Int64
        public var slots: Int64
        public var facing: SpriteFacing
        public var sourceFrames: [Int]
        public var why: Why = .nextToUnknown

        /// Why a change of facing is undecided.
        public enum Why: String, Sendable {
            /// Short, next to unknown frames: it may be a flip whose edge was not seen.
            case nextToUnknown = "next to unknown frames"
            /// Read at a place that does not overlap where the facing before it was read: the track
            /// may have moved to another object (a lookalike of the other facing), which is no turn.
            case readElsewhere = "read at another place"
        }
    }

    public let map: CFRMap
    public let segments: [Segment]
    public let flips: [Flip]
    public let turns: [Turn]
    public let undecided: [UndecidedChange]
    /// The facing the recording starts with.
    public let initialFacing: SpriteFacing?
    /// Whether any frame's facing was measured. False in auto mode when no mirror event was found:
    /// the sprite was never located, so every facing is assumed, and no flip can be ruled out.
    public let spriteLocated: Bool

    /// Stretches of slots whose facing is unknown, with the reason.
    public var unknownStretches: [Segment] { segments.filter { $0.facing == .unknown } }

    /// Builds the timeline from per-frame verdicts (indexed by decoder-output index), the grid, and
    /// each frame's time on the grid's clock (`placement[i]`, ticks).
    ///
    /// A flip is a run of the other facing no longer than `transientSlots`, with confidently
    /// classified slots of the previous facing directly on both sides, or with at most
    /// `smearedFramesAtMost` ambiguous frames between (see `smearedFlip`), or with one lost frame
    /// between on one side only (see `flipBesideLostFrame`). A longer run, or one that
    /// never returns, is a turn. A short run next to unknown slots is undecided, and so is a short
    /// first run that unknown slots precede or a short last run that they follow, and a flip or a turn
    /// read at another place than the facing before it (`readElsewhere`). Unknown slots are never
    /// read as either facing.
    public init(orientations: [FrameOrientation], map: CFRMap, placement: [Int64?], transientSlots: Int64) {
        self.map = map
        spriteLocated = orientations.contains { $0.measured }
        var byIndex: [Int: FrameOrientation] = [:]
        for o in orientations { byIndex[o.index] = o }
        var segments: [Segment] = []
        for run in map.runs {
            let o = byIndex[run.source]
            let facing = o?.facing ?? .unknown
            let reason = facing == .unknown ? (o?.reason ?? .lost) : nil
            if var last = segments.last, last.facing == facing, last.reason == reason {
                last.slots = run.firstSlot + run.count - last.firstSlot
                last.sources.append(run.source)
                segments[segments.count - 1] = last
            } else {
                segments.append(Segment(facing: facing, firstSlot: run.firstSlot, slots: run.count, sources: [run.source], reason: reason))
            }
        }
        self.segments = segments
        var flips: [Flip] = []
        var turns: [Turn] = []
        var undecided: [UndecidedChange] = []
        var stable = segments.first { $0.facing != .unknown }?.facing
        var i = 0
        // When unknown slots precede a short first stretch, the video did not see which facing held
        // before: that stretch may be the end of a flip (a sprite that came into view mirrored). The
        // first lasting stretch settles the facing, which holds back to its first stretch as it
        // holds forward until a lasting change; the short stretches of the other facing before that
        // first stretch are undecided, and the loop below reads the rest. (Without a lasting
        // stretch, the first one is taken as the facing, as below.)
        if let first = segments.firstIndex(where: { $0.facing != .unknown }), first > 0, segments[first].slots <= transientSlots,
            let lasting = segments[first...].firstIndex(where: { $0.facing != .unknown && $0.slots > transientSlots }),
            let settled = segments[first...lasting].firstIndex(where: { $0.facing == segments[lasting].facing })
        {
            for s in segments[first..<settled] where s.facing != .unknown {
                undecided.append(UndecidedChange(startSlot: s.firstSlot, slots: s.slots, facing: s.facing, sourceFrames: s.sources))
            }
            stable = segments[lasting].facing
            i = settled
        }
        initialFacing = stable
        // From a frame's timestamp to another's, in ticks, when both are placed.
        func ticks(from first: Int?, to next: Int?) -> Int64? {
            guard let first, let next, placement.indices.contains(first), placement.indices.contains(next),
                let a = placement[first], let b = placement[next]
            else { return nil }
            return b &- a
        }
        while i < segments.count {
            let s = segments[i]
            guard s.facing != .unknown, s.facing != stable else {
                i += 1
                continue
            }
            let before = i > 0 ? segments[i - 1].facing : nil
            let after = i + 1 < segments.count ? segments[i + 1].facing : nil
            let nextKnown = segments[(i + 1)...].first { $0.facing != .unknown }?.facing
            // Returned, or never seen again: either way it may have been a flip.
            let mayReturn = nextKnown == stable || nextKnown == nil
            if s.slots <= transientSlots, before == stable, after == stable {
                if OrientationTimeline.readElsewhere(segments[i].sources, between: segments[i - 1], and: segments[i + 1], byIndex) {
                    undecided.append(
                        UndecidedChange(
                            startSlot: s.firstSlot, slots: s.slots, facing: s.facing, sourceFrames: s.sources, why: .readElsewhere))
                    i += 2
                    continue
                }
                let duration = ticks(from: s.sources.first, to: segments[i + 1].sources.first)
                flips.append(
                    Flip(startSlot: s.firstSlot, slots: s.slots, facing: s.facing, sourceFrames: s.sources, sourceDuration: duration))
                i += 2
                continue
            }
            if let smeared = OrientationTimeline.smearedFlip(segments, at: i, stable: stable, transientSlots: transientSlots) {
                let first = segments[smeared.lowerBound], next = segments[smeared.upperBound]
                let pieces = segments[smeared]
                let read = pieces.filter { $0.facing == s.facing }.flatMap(\.sources)
                if OrientationTimeline.readElsewhere(read, between: segments[smeared.lowerBound - 1], and: next, byIndex) {
                    undecided.append(
                        UndecidedChange(
                            startSlot: first.firstSlot, slots: next.firstSlot - first.firstSlot, facing: s.facing, sourceFrames: read,
                            why: .readElsewhere))
                    i = smeared.upperBound + 1
                    continue
                }
                let duration = ticks(from: first.sources.first, to: next.sources.first)
                flips.append(
                    Flip(
                        startSlot: first.firstSlot, slots: next.firstSlot - first.firstSlot, facing: s.facing,
                        sourceFrames: pieces.flatMap(\.sources), sourceDuration: duration,
                        smearedFrames: pieces.filter { $0.facing == .unknown }.flatMap(\.sources)))
                i = smeared.upperBound + 1
                continue
            }
            if let edge = OrientationTimeline.flipBesideLostFrame(segments, at: i, stable: stable, transientSlots: transientSlots) {
                let beyond = (edge.before ? segments[i - 2] : segments[i - 1], edge.before ? segments[i + 1] : segments[i + 2])
                if OrientationTimeline.readElsewhere(s.sources, between: beyond.0, and: beyond.1, byIndex) {
                    undecided.append(
                        UndecidedChange(
                            startSlot: s.firstSlot, slots: s.slots, facing: s.facing, sourceFrames: s.sources, why: .readElsewhere))
                } else {
                    flips.append(
                        Flip(
                            startSlot: s.firstSlot, slots: s.slots, facing: s.facing, sourceFrames: s.sources,
                            sourceDuration: ticks(from: s.sources.first, to: segments[i + 1].sources.first), lostEdgeFrames: edge.frames))
                }
                i += edge.before ? 2 : 3
                continue
            }
            if s.slots <= transientSlots, mayReturn, before == .unknown || after == .unknown {
                undecided.append(UndecidedChange(startSlot: s.firstSlot, slots: s.slots, facing: s.facing, sourceFrames: s.sources))
                i += 1
                continue
            }
            // The other facing in short pieces with unknown frames between them, back to the stable
            // facing (or to the end) within `transientSlots` of its start: one excursion whose middle
            // was not seen, so a flip or two, never a lasting turn.
            if s.slots <= transientSlots, after == .unknown {
                var j = i + 1
                while j < segments.count, segments[j].facing == .unknown || segments[j].facing == s.facing { j += 1 }
                let end = segments[j - 1].firstSlot + segments[j - 1].slots
                if j == segments.count || segments[j].facing == stable, end - s.firstSlot <= transientSlots {
                    let sources = segments[i..<j].filter { $0.facing == s.facing }.flatMap(\.sources)
                    undecided.append(
                        UndecidedChange(startSlot: s.firstSlot, slots: end - s.firstSlot, facing: s.facing, sourceFrames: sources))
                    i = j
                    continue
                }
            }
            // A lasting change first read away from where the old facing was last read: the facing
            // changed between two places, which a track that moved to another object also shows.
            if let last = segments[..<i].last(where: { $0.facing == stable })?.sources.last, let first = s.sources.first,
                let was = byIndex[last]?.position, let now = byIndex[first]?.position, !was.overlaps(now)
            {
                undecided.append(
                    UndecidedChange(startSlot: s.firstSlot, slots: s.slots, facing: s.facing, sourceFrames: s.sources, why: .readElsewhere))
            } else {
                turns.append(Turn(slot: s.firstSlot, facing: s.facing))
            }
            stable = s.facing
            i += 1
        }
        self.flips = flips
        self.turns = turns
        self.undecided = undecided
    }

    /// Whether a short excursion of the other facing was read somewhere else: every one of its
    /// `frames` found at a place that overlaps neither where the sprite was just before (the last
    /// frame of `before`) nor where it is just after (the first of `after`), while those two overlap
    /// each other. A sprite flips where it is (or where a re-armed walk puts it, and walks on from
    /// there); a track that visits a lookalike of the other facing and comes back to its place read
    /// another object, so the change is undecided, not a flip.
    static func readElsewhere(
        _ frames: [Int], between before: Segment, and after: Segment, _ byIndex: [Int: FrameOrientation]
    ) -> Bool {
        guard let last = before.sources.last, let next = after.sources.first,
            let from = byIndex[last]?.position, let to = byIndex[next]?.position, from.overlaps(to)
        else { return false }
        let places = frames.map { byIndex[$0]?.position }
        return !places.isEmpty && places.allSatisfy { p in p.map { !$0.overlaps(from) && !$0.overlaps(to) } ?? false }
    }

    /// Ambiguous frames at most this many in a row inside a flip: a frame the encoder smeared as the
    /// sprite turned shows both orientations at once; a longer gap is the sprite lost, not a flip's edge.
    public static let smearedFramesAtMost = 2

    /// The segments (`lowerBound..<upperBound`) of a flip seen with smeared frames: from segment `i`,
    /// a short stretch of the other facing, the flip runs over stretches of that facing and of
    /// ambiguous frames (at most `smearedFramesAtMost` in a row), with one of those at one edge or
    /// inside at least, and the stable facing directly before and after it, all within
    /// `transientSlots`. An ambiguous frame between confident frames of the two facings is the
    /// flip's own edge, caught mid-turn (the other facing on both sides of it); lost, faint or
    /// out-of-view frames are not, and leave the change undecided as before.
    static func smearedFlip(_ segments: [Segment], at i: Int, stable: SpriteFacing?, transientSlots: Int64) -> Range<Int>? {
        let other = segments[i].facing
        func smear(_ k: Int) -> Bool {
            segments[k].facing == .unknown && segments[k].reason == .ambiguous && segments[k].sources.count <= smearedFramesAtMost
        }
        guard let stable, other != stable, other != .unknown else { return nil }
        let start = i > 0 && smear(i - 1) ? i - 1 : i
        guard start > 0, segments[start - 1].facing == stable else { return nil }
        var end = i + 1
        while end < segments.count, segments[end].facing == other || smear(end) { end += 1 }
        guard end < segments.count, segments[end].facing == stable else { return nil }
        guard segments[start..<end].contains(where: { $0.facing == .unknown }) else { return nil }
        guard segments[end].firstSlot - segments[start].firstSlot <= transientSlots else { return nil }
        return start..<end
    }

    /// Lost frames at most next to a flip whose other edge is seen: the flip is certain, its duration
    /// known to within them. Two or more leave it undecided: a lost frame is as often the facing before
    /// as the flip's, and a one-frame flip with a lost frame on each side could be three frames long.
    public static let lostEdgeFramesAtMost = 1

    /// Segment `i`, a short stretch of the other facing, as a flip with a lost frame at one edge: the
    /// stable facing confidently directly on one side, and on the other a stretch of at most
    /// `lostEdgeFramesAtMost` lost frames with the stable facing confidently beyond it. Returns the
    /// lost frames and whether they come before the flip.
    static func flipBesideLostFrame(_ segments: [Segment], at i: Int, stable: SpriteFacing?, transientSlots: Int64)
        -> (frames: [Int], before: Bool)?
    {
        func lost(_ k: Int) -> Bool {
            segments.indices.contains(k) && segments[k].facing == .unknown && segments[k].reason == .lost
                && segments[k].sources.count <= lostEdgeFramesAtMost
        }
        func seen(_ k: Int) -> Bool { segments.indices.contains(k) && segments[k].facing == stable }
        guard let stable, segments[i].facing != stable, segments[i].facing != .unknown, segments[i].slots <= transientSlots else {
            return nil
        }
        if seen(i - 1), lost(i + 1), seen(i + 2) { return (segments[i + 1].sources, false) }
        if lost(i - 1), seen(i - 2), seen(i + 1) { return (segments[i - 1].sources, true) }
        return nil
    }

    /// What the video could not establish, in a sentence; nil when every slot after the sprite was
    /// first measured has a confident facing. Unknown slots before the first measured frame are not
    /// counted in auto mode (no mirror event happened there, and the sprite was read there once it
    /// was known). A sprite never located is: without it, "no flip" is not an observation.
    public func uncertainty(slotMS: Double) -> String? {
        var parts: [String] = []
        if !spriteLocated {
            parts.append(
                "no sprite was located (auto mode finds it by a mirror flip, and none was seen; a template can follow a sprite that never flips)"
            )
        }
        if !undecided.isEmpty {
            let near = undecided.filter { $0.why == .nextToUnknown }.count, elsewhere = undecided.count - near
            if near > 0 { parts.append("\(near) short change\(near == 1 ? "" : "s") of facing next to unknown frames") }
            if elsewhere > 0 {
                parts.append("\(elsewhere) change\(elsewhere == 1 ? "" : "s") of facing read at another place than the facing before")
            }
        }
        let unknown = unknownStretches.reduce(Int64(0)) { $0 + $1.slots }
        if unknown > 0 {
            let reasons = Set(unknownStretches.compactMap { $0.reason?.rawValue }).sorted().joined(separator: ", ")
            parts.append(String(format: "the sprite's facing is unknown for %.1f ms (%@)", Double(unknown) * slotMS, reasons))
        }
        return parts.isEmpty ? nil : parts.joined(separator: " and ")
    }

    /// The facing shown in slot `k`.
    public func facing(atSlot k: Int64) -> SpriteFacing? {
        segments.last { $0.firstSlot <= k }.flatMap { k < $0.firstSlot + $0.slots ? $0.facing : nil }
    }
}
