/// Renders the sprite's facing, flips and turns for people and for JSON.
public struct OrientationReport: Sendable {
    public let timeline: OrientationTimeline
    public let orientations: [FrameOrientation]
    public let frames: [FrameTiming]
    public let timeBase: Rational
    public let placement: [Int64?]
    /// Template mode (facing is right/left) or auto mode (initial/mirrored).
    public let templateMode: Bool
    public let templateScale: Double?
    /// Where the sprite was last found, in recording pixels.
    public let spriteRect: PixelRect?
    /// Frame at which auto mode first saw the sprite mirror.
    public let firstEventFrame: Int?
    public let workingFactor: Int

    public init(
        timeline: OrientationTimeline, orientations: [FrameOrientation], frames: [FrameTiming], timeBase: Rational,
        placement: [Int64?], templateMode: Bool, templateScale: Double?, spriteRect: PixelRect?, firstEventFrame: Int?, workingFactor: Int
    ) {
        self.timeline = timeline
        self.orientations = orientations
        self.frames = frames
        self.timeBase = timeBase
        self.placement = placement
        self.templateMode = templateMode
        self.templateScale = templateScale
        self.spriteRect = spriteRect
        self.firstEventFrame = firstEventFrame
        self.workingFactor = workingFactor
    }

    /// `right`/`left` with a template (which faces right), `initial`/`mirrored` without.
    public func name(_ facing: SpriteFacing) -> String {
        switch facing {
        case .canonical: return templateMode ? "right" : "initial"
        case .mirrored: return templateMode ? "left" : "mirrored"
        case .unknown: return "unknown"
        }
    }

    private var rate: Rational { timeline.map.rate }
    private func slotSeconds(_ k: Int64) -> Double { timeline.map.seconds(ofSlot: k) }
    private func slotsMS(_ n: Int64) -> Double { Double(n) * 1000 * rate.inverse.doubleValue }
    private func frameSeconds(_ i: Int) -> Double? {
        guard placement.indices.contains(i), let t = placement[i] else { return nil }
        return Double(t) * timeBase.doubleValue
    }

    /// The `flips` array.
    public var flipsJSON: JSONValue {
        .array(
            timeline.flips.map { f in
                .object([
                    ("start_slot", .int(f.startSlot)), ("start_s", .double(slotSeconds(f.startSlot), decimals: 6)),
                    ("end_slot", .int(f.startSlot + f.slots)), ("end_s", .double(slotSeconds(f.startSlot + f.slots), decimals: 6)),
                    ("duration_ms", .double(slotsMS(f.slots), decimals: 3)),
                    ("cfr_frames", .int(f.slots)),
                    ("source_frames", .int(Int64(f.sourceFrames.count))),
                    ("source_duration_ms", .optional(f.sourceDuration) { .double(Double($0) * timeBase.doubleValue * 1000, decimals: 3) }),
                    ("facing", .string(name(f.facing))),
                    ("sources", .array(f.sourceFrames.map { .int(Int64($0)) })),
                    ("smeared_sources", .array(f.smearedFrames.map { .int(Int64($0)) })),
                    ("lost_edge_sources", .array(f.lostEdgeFrames.map { .int(Int64($0)) }))
                ])
            })
    }

    /// The `unknown` array: stretches of the grid whose facing is not established, with the reason.
    public var unknownJSON: JSONValue {
        .array(
            timeline.unknownStretches.map { u in
                .object([
                    ("start_slot", .int(u.firstSlot)), ("start_s", .double(slotSeconds(u.firstSlot), decimals: 6)),
                    ("end_slot", .int(u.firstSlot + u.slots)), ("end_s", .double(slotSeconds(u.firstSlot + u.slots), decimals: 6)),
                    ("duration_ms", .double(slotsMS(u.slots), decimals: 3)), ("reason", .string(u.reason?.rawValue ?? "unknown")),
                    ("sources", .array(u.sources.map { .int(Int64($0)) }))
                ])
            })
    }

