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
    }

    public let map: CFRMap
    public let segments: [Segment]
    public let flips: [Flip]
    public let turns: [Turn]
    /// The facing the recording starts with.
    public let initialFacing: SpriteFacing?

    /// Builds the timeline from per-frame verdicts (indexed by decoder-output index), the grid, and
    /// each frame's time on the grid's clock (`placement[i]`, ticks). A run of the other facing no
    /// longer than `transientSlots` that returns to the previous facing is a flip; anything else
    /// that changes the facing is a turn. Slots where the sprite is absent continue the facing around them.
    public init(orientations: [FrameOrientation], map: CFRMap, placement: [Int64?], transientSlots: Int64) {
        self.map = map
        var byIndex: [Int: SpriteFacing] = [:]
        for o in orientations { byIndex[o.index] = o.facing }
        var segments: [Segment] = []
        for run in map.runs {
            let facing = byIndex[run.source] ?? .absent
            guard facing != .absent else {
                if !segments.isEmpty { segments[segments.count - 1].slots = run.firstSlot + run.count - segments[segments.count - 1].firstSlot }
                continue
            }
            if var last = segments.last, last.facing == facing {
                last.slots = run.firstSlot + run.count - last.firstSlot
                last.sources.append(run.source)
                segments[segments.count - 1] = last
            } else {
                segments.append(Segment(facing: facing, firstSlot: run.firstSlot, slots: run.count, sources: [run.source]))
            }
        }
        self.segments = segments
        initialFacing = segments.first?.facing
        var flips: [Flip] = []
        var turns: [Turn] = []
        var stable = segments.first?.facing
        var i = 1
        while i < segments.count {
            let s = segments[i]
            if s.facing != stable, s.slots <= transientSlots, i + 1 < segments.count, segments[i + 1].facing == stable {
                let after = segments[i + 1].sources.first
                var duration: Int64?
                if let first = s.sources.first, let after, placement.indices.contains(first), placement.indices.contains(after),
                   let a = placement[first], let b = placement[after] {
                    duration = b &- a
                }
                flips.append(Flip(startSlot: s.firstSlot, slots: s.slots, facing: s.facing, sourceFrames: s.sources, sourceDuration: duration))
                i += 2
                continue
            }
            if s.facing != stable {
                turns.append(Turn(slot: s.firstSlot, facing: s.facing))
                stable = s.facing
            }
            i += 1
        }
        self.flips = flips
        self.turns = turns
    }

    /// The facing shown in slot `k`.
    public func facing(atSlot k: Int64) -> SpriteFacing? {
        segments.last { $0.firstSlot <= k }.flatMap { k < $0.firstSlot + $0.slots ? $0.facing : nil }
    }
}
