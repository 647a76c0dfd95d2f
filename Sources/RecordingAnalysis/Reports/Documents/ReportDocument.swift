/// Every JSON document the tool writes, declared in one place: each subcommand's top-level
/// members in order, under one schema version. The sections come from the reports; the mirrors in
/// this folder (`AnalyzeDocument`, …) read them back for `batch` and the tests.
public enum ReportDocument {
    /// Raised when a member is renamed, removed or changes meaning; adding a member keeps it.
    public static let schemaVersion = 1

    private static func document(_ members: [(String, JSONValue)]) -> JSONValue {
        .object([("schema_version", .int(Int64(schemaVersion)))] + members)
    }

    /// `analyze --json`: the whole investigation.
    public static func analyze(_ report: AnalyzeReport, includeCFRMap: Bool) -> JSONValue {
        document([
            ("recording", report.timestamps.recordingJSON),
            ("timestamps", report.timestamps.timestampsJSON(includeFrames: false)),
            ("cfr", report.cfr.json(includeMap: includeCFRMap)),
            ("orientation", report.orientation.json(includeFrames: false)),
            ("flips", report.orientation.flipsJSON),
            ("turns", report.orientation.turnsJSON),
            ("unknown", report.orientation.unknownJSON),
            ("undecided", report.orientation.undecidedJSON),
            ("cross_check", report.crossCheckJSON),
            ("wall_clock", .optional(report.wallClock) { $0.json }),
            ("predicted_moments", .array(report.predictedMoments.map(\.json))),
            (
                "verdict",
                .object([
                    ("passed", .bool(report.verdict.passed)), ("undetermined", .bool(report.verdict.undetermined)),
                    ("expect", .optional(report.verdict.expectation) { .string($0.rawValue) }),
                    ("cross_check", .optional(report.crossCheck) { .string($0.verdict.rawValue) }),
                    ("sprite_identity", .string(report.findings.spriteIdentity.rawValue)),
                    ("summary", .string(report.verdictSummary))
                ])
            ),
            ("exit_code", .int(Int64(report.verdict.exitCode)))
        ])
    }

    /// `orientation --json`: every frame's facing, flips, turns and what could not be read.
    public static func orientation(timestamps: TimestampReport, cfr: CFRReport, orientation: OrientationReport) -> JSONValue {
        document([
            ("recording", timestamps.recordingJSON),
            ("cfr", cfr.json(includeMap: false)),
            ("orientation", orientation.json(includeFrames: true)),
            ("flips", orientation.flipsJSON),
            ("turns", orientation.turnsJSON),
            ("unknown", orientation.unknownJSON),
            ("undecided", orientation.undecidedJSON)
        ])
    }

    /// `timestamps --json`: the recording and its timestamp audit, every frame included.
    public static func timestamps(_ report: TimestampReport) -> JSONValue {
        document([("recording", report.recordingJSON), ("timestamps", report.timestampsJSON())])
    }

    /// `cfr --json`: the recording and its constant-rate grid, slot by slot.
    public static func cfr(timestamps: TimestampReport, cfr: CFRReport) -> JSONValue {
        document([("recording", timestamps.recordingJSON), ("cfr", cfr.json(includeMap: true))])
    }

    /// `log --json`: the probe log, every evaluation included.
    public static func log(_ report: LogReport) -> JSONValue {
        document([("log", report.json(includeEvaluations: true))])
    }
}