    /// The `undecided` array: changes of facing that could be neither a flip nor a turn, with why.
    public var undecidedJSON: JSONValue {
        .array(
            timeline.undecided.map { u in
                .object([
                    ("start_slot", .int(u.startSlot)), ("start_s", .double(slotSeconds(u.startSlot), decimals: 6)),
                    ("duration_ms", .double(slotsMS(u.slots), decimals: 3)),
                    ("facing", .string(name(u.facing))), ("sources", .array(u.sourceFrames.map { .int(Int64($0)) })),
                    ("why", .string(u.why.rawValue))
                ])
            })
    }

    /// The `turns` array.
    public var turnsJSON: JSONValue {
        .array(
            timeline.turns.map {
                .object([
                    ("slot", .int($0.slot)), ("at_s", .double(slotSeconds($0.slot), decimals: 6)), ("facing", .string(name($0.facing)))
                ])
            })
    }

    /// The `orientation` object; `includeFrames` adds every frame's verdict.
    public func json(includeFrames: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("mode", .string(templateMode ? "template" : "auto")),
            ("template_scale", .optional(templateScale) { .double($0, decimals: 3) }),
            ("working_scale", .int(Int64(workingFactor))),
            (
                "sprite",
                .optional(spriteRect) { r in
                    .object([
                        ("x", .int(Int64(r.x))), ("y", .int(Int64(r.y))), ("width", .int(Int64(r.width))), ("height", .int(Int64(r.height)))
                    ])
                }
            ),
            ("sprite_located", .bool(timeline.spriteLocated)),
            ("first_mirror_event_frame", .optional(firstEventFrame) { .int(Int64($0)) }),
            ("initial_facing", .optional(timeline.initialFacing) { .string(name($0)) })
        ]
        if includeFrames {
            members.append(
                (
                    "frames",
                    .array(
                        orientations.map { o in
                            .object([
                                ("index", .int(Int64(o.index))), ("time_s", .optional(frameSeconds(o.index)) { .double($0, decimals: 6) }),
                                ("facing", .string(name(o.facing))), ("measured", .bool(o.measured)),
                                ("confidence", .optional(o.confidence) { .double(Double($0), decimals: 3) }),
                                ("reason", .optional(o.reason) { .string($0.rawValue) }),
                                ("\(name(.canonical))_score", .optional(o.canonicalScore) { .double(Double($0), decimals: 3) }),
                                ("\(name(.mirrored))_score", .optional(o.mirroredScore) { .double(Double($0), decimals: 3) }),
                                ("x", .optional(o.position) { .int(Int64($0.x * workingFactor)) }),
                                ("y", .optional(o.position) { .int(Int64($0.y * workingFactor)) })
                            ])
                        })
                ))
        }
        return .object(members)
    }

    /// The widest label of the section ("Undecided"), so its tables line up.
    static let labelWidth = 9

    /// Where the sprite is and which way it faces, frame by frame, in a few lines.
    public var text: String {
        var t = TextTable(labelWidth: OrientationReport.labelWidth)
        if templateMode {
            let scale = templateScale.map { String(format: "%.2f", $0) } ?? "–"
            t.row(
                "Sprite",
                spriteRect.map { "template matched at scale \(scale), last seen at \($0.x),\($0.y) (\($0.width)x\($0.height) px)" }
                    ?? "template not found in any frame")
        } else if let first = firstEventFrame, let r = spriteRect {
            t.row(
                "Sprite",
                "found by its first mirror event at frame #\(first)\(frameSeconds(first).map { " (\(Format.seconds($0)))" } ?? ""); last seen at \(r.x),\(r.y) (\(r.width)x\(r.height) px)"
            )
        } else {
            t.row("Sprite", "not located: no mirror event between any two frames (auto mode finds the sprite by a mirror flip)")
        }
        t.row("Facing", facingRuns())
        t.row("Flips", timeline.flips.isEmpty ? "none" : Format.count(timeline.flips.count, "transient mirror flip"))
        var out = t.rendered
        if !timeline.flips.isEmpty {
            var f = TextTable(indent: 2)
            f.header(["start", "end", "duration", "cfr frames", "source frames", "source duration", "facing"])
            for flip in timeline.flips {
                f.columns([
                    Format.seconds(slotSeconds(flip.startSlot)), Format.seconds(slotSeconds(flip.startSlot + flip.slots)),
                    Format.milliseconds(slotsMS(flip.slots)), "\(flip.slots) at \(rate.compactDescription) fps",
                    "\(flip.sourceFrames.count) ("
                        + flip.sourceFrames.map { "#\($0)" + (flip.smearedFrames.contains($0) ? "*" : "") }.joined(separator: ", ") + ")",
                    flip.sourceDuration.map { Format.milliseconds(Double($0) * timeBase.doubleValue * 1000) } ?? "–", name(flip.facing)
                ])
            }
            out += f.rendered
            if timeline.flips.contains(where: { !$0.smearedFrames.isEmpty }) {
                out += "  * caught mid-flip: both orientations fit about equally (the flip's edge is known to within it)\n"
            }
            for flip in timeline.flips where !flip.lostEdgeFrames.isEmpty {
                let frames = flip.lostEdgeFrames.map { "#\($0)" }.joined(separator: ", ")
                out +=
                    "  the flip at \(Format.seconds(slotSeconds(flip.startSlot))) is next to \(frames), where the sprite was lost:"
                    + " it may have lasted that frame longer\n"
            }
        }
        var turns = TextTable(labelWidth: OrientationReport.labelWidth)
        turns.row(
            "Turns",
            timeline.turns.isEmpty
                ? "none" : timeline.turns.map { "\(Format.seconds(slotSeconds($0.slot))) → \(name($0.facing))" }.joined(separator: ", "))
        let unknown = timeline.unknownStretches
        if !unknown.isEmpty {
            let listed = unknown.map {
                "\(Format.seconds(slotSeconds($0.firstSlot)))–\(Format.seconds(slotSeconds($0.firstSlot + $0.slots))) \($0.reason?.rawValue ?? "unknown")"
            }
            turns.row(
                "Unknown",
                "facing not established for \(Format.milliseconds(slotsMS(unknown.reduce(0) { $0 + $1.slots }))): "
                    + Format.list(listed, limit: 5))
        }
        if !timeline.undecided.isEmpty {
            turns.row(
                "Undecided",
                Format.list(
                    timeline.undecided.map {
                        "\(Format.seconds(slotSeconds($0.startSlot))) \(name($0.facing)) for \(Format.milliseconds(slotsMS($0.slots))) \($0.why.rawValue)"
                    }))
        }
        return out + turns.rendered
    }

    /// `#0–#6 initial · #7 mirrored (0.61) · #8–#86 initial`
    func facingRuns() -> String {
        var parts: [String] = []
        var i = 0
        while i < orientations.count {
            var j = i
            while j + 1 < orientations.count && orientations[j + 1].facing == orientations[i].facing
                && orientations[j + 1].measured == orientations[i].measured
                && orientations[j + 1].reason == orientations[i].reason
            { j += 1 }
            let range = i == j ? "#\(orientations[i].index)" : "#\(orientations[i].index)–#\(orientations[j].index)"
            var part = "\(range) \(name(orientations[i].facing))"
            if !orientations[i].measured { part += " (assumed)" }
            if let reason = orientations[i].reason { part += " (\(reason.rawValue))" }
            let confidences = orientations[i...j].compactMap(\.confidence)
            if orientations[i].facing != .unknown, let low = confidences.min(), i == j || low < 0.75 {
                part += String(format: " (confidence %.2f)", low)
            }
            parts.append(part)
            i = j + 1
        }
        if parts.count > 12 { parts = Array(parts.prefix(6)) + ["…"] + Array(parts.suffix(5)) }
        return parts.joined(separator: " · ")
    }
}
