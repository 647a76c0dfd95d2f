import Foundation
import MediaIO
import RecordingAnalysis

/// `analyze-recording [analyze] RECORDING [--log PROBE_LOG] [--template PNG] [--roi X,Y,W,H] [--fps 60]
/// [--transient-ms 500] [--tolerance-ms 25] [--json FILE|-] [--evidence DIR] [--expect bug|fixed]`
struct AnalyzeCommand: Command {
    static let name = "analyze"
    static let abstract = "The whole investigation: timestamps, constant-rate grid, mirror flips, probe-log cross-check, verdict (default)."
    static let usage = "[analyze] RECORDING"
    static let options =
        DetectionOptions.specs + [
            OptionSpec(
                "log", value: "PROBE_LOG|-",
                help:
                    "The app's FlipProbe log (plain, Xcode console, or log show/stream output in any style; - reads stdin), to cross-check the flips against both formulas."
            ),
            OptionSpec(
                "json", value: "FILE|-", help: "Write the JSON document to FILE, or to stdout ('-': the text report is then not printed)."),
            OptionSpec("cfr-map", help: "Include the per-slot map in the JSON."),
            OptionSpec("evidence", value: "DIR", help: "Write filmstrips of each flip, a timeline, the JSON and an index.html into DIR."),
            OptionSpec(
                "wall-origin", value: "WALL",
                help:
                    "The wall time of the recording's first frame, to place the log's predicted flips exactly (else: a flip both show, or creation_time)."
            )
        ] + VerdictOptions.specs + CIOptions.specs

