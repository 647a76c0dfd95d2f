import Foundation
import MediaIO
import RecordingAnalysis

/// `analyze-recording log PROBE_LOG [--json FILE|-]`
struct LogCommand: Command {
    static let name = "log"
    static let abstract =
        "Parse a FlipProbe log (plain, Xcode console, or log show/stream in any style; '-' reads stdin): both clocks, both formulas, the flips each predicts."
    static let usage = "log PROBE_LOG|-"
    static let options = [
        OptionSpec("transient-ms", value: "MS", help: "A facing change that reverts within this many ms is a flip (default 500)."),
        OptionSpec("json", value: "FILE|-", help: "Write the JSON document (every evaluation) to FILE, or to stdout ('-': no text report).")
    ]

    let path: String
    let json: String?
    let transientMS: Double

    init(_ arguments: ParsedArguments) throws(UsageError) {
        path = try arguments.single("PROBE_LOG")
        json = arguments.values["json"]
        if json == "" { throw UsageError("--json needs a file name or '-'") }
        transientMS = try parseTransient(arguments.values["transient-ms"])
    }

    func run() throws -> ExitStatus {
        let log = try readProbeLog(path)
        let report = LogReport(log: log, path: path, transientMS: transientMS)
        if let json { try writeJSON(ReportDocument.log(report), to: json) }
        if json != "-" { Console.out(report.text) }
        return .success
    }
}

/// Parses `--transient-ms`; default 500.
func parseTransient(_ text: String?) throws(UsageError) -> Double {
    guard let text else { return 500 }
    guard let ms = Double(text), ms.isFinite, ms >= 1, ms <= 60_000 else {
        throw UsageError("--transient-ms must be a number of milliseconds from 1 to 60000, not '\(text)'")
    }
    return ms
}

/// Largest probe log read: logs are text, a few MB at most.
let maximumLogBytes = Limits.probeLogBytes

/// Reads and parses a probe log; a log without a single evaluation line is bad input (65).
func readProbeLog(_ path: String) throws -> ProbeLog {
    let handle: FileHandle
    if path == "-" {
        // Piped straight in: `log stream --style ndjson … | analyze-recording log -`.
        handle = FileHandle.standardInput
    } else {
        try InputFile.checkReadable(path, what: "a probe log")
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw CommandFailure(status: .noInput, message: "\(path): permission denied")
        }
        handle = file
    }
    defer { if path != "-" { try? handle.close() } }
    // The bytes are let go as soon as they are text: a large log is held once, not twice.
    let text: String = try {
        let data = (try? handle.read(upToCount: maximumLogBytes + 1)) ?? Data()
        guard data.count <= maximumLogBytes else {
            throw CommandFailure(
                status: .dataError,
                message: "\(path == "-" ? "standard input" : path): is larger than \(maximumLogBytes >> 20) MB, not a probe log")
        }
        return String(decoding: data, as: UTF8.self)
    }()
    let log = ProbeLog(text: text)
    guard !log.evaluations.isEmpty else {
        let why = log.problems.first.map { " (line \($0.line): \($0.reason))" } ?? ""
        throw CommandFailure(status: .dataError, message: "\(path): no FlipProbe evaluation line (skew=… elapsed=… | old=… | new=…)\(why)")
    }
    return log
}
