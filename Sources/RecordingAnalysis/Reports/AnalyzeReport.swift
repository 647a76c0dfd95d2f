/// The full `analyze` report: recording, timestamp audit, grid, sprite, flips, log, cross-check, verdict.
public struct AnalyzeReport: Sendable {
    public let timestamps: TimestampReport
    public let cfr: CFRReport
    public let orientation: OrientationReport
    public let log: LogReport?
    /// What the analysis concluded: flips, cross-check, wall clock, verdict.
    public let findings: CaptureFindings
    public var crossCheck: CrossCheck? { findings.crossCheck }
    public var verdict: CaptureVerdict { findings.verdict }
    public var wallClock: WallClockMapping? { findings.wallClock }
    public var predictedMoments: [PredictedMoment] { findings.predictedMoments }
    /// The verdict as one line.
    public var verdictSummary: String { verdict.summary(flipDescription: Self.describeFlips(orientation.timeline)) }

    public init(timestamps: TimestampReport, cfr: CFRReport, orientation: OrientationReport, log: LogReport?, findings: CaptureFindings) {
        self.timestamps = timestamps
        self.cfr = cfr
        self.orientation = orientation
        self.log = log
        self.findings = findings
    }

    /// `1 transient mirror flip: 66.7 ms at 4.017 s (4 frames at 60 fps, 1 source frame)`
    public static func describeFlips(_ timeline: OrientationTimeline) -> String {
        let parts = timeline.flips.map { f -> String in
            let ms = Double(f.slots) * 1000 * timeline.map.rate.inverse.doubleValue
            return
                "\(Format.milliseconds(ms)) at \(Format.seconds(timeline.map.seconds(ofSlot: f.startSlot))) (\(Format.count(Int(f.slots), "frame")) at \(timeline.map.rate.compactDescription) fps, \(Format.count(f.sourceFrames.count, "source frame")))"
        }
        return Format.count(timeline.flips.count, "transient mirror flip") + ": " + parts.joined(separator: ", ")
    }

    /// The `cross_check` object.
    public var crossCheckJSON: JSONValue {
        guard let c = crossCheck, let log else { return .null }
        let disagreeing = c.disagreeingPairs
        return .object([
            ("verdict", .string(c.verdict.rawValue)),
            ("hidden_by_unknown", .bool(c.hiddenByUnknown)),
            ("tolerance_ms", .double(c.toleranceMS, decimals: 1)),
            (
                "log",
                .object([
                    ("path", .string(log.path)), ("evaluations", .int(Int64(log.log.evaluations.count))),
                    ("skew_negative", .int(Int64(log.log.baseline.negative))), ("skew_samples", .int(Int64(log.log.baseline.count))),
                    ("evaluation_skew_negative", .int(Int64(log.log.negativeEvaluationSkews))),
                    ("walk_origin", .optional(log.log.walkOrigin) { .double($0, decimals: 5) }),
                    ("problems", .int(Int64(log.log.problems.count)))
                ])
            ),
            ("predicted", log.predictedJSON),
            (
                "pairs",
                .rows(count: c.pairs.count) { [pairs = c.pairs] i in
                    let p = pairs[i]
                    return .object([
                        ("formula", .string(p.formula.rawValue)),
                        ("video_ms", .optional(p.video) { .double($0.durationMS, decimals: 1) }),
                        ("video_start_s", .optional(p.video) { .double($0.startSeconds, decimals: 6) }),
                        ("log_ms", .optional(p.log) { .double($0.durationMS, decimals: 1) }),
                        ("difference_ms", .optional(p.differenceMS) { .double($0, decimals: 1) }),
                        ("onset_difference_ms", .optional(p.onsetDifferenceMS) { .double($0, decimals: 1) }),
                        ("agrees", .bool(p.agrees)),
                        ("hidden", .bool(p.hidden))
                    ])
                }
            ),
            (
                "disagreements",
                .rows(count: disagreeing.count) { [c, disagreeing] i in
                    .string(c.disagreement(c.pairs[disagreeing[i]]))
                }
            ),
            (
                "unlogged_turns",
                .rows(count: findings.unloggedTurns.count) { [turns = findings.unloggedTurns, map = findings.timeline.map] i in
                    .object([("slot", .int(turns[i].slot)), ("at_s", .double(map.seconds(ofSlot: turns[i].slot), decimals: 6))])
                }
            )
        ])
    }

