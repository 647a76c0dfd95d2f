/// Renders a parsed probe log for people and for JSON.
public struct LogReport: Sendable {
    public let log: ProbeLog
    public let path: String
    public let transientMS: Double
    /// Each formula's predicted flips, worked out once (a log of a million evaluations predicts
    /// hundreds of thousands), or shared with the cross-check that already has them.
    public let predicted: [ProbeLog.Formula: [ProbeLog.PredictedFlip]]

    /// - Parameter predicted: the formulas' predicted flips, when a cross-check already worked them out.
    public init(log: ProbeLog, path: String, transientMS: Double = 500, predicted: [ProbeLog.Formula: [ProbeLog.PredictedFlip]]? = nil) {
        self.log = log
        self.path = path
        self.transientMS = transientMS
        self.predicted =
            predicted
            ?? Dictionary(uniqueKeysWithValues: ProbeLog.Formula.allCases.map { ($0, log.predictedFlips($0, transientMS: transientMS)) })
    }

    func predictionJSON(_ p: ProbeLog.PredictedFlip) -> JSONValue {
        .object([
            ("start_wall", .optional(p.startWall) { .double($0, decimals: 5) }),
            ("start_since_origin_s", .double(p.startSinceOrigin, decimals: 5)),
            ("evaluations", .int(Int64(p.evaluations))),
            ("first_line", .int(Int64(log.evaluations[p.firstEvaluation].line))),
            ("duration_ms", .double(p.durationMS, decimals: 1))
        ])
    }

    /// The predictions of both formulas.
    public var predictedJSON: JSONValue {
        .object(
            ProbeLog.Formula.allCases.map { f in
                let flips = predicted[f] ?? []
                return (f.rawValue, .rows(count: flips.count) { [self] i in predictionJSON(flips[i]) })
            }
        )
    }

    /// The `log` object.
    public func json(includeEvaluations: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("path", .string(path)),
            ("style", .string(log.style.rawValue)),
            ("process", .optional(log.probeProcess) { .string($0) }),
            ("source", .optional(log.probeSource) { .string($0) }),
            ("other_source_lines", .int(Int64(log.otherSourceLines))),
            (
                "log_clock_offset",
                .optional(log.logClockOffset) { o in
                    .object([
                        ("median_ms", .double(o.median * 1000, decimals: 3)), ("spread_ms", .double(o.spread * 1000, decimals: 3)),
                        ("evaluations", .int(Int64(o.count)))
                    ])
                }
            ),
            ("evaluations", .int(Int64(log.evaluations.count))),
            ("walk_origin", .optional(log.walkOrigin) { .double($0, decimals: 5) }),
            ("skew_samples", .int(Int64(log.baseline.count))),
            ("skew_negative", .int(Int64(log.baseline.negative))),
            ("evaluation_skew_negative", .int(Int64(log.negativeEvaluationSkews))),
            ("ignored_lines", .int(Int64(log.ignoredLines))),
            ("problems", .array(log.problems.map { .object([("line", .int(Int64($0.line))), ("reason", .string($0.reason))]) })),
            ("predicted", predictedJSON)
        ]
        if includeEvaluations {
            members.append(
                (
                    "evaluation_list",
                    .rows(count: log.evaluations.count) { [log] i in
                        let e = log.evaluations[i]
                        return .object([
                            ("line", .int(Int64(e.line))), ("skew", .double(e.skew, decimals: 5)),
                            ("elapsed", .double(e.elapsed, decimals: 5)),
                            ("t", .optional(log.walkOrigin) { .double($0 + e.elapsed, decimals: 5) }),
                            ("now", .optional(log.walkOrigin) { .double($0 + e.nowSinceOrigin, decimals: 5) }),
                            ("logged_at", .optional(e.loggedAt) { .double($0, decimals: 6) }),
                            ("old", .double(e.oldPhase, decimals: 5)), ("old_facing", .string(e.oldFacing.rawValue)),
                            ("new", .double(e.newPhase, decimals: 5)), ("new_facing", .string(e.newFacing.rawValue))
                        ])
                    }
                ))
        }
        return .object(members)
    }

    var styleName: String {
        switch log.style {
        case .plain: return "plain"
        case .xcodeConsole: return "Xcode console"
        case .logDefault: return "log show/stream (default style)"
        case .logCompact: return "log show/stream --style compact"
        case .logSyslog: return "log show/stream --style syslog"
        case .logJSON: return "log show --style json"
        case .logNDJSON: return "log stream --style ndjson"
        }
    }

    /// A few lines: what the log says.
    public var text: String {
        var t = TextTable()
        t.row("Log", "\(path): \(Format.count(log.evaluations.count, "evaluation")), \(log.ignoredLines) other lines ignored")
        if log.style != .plain {
            var from = "\(styleName) lines"
            if let process = log.probeProcess { from += " from \(process)" }
            if let source = log.probeSource { from += " [\(source)]" }
            if log.otherSourceLines > 0 {
                from += "; \(Format.count(log.otherSourceLines, "probe-like line")) from other processes or categories ignored"
            }
            t.row("Format", from)
        }
        if let o = log.logClockOffset {
            t.row(
                "Log clock",
                String(
                    format: "the log's timestamps run %+.1f ms from the probe's wall clock (median of %d, spread %.1f ms)",
                    o.median * 1000, o.count, o.spread * 1000))
        }
        t.row(
            "Origin",
            log.walkOrigin.map { String(format: "walkOrigin = %.5f s since 2001-01-01", $0) }
                ?? "no armed walkOrigin line: wall times are relative")
        if log.baseline.count > 0 {
            var line =
                "\(log.baseline.negativeIsLowerBound ? "at least " : "")\(log.baseline.negative) of \(log.baseline.count) baseline skews negative"
            if let a = log.baseline.closestToZero, let b = log.baseline.farthestFromZero {
                line += String(format: " (%+.1f … %+.1f ms)", a * 1000, b * 1000)
            }
            line += "; \(log.negativeEvaluationSkews) of \(log.evaluations.count) evaluation skews negative"
            if log.baseline.negative == log.baseline.count && log.baseline.count > 0 { line += ": timeline.date lags Date()" }
            t.row("Skew", line)
        } else {
            t.row("Skew", "\(log.negativeEvaluationSkews) of \(log.evaluations.count) evaluation skews negative (no baseline)")
        }
        if let first = log.evaluations.first {
            t.row(
                "First",
                String(
                    format: "elapsed %+.1f ms: old %.5f %@, new %.5f %@", first.elapsed * 1000, first.oldPhase,
                    first.oldFacing == .right ? "→R" : "←L", first.newPhase, first.newFacing == .right ? "→R" : "←L"))
        }
        for f in ProbeLog.Formula.allCases {
            let p = predicted[f] ?? []
            let label = f == .old ? "Old predicts" : "New predicts"
            t.row(
                label,
                p.isEmpty
                    ? "no flip"
                    : Format.list(
                        p.prefix(Limits.textRows + 1).map {
                            "a \(Format.milliseconds($0.durationMS)) flip (\(Format.count($0.evaluations, "evaluation")) from line \(log.evaluations[$0.firstEvaluation].line))"
                        }, limit: Limits.textRows, total: p.count))
        }
        for problem in log.problems.prefix(20) { t.row("Problem", "line \(problem.line): \(problem.reason)") }
        if log.problems.count > 20 { t.row("Problem", "… and \(log.problems.count - 20) more (all in the JSON)") }
        return t.rendered
    }
}
