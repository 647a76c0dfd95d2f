import MediaIO
import RecordingAnalysis

/// `analyze-recording orientation RECORDING [--template PNG] [--roi X,Y,W,H] [--fps 60] [--transient-ms 500] [--json FILE|-]`
struct OrientationCommand: Command {
    static let name = "orientation"
    static let abstract = "Which way the sprite faces in every frame; transient mirror flips and real turns."
    static let usage = "orientation RECORDING"
    static let options =
        DetectionOptions.specs + [
            OptionSpec(
                "json", value: "FILE|-", help: "Write the JSON document (every frame's facing) to FILE, or to stdout ('-': no text report)."
            )
        ]

    let recording: String
    let detection: DetectionOptions
    let json: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        recording = try arguments.single("RECORDING")
        detection = try DetectionOptions(arguments)
        json = arguments.values["json"]
        if json == "" { throw UsageError("--json needs a file name or '-'") }
    }

    func run() throws -> ExitStatus {
        let analysis = try detection.analyse(recording)
        let report = analysis.orientationReport
        if let json {
            try writeJSON(
                ReportDocument.orientation(timestamps: analysis.timestampReport, cfr: analysis.cfrReport, orientation: report), to: json)
        }
        if json != "-" {
            Console.out(analysis.timestampReport.recordingText + "\n" + analysis.cfrReport.gridLine + report.text)
        }
        // Flips, changes that could not be decided, and a damaged capture are findings, as in analyze.
        let t = analysis.timeline
        return t.flips.isEmpty && t.undecided.isEmpty && analysis.scan.integrity.isIntact ? .success : .findings
    }
}

/// The options shared by `orientation` and `analyze`.
struct DetectionOptions {
    static let specs =
        [
            OptionSpec(
                "template", value: "PNG",
                help:
                    "Sprite facing right (RGBA or RGB) at the recording's pixel scale; without it the sprite is found by its first mirror flip."
            ),
            OptionSpec("roi", value: "X,Y,W,H", help: "Search only this rectangle (recording pixels)."),
            OptionSpec(
                "fps", value: "RATE",
                help:
                    "Rate of the constant-rate grid flips are measured on (default: the display refresh rate detected from the frame intervals, else 60)."
            ),
            OptionSpec(
                "transient-ms", value: "MS", help: "A facing change that reverts within this many ms is a flip, not a turn (default 500)."),
            OptionSpec("full-decode", help: "Decode with the in-loop deblocking filter (slower; by default it is skipped for analysis).")
        ] + GridOptions.specs + [WorkLimitOption.spec]

    let template: String?
    let roi: PixelRect?
    /// nil: detect the display's refresh rate.
    let rate: Rational?
    let transientMS: Double
    let fullDecode: Bool
    let grid: GridOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        fullDecode = arguments.flags.contains("full-decode")
        grid = try GridOptions(arguments)
        template = arguments.values["template"]
        if template == "" { throw UsageError("--template needs a PNG file") }
        if let text = arguments.values["roi"] {
            guard let r = PixelRect(parsing: text) else {
                throw UsageError("--roi takes X,Y,W,H in pixels, such as 0,0,390,300, not '\(text)'")
            }
            roi = r
        } else {
            roi = nil
        }
        rate = try arguments.values["fps"].map { text throws(UsageError) in try parseRate(text) }
        transientMS = try parseTransient(arguments.values["transient-ms"])
    }

    /// - Parameter onFirstMirrored: told, during the decoding pass, the first frame the detector
    ///   reads as mirrored (see `CaptureAnalysis.init`).
    func analyse(_ recording: String, onFirstMirrored: ((Int) -> Void)? = nil) throws -> CaptureAnalysis {
        try CaptureAnalysis(
            recording: recording, rate: rate, rule: grid.rule, templatePath: template, roi: roi, transientMS: transientMS,
            fullDecode: fullDecode, onFirstMirrored: onFirstMirrored)
    }
}

extension CaptureAnalysis {
    var timestampReport: TimestampReport { TimestampReport(info: scan.info, audit: audit, integrity: scan.integrity) }

    var cfrReport: CFRReport {
        CFRReport(resampler: resampler, frames: scan.frames, rateSource: rateSource, ffmpegGrid: ffmpegGrid, sizeChanges: scan.sizeChanges)
    }

    var orientationReport: OrientationReport {
        OrientationReport(
            timeline: timeline, orientations: detection.orientations, frames: scan.frames, timeBase: scan.info.timeBase,
            placement: resampler.placement, templateMode: detection.templateMode,
            templateScale: detection.templateScale, spriteRect: detection.spriteRect,
            firstEventFrame: detection.firstEventFrame, workingFactor: workingFactor)
    }
}