    /// The report for a person; `color` adds ANSI colour to the verdict line.
    public func text(color: Bool) -> String {
        var out = timestamps.recordingText + "\n" + timestamps.summaryText
        let consequence = timestamps.consequenceText
        if !consequence.isEmpty { out += consequence + "\n" }
        out += "\n" + cfr.summaryText + "\n" + orientation.text
        if let log, let c = crossCheck {
            out += "\n" + log.text + "\n"
            var t = TextTable()
            t.row("Cross-check", "\(c.verdict.rawValue) (tolerance \(Format.milliseconds(c.toleranceMS)))")
            out += t.rendered
            var pairs = TextTable(indent: 2)
            pairs.header(["formula", "video", "log", "difference", "agrees"])
            for p in c.pairs.prefix(Limits.textRows) {
                pairs.columns([
                    p.formula.rawValue, p.video.map { Format.milliseconds($0.durationMS) } ?? "no flip",
                    p.log.map { Format.milliseconds($0.durationMS) } ?? "no flip",
                    p.differenceMS.map { Format.milliseconds($0) } ?? "–", p.agrees ? "yes" : p.hidden ? "unknown frames" : "no"
                ])
            }
            if c.pairs.count > Limits.textRows {
                pairs.columns(["…", "\(c.pairs.count - Limits.textRows) more pairs in the JSON", "", "", ""])
            }
            if !c.pairs.isEmpty { out += pairs.rendered }
            for turn in findings.unloggedTurns.prefix(Limits.textRows) {
                out +=
                    "  not in the log: the sprite in view turns at \(Format.seconds(findings.timeline.map.seconds(ofSlot: turn.slot))); neither formula turns the probe's sprite then\n"
            }
            if c.verdict == .inconsistent || c.hiddenByUnknown {
                for p in c.pairs.lazy.filter({ !$0.agrees }).prefix(Limits.textRows) {
                    out += "  \(p.hidden ? "unseen" : "disagrees"): \(c.disagreement(p))\n"
                }
                let count = c.pairs.lazy.filter { !$0.agrees }.count
                if count > Limits.textRows { out += "  … and \(count - Limits.textRows) more disagreements in the JSON\n" }
            }
            var w = TextTable()
            if let m = wallClock {
                w.row("Wall clock", "\(m.source.rawValue), \(m.uncertaintyText): \(m.basis)")
                for p in predictedMoments.prefix(Limits.textRows) {
                    w.row(
                        "Predicted",
                        "\(p.formula.rawValue): \(Format.milliseconds(p.durationMS)) flip at wall \(p.wall.iso8601) → \(Format.seconds(p.seconds)), "
                            + "slots \(p.firstSlot)–\(p.lastSlot), timeline facing \(p.seenText)")
                }
                if predictedMoments.count > Limits.textRows {
                    w.row("Predicted", "… and \(predictedMoments.count - Limits.textRows) more in the JSON")
                }
            } else {
                w.row("Wall clock", "no mapping: no flip both show, no creation_time (--wall-origin gives one)")
            }
            out += w.rendered
        }
        return out + "\n" + verdictLine(color: color)
    }

    /// `Verdict: PASS …`, green or red on a terminal (yellow when undetermined).
    public func verdictLine(color: Bool) -> String {
        let line = "Verdict: " + TextTable.terminalSafe(verdictSummary)
        guard color else { return line + "\n" }
        let code = verdict.passed ? "\u{1B}[32m" : verdict.undetermined ? "\u{1B}[33m" : "\u{1B}[31m"
        return code + line + "\u{1B}[0m\n"
    }
}