    let recording: String
    let detection: DetectionOptions
    let logPath: String?
    /// nil: 1.5 periods of the grid.
    let toleranceMS: Double?
    let json: String?
    let cfrMap: Bool
    let evidence: String?
    let expectation: CaptureVerdict.Expectation?
    let ci: CIOptions
    let wallOrigin: WallTime?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        recording = try arguments.single("RECORDING")
        detection = try DetectionOptions(arguments)
        logPath = arguments.values["log"]
        if logPath == "" { throw UsageError("--log needs a file") }
        let verdictOptions = try VerdictOptions(arguments)
        toleranceMS = verdictOptions.toleranceMS
        expectation = verdictOptions.expectation
        json = arguments.values["json"]
        if json == "" { throw UsageError("--json needs a file name or '-'") }
        cfrMap = arguments.flags.contains("cfr-map")
        evidence = arguments.values["evidence"]
        if evidence == "" { throw UsageError("--evidence needs a directory") }
        ci = try CIOptions(arguments)
        if let text = arguments.values["wall-origin"] {
            guard let w = WallTime(parsing: text) else {
                throw UsageError("--wall-origin takes a wall-clock time such as \(WallTime.acceptedForms), not '\(text)'")
            }
            wallOrigin = w
        } else {
            wallOrigin = nil
        }
    }

    func run() throws -> ExitStatus {
        let started = Date()
        // Read the log first: a bad log should fail before minutes of decoding.
        let log = try logPath.map(readProbeLog)
        // With evidence to write, the frames before the first flip are decoded beside the pass.
        let prefetch = evidence.map { _ in FramePrefetch(path: recording) }
        defer { prefetch?.cancel() }
        let analysis = try detection.analyse(recording) { first in
            prefetch?.start(before: first - AnalyzeCommand.prefetchLead)
        }
        let first = analysis.scan.frames.first?.pts.map { analysis.resampler.recordingClock.seconds(ofStreamTicks: $0) } ?? 0
        let findings = CaptureFindings(
            timeline: analysis.timeline, log: log,
            context: CaptureFindings.Context(
                expectation: expectation, toleranceMS: toleranceMS, transientMS: detection.transientMS,
                damage: analysis.scan.integrity.details, wallOrigin: wallOrigin,
                creationTime: analysis.scan.info.creationTime, firstFrameSeconds: first,
                templateGiven: analysis.orientationReport.templateMode))
        let report = AnalyzeReport(
            timestamps: analysis.timestampReport,
            cfr: analysis.cfrReport,
            orientation: analysis.orientationReport,
            log: log.map {
                LogReport(log: $0, path: logPath ?? "", transientMS: detection.transientMS, predicted: findings.crossCheck?.predicted)
            },
            findings: findings)
        let document = ReportDocument.analyze(report, includeCFRMap: cfrMap)
        if let json { try writeJSON(document, to: json) }
        if let evidence {
            try writeEvidence(report: report, analysis: analysis, document: document, to: evidence, prefetch: prefetch)
        }
        if json != "-" {
            let color = isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            Console.out(ci.quiet ? report.verdictLine(color: color) : report.text(color: color))
        }
        try ci.publish(
            CIChecks(report: report, capture: recording, evidence: evidence, seconds: Date().timeIntervalSince(started)),
            jsonOnStdout: json == "-")
        return findings.verdict.passed ? .success : .findings
    }

    /// Frames before the first mirrored one that the prefetch stops at: a flip's strip starts two
    /// grid slots before it, which a capture faster than the grid (120 Hz on 60) reaches further back.
    static let prefetchLead = 8

    private func writeEvidence(
        report: AnalyzeReport, analysis: CaptureAnalysis, document: JSONValue, to dir: String, prefetch: FramePrefetch?
    ) throws {
        try EvidenceFolder.prepare(dir)
        let timeline = analysis.timeline
        let map = timeline.map
        let info = analysis.scan.info
        let plan = EvidencePlan(
            timeline: timeline, predictedMoments: report.predictedMoments, wallClock: report.wallClock,
            spriteRect: report.orientation.spriteRect, width: info.shownWidth, height: info.shownHeight)
        // Each source frame is reduced to the tile sizes its strips need (and a close-up) as it is
        // decoded: memory holds small tiles, never every flip's full frames at once.
        typealias Picture = (tiles: [EvidencePlan.TileSize: RGBImage], closeUp: RGBImage?)
        let makePicture = { (source: Int, frame: VideoFrame) throws -> Picture in
            let image = try frame.rgbImage()
            var tiles: [EvidencePlan.TileSize: RGBImage] = [:]
            for size in plan.tileSizes[source] ?? [] {
                tiles[size] =
                    image.width == size.width && image.height == size.height
                    ? image : try FrameExtraction.scaled(image, width: size.width, height: size.height)
            }
            let closeUp = plan.closeUp.flatMap { image.cropped(to: $0, zoom: plan.closeUpZoom) }
            return (tiles: tiles, closeUp: closeUp)
        }
        let sources = Set(plan.tileSizes.keys)
        let pictures: [Int: Picture] =
            sources.isEmpty
            ? [:]
            : try prefetch?.frames(sources, timings: analysis.scan, make: makePicture)
                ?? FrameExtraction.rgbImages(path: recording, sources: sources, timings: analysis.scan, make: makePicture)
        var strips: [EvidencePage.Strip] = []
        for strip in plan.strips {
            var tiles: [RGBImage] = []
            var closeUps: [RGBImage] = []
            var borders: [Filmstrip.Color?] = []
            for (slot, mirrored) in zip(strip.slots, strip.mirrored) {
                guard let source = map.source(atSlot: slot), let picture = pictures[source], let tile = picture.tiles[strip.tileSize] else {
                    continue
                }
                tiles.append(tile)
                if let crop = picture.closeUp { closeUps.append(crop) }
                borders.append(mirrored ? Filmstrip.Color.highlight : nil)
            }
            guard !tiles.isEmpty else { continue }
            try PNGEncoder.write(Filmstrip.compose(tiles, borders: borders), to: dir + "/" + strip.file)
            strips.append(EvidencePage.Strip(file: strip.file, caption: strip.caption))
            if closeUps.count == tiles.count, Set(closeUps.map { "\($0.width)x\($0.height)" }).count == 1 {
                let zoomFile = strip.file.replacingOccurrences(of: ".png", with: "-closeup.png")
                try PNGEncoder.write(Filmstrip.compose(closeUps, borders: borders), to: dir + "/" + zoomFile)
                strips.append(EvidencePage.Strip(file: zoomFile, caption: "Close-up of the sprite in the same slots"))
            }
        }
        let arrivals = analysis.resampler.placement.compactMap { $0.map { Double($0) * info.timeBase.doubleValue } }
        try PNGEncoder.write(TimelinePlot.render(timeline: timeline, arrivals: arrivals), to: dir + "/timeline.png")
        try writeJSON(document, to: dir + "/report.json")
        let html = EvidencePage.html(
            report: report, strips: strips,
            timelineFile: "timeline.png", jsonFile: "report.json", textReport: report.text(color: false))
        try OutputFile.writeAtomically(Array(html.utf8), to: dir + "/index.html")
    }
}
