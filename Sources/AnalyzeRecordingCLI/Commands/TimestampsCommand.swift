import MediaIO
import RecordingAnalysis

/// `analyze-recording timestamps RECORDING [--json FILE|-]`
struct TimestampsCommand: Command {
    static let name = "timestamps"
    static let abstract = "Audit the video stream's timestamps: non-monotonic pts, duplicates, VFR, gaps."
    static let usage = "timestamps RECORDING"
    static let options =
        [WorkLimitOption.spec] + [
            OptionSpec(
                "decode",
                help:
                    "Decode every frame (default: H.264 and HEVC are read without decoding, ordered by their slice headers; other codecs are always decoded)."
            ),
            OptionSpec(
                "json", value: "FILE|-",
                help: "Write the JSON document (every frame) to FILE, or to stdout with '-' (the text report is then not printed).")
        ]

    let recording: String
    let json: String?
    let decode: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        recording = try arguments.single("RECORDING")
        json = arguments.values["json"]
        decode = arguments.flags.contains("decode")
        if json == "" { throw UsageError("--json needs a file name or '-'") }
    }

    func run() throws -> ExitStatus {
        let scan = decode ? try TimingScan(path: recording) : try TimingScan.withoutDecoding(path: recording)
        let report = TimestampReport(info: scan.info, audit: scan.audit, integrity: scan.integrity)
        if let json { try writeJSON(ReportDocument.timestamps(report), to: json) }
        if json != "-" { Console.out(report.text) }
        // Pts that run backwards, repeat or are missing, and a damaged capture, are findings a CI
        // job must act on (the one exit-code rule: 0 nothing found, 1 findings).
        return scan.integrity.isIntact && !scan.audit.hasPTSFaults ? .success : .findings
    }
}
