/// Where a flip a formula predicts falls on the recording, through a wall-clock mapping, and what
/// the screen showed then: the evidence for a flip that happened and, as much, for one that did not.
public struct PredictedMoment: Sendable, Equatable {
    public var formula: ProbeLog.Formula
    /// Wall time of the flip's first evaluation.
    public var wall: WallTime
    public var durationMS: Double
    /// Recording-clock seconds of the mapped wall time.
    public var seconds: Double
    /// Slots the mapping's uncertainty and the flip's length cover (the window a strip must show).
    public var firstSlot: Int64
    public var lastSlot: Int64
    /// Facings the timeline saw in those slots, in order, each with its slots (`right ×12, mirrored ×4`).
    public var seen: [(facing: SpriteFacing, slots: Int64)]

    public static func == (a: PredictedMoment, b: PredictedMoment) -> Bool {
        a.formula == b.formula && a.wall == b.wall && a.firstSlot == b.firstSlot && a.lastSlot == b.lastSlot
    }

    /// Every flip `log` predicts (both formulas), mapped onto `timeline`'s grid.
    public static func all(log: ProbeLog, mapping: WallClockMapping, timeline: OrientationTimeline, transientMS: Double)
        -> [PredictedMoment]
    {
        let map = timeline.map
        var moments: [PredictedMoment] = []
        for formula in ProbeLog.Formula.allCases {
            for p in log.predictedFlips(formula, transientMS: transientMS) {
                guard let start = p.startWall else { continue }
                let wall = WallTime(referenceSeconds: start)
                let seconds = mapping.recordingSeconds(wall)
                let rate = map.rate.doubleValue
                // The result of an evaluation appears at the next refresh at the earliest.
                let from = map.slot(at: TimeArgument(seconds: rational(seconds - mapping.earlier)))
                let to = map.slot(at: TimeArgument(seconds: rational(seconds + mapping.later + p.durationMS / 1000))) + 1
                let first = max(0, min(from, map.slotCount - 1)), last = max(0, min(to, map.slotCount - 1))
                guard map.slotCount > 0, to >= 0, from < map.slotCount, rate > 0 else { continue }
                moments.append(
                    PredictedMoment(
                        formula: formula, wall: wall, durationMS: p.durationMS, seconds: seconds,
                        firstSlot: first, lastSlot: last, seen: facings(timeline, first, last)))
            }
        }
        return moments
    }

    static func rational(_ s: Double) -> Rational { Rational(Int64((s * 1_000_000).rounded()), 1_000_000) }

    static func facings(_ timeline: OrientationTimeline, _ first: Int64, _ last: Int64) -> [(facing: SpriteFacing, slots: Int64)] {
        var out: [(facing: SpriteFacing, slots: Int64)] = []
        for segment in timeline.segments {
            let a = max(first, segment.firstSlot), b = min(last, segment.firstSlot + segment.slots - 1)
            guard a <= b else { continue }
            // Facings assumed because the sprite was never located were not seen.
            let facing = timeline.spriteLocated ? segment.facing : .unknown
            if let lastItem = out.last, lastItem.facing == facing {
                out[out.count - 1].slots += b - a + 1
            } else {
                out.append((facing, b - a + 1))
            }
        }
        return out
    }

    /// `right ×12, mirrored ×4, right ×8`
    public var seenText: String {
        seen.isEmpty ? "no decided facing" : seen.map { "\($0.facing.rawValue) ×\($0.slots)" }.joined(separator: ", ")
    }

    public var json: JSONValue {
        .object([
            ("formula", .string(formula.rawValue)), ("wall", .double(wall.referenceSeconds, decimals: 5)),
            ("wall_iso", .string(wall.iso8601)),
            ("duration_ms", .double(durationMS, decimals: 1)), ("recording_s", .double(seconds, decimals: 6)),
            ("first_slot", .int(firstSlot)), ("last_slot", .int(lastSlot)),
            ("seen", .array(seen.map { .object([("facing", .string($0.facing.rawValue)), ("slots", .int($0.slots))]) }))
        ])
    }
}
