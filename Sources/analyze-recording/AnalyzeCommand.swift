import MediaIO
import RecordingAnalysis

/// `analyze-recording [analyze] RECORDING [--json FILE|-]`: the default subcommand.
struct AnalyzeCommand: Command {
    static let name = "analyze"
    static let abstract = "Analyse a capture: recording facts and timestamp audit (default subcommand)."
    static let synopsis = "[analyze] RECORDING [--json FILE|-]"
    static let options = [
        OptionSpec("json", value: "FILE|-", help: "Write the JSON document to FILE, or to stdout with '-' (the text report is then not printed)."),
    ]

    let recording: String
    let json: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        recording = try arguments.single("RECORDING")
        json = arguments.values["json"]
        if json == "" { throw UsageError("--json needs a file name or '-'") }
    }

    func run() throws -> ExitStatus {
        let scan = try TimingScan(path: recording)
        let report = TimestampReport(info: scan.info, audit: scan.audit, readError: scan.summary.readError)
        let document: JSONValue = .object([
            ("schema_version", .int(1)),
            ("recording", report.recordingJSON),
            ("timestamps", report.timestampsJSON(includeFrames: false)),
        ])
        if let json { try writeJSON(document, to: json) }
        if json != "-" {
            var text = report.recordingText + "\n" + report.summaryText
            let consequence = report.consequenceText
            if !consequence.isEmpty { text += "\n" + consequence + "\n" }
            Console.out(text)
        }
        return .success
    }
}
