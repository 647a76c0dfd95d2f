import MediaIO
import RecordingAnalysis

/// `analyze-recording cfr RECORDING [--fps 60] [--json FILE|-] [--output OUT.mov]`
struct CFRCommand: Command {
    static let name = "cfr"
    static let abstract =
        "Resample to a constant frame rate exactly as ffmpeg does (fps filter or -fps_mode cfr): the slot map, repeats, drops, and where ffmpeg differs."
    static let usage = "cfr RECORDING"
    static let options =
        GridOptions.specs + [WorkLimitOption.spec] + [
            OptionSpec("fps", value: "RATE", help: "Output rate: an integer or a rational such as 30000/1001 (default 60)."),
            OptionSpec(
                "json", value: "FILE|-", help: "Write the JSON document, slot map included, to FILE or to stdout ('-': no text report)."),
            OptionSpec(
                "output", value: "OUT.mov", help: "Also write the constant-rate video (pts k in time base 1/RATE), re-encoded with H.264.")
        ]

    let recording: String
    let rate: Rational
    let grid: GridOptions
    let json: String?
    let output: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        recording = try arguments.single("RECORDING")
        rate = try parseRate(arguments.values["fps"])
        grid = try GridOptions(arguments)
        json = arguments.values["json"]
        output = arguments.values["output"]
        if json == "" { throw UsageError("--json needs a file name or '-'") }
        if let output, output.isEmpty || output == "-" { throw UsageError("--output needs a file name") }
        if let output, output == recording { throw UsageError("--output would overwrite the recording") }
    }

    func run() throws -> ExitStatus {
        let grid = try Grid(recording: recording, rate: rate, rule: self.grid.rule)
        let report = grid.report
        let timestamps = TimestampReport(info: grid.scan.info, audit: grid.audit, integrity: grid.scan.integrity)
        var written: String?
        if let output {
            let codec = try FrameExtraction.writeConstantRate(path: recording, map: grid.map, to: output)
            written = "Wrote \(output): \(grid.map.slotCount) frames at \(rate.compactDescription) fps, \(codec.rawValue)"
        }
        if let json {
            try writeJSON(ReportDocument.cfr(timestamps: timestamps, cfr: report), to: json)
        }
        if json != "-" {
            var text = timestamps.recordingText + "\n" + report.summaryText
            text += "\nSlot map (\(grid.map.runs.count) runs; per slot in the JSON)\n" + report.runsText
            if let written { text += "\n" + written + "\n" }
            Console.out(text)
        } else if let written {
            Console.error(written + "\n")
        }
        return .success
    }
}
