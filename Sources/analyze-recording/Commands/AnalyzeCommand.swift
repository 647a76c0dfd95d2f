import Foundation
import MediaIO
import RecordingAnalysis

/// `analyze-recording [analyze] RECORDING [--log PROBE_LOG] [--template PNG] [--roi X,Y,W,H] [--fps 60]
/// [--transient-ms 500] [--tolerance-ms 25] [--json FILE|-] [--evidence DIR] [--expect bug|fixed]`
struct AnalyzeCommand: Command {
    static let name = "analyze"
    static let abstract = "The whole investigation: timestamps, constant-rate grid, mirror flips, probe-log cross-check, verdict (default)."
    static let usage = "[analyze] RECORDING"
    static let options = DetectionOptions.specs + [
        OptionSpec("log", value: "PROBE_LOG|-", help: "The app's FlipProbe log (plain, Xcode console, or log show/stream output in any style; - reads stdin), to cross-check the flips against both formulas."),
        OptionSpec("tolerance-ms", value: "MS", help: "How far a video flip and a predicted flip may differ (default 1.5 frame periods: 25 ms at 60 fps)."),
        OptionSpec("json", value: "FILE|-", help: "Write the JSON document to FILE, or to stdout ('-': the text report is then not printed)."),
        OptionSpec("cfr-map", help: "Include the per-slot map in the JSON."),
        OptionSpec("evidence", value: "DIR", help: "Write filmstrips of each flip, a timeline, the JSON and an index.html into DIR."),
        OptionSpec("expect", value: "bug|fixed", help: "bug: pass only if the flip shows (and the log matches the legacy formula); fixed: pass only without a flip."),
        OptionSpec("wall-origin", value: "WALL", help: "The wall time of the recording's first frame, to place the log's predicted flips exactly (else: a flip both show, or creation_time)."),
    ] + CIOptions.specs

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
        if let text = arguments.values["tolerance-ms"] {
            guard let ms = Double(text), ms.isFinite, ms >= 0, ms <= 10_000 else {
                throw UsageError("--tolerance-ms must be a number of milliseconds from 0 to 10000, not '\(text)'")
            }
            toleranceMS = ms
        } else {
            toleranceMS = nil
        }
        json = arguments.values["json"]
        if json == "" { throw UsageError("--json needs a file name or '-'") }
        cfrMap = arguments.flags.contains("cfr-map")
        evidence = arguments.values["evidence"]
        if evidence == "" { throw UsageError("--evidence needs a directory") }
        ci = try CIOptions(arguments)
        if let text = arguments.values["wall-origin"] {
            guard let w = WallTime(parsing: text) else { throw UsageError("--wall-origin takes a wall-clock time such as \(WallTime.acceptedForms), not '\(text)'") }
            wallOrigin = w
        } else {
            wallOrigin = nil
        }
        if let text = arguments.values["expect"] {
            guard let e = CaptureVerdict.Expectation(rawValue: text) else { throw UsageError("--expect must be bug or fixed, not '\(text)'") }
            expectation = e
        } else {
            expectation = nil
        }
    }

    func run() throws -> ExitStatus {
        let started = Date()
        // Read the log first: a bad log should fail before minutes of decoding.
        let log = try logPath.map(readProbeLog)
        let analysis = try detection.analyse(recording)
        let timeline = analysis.timeline
        let toleranceMS = self.toleranceMS ?? 1.5 * 1000 * analysis.resampler.map.rate.inverse.doubleValue
        let crossCheck = log.map {
            CrossCheck(video: AnalyzeReport.videoFlips(timeline), log: $0, toleranceMS: toleranceMS, transientMS: detection.transientMS)
        }
        let verdict = CaptureVerdict(flips: timeline.flips, flipDescription: AnalyzeReport.describeFlips(timeline),
                                     crossCheck: crossCheck, expectation: expectation,
                                     uncertainty: timeline.uncertainty(slotMS: 1000 * analysis.resampler.map.rate.inverse.doubleValue),
                                     damage: analysis.scan.integrity.details)
        // Where each predicted flip falls on the recording, by the best wall-clock mapping there is.
        var wallClock: WallClockMapping?
        var moments: [PredictedMoment] = []
        if let log, let crossCheck {
            let first = analysis.scan.frames.first?.pts.map { analysis.resampler.recordingClock.seconds(ofStreamTicks: $0) } ?? 0
            wallClock = .best(wallOrigin: wallOrigin, crossCheck: crossCheck, walkOrigin: log.walkOrigin,
                              slotSeconds: analysis.resampler.map.rate.inverse.doubleValue,
                              creationTime: analysis.scan.info.creationTime, firstFrameSeconds: first)
            if let wallClock {
                moments = PredictedMoment.all(log: log, mapping: wallClock, timeline: timeline, transientMS: detection.transientMS)
            }
        }
        var report = AnalyzeReport(
            timestamps: analysis.timestampReport,
            cfr: analysis.cfrReport,
            orientation: analysis.orientationReport,
            log: log.map { LogReport(log: $0, path: logPath ?? "", transientMS: detection.transientMS) },
            crossCheck: crossCheck, verdict: verdict)
        report.wallClock = wallClock
        report.predictedMoments = moments
        let document = report.json(includeCFRMap: cfrMap)
        if let json { try writeJSON(document, to: json) }
        if let evidence { try writeEvidence(report: report, analysis: analysis, document: document, to: evidence) }
        if json != "-" {
            let color = isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            Console.out(ci.quiet ? report.verdictLine(color: color) : report.text(color: color))
        }
        try ci.publish(CIChecks(report: report, capture: recording, evidence: evidence, seconds: Date().timeIntervalSince(started)),
                       jsonOnStdout: json == "-")
        return verdict.passed ? .success : .findings
    }

    private struct Size: Hashable {
        let width: Int
        let height: Int
    }

    private func writeEvidence(report: AnalyzeReport, analysis: CaptureAnalysis, document: JSONValue, to dir: String) throws {
        try EvidenceFolder.prepare(dir)
        let timeline = analysis.timeline
        let map = timeline.map
        // Tiles: two slots before each flip to two after it, at most 24 per strip.
        var plans: [(file: String, slots: [Int64], caption: String)] = []
        for (n, flip) in timeline.flips.enumerated() {
            var slots = Array(max(0, flip.startSlot - 2)...min(map.slotCount - 1, flip.startSlot + flip.slots + 1))
            if slots.count > 24 { slots = Array(slots.prefix(12)) + Array(slots.suffix(12)) }
            let caption = "Flip \(n + 1): slots \(slots.first ?? 0)–\(slots.last ?? 0) at \(map.rate.compactDescription) fps (\(Format.seconds(map.seconds(ofSlot: slots.first ?? 0)))–\(Format.seconds(map.seconds(ofSlot: (slots.last ?? 0) + 1)))); mirrored tiles framed in red"
            plans.append(("flip-\(n + 1).png", slots, caption))
        }
        // Each predicted flip, whether or not the video shows it: every slot of the window the
        // mapping's uncertainty leaves, so that an absence is shown, not assumed (30 tiles a strip).
        for (n, moment) in report.predictedMoments.enumerated() {
            let all = Array(moment.firstSlot...moment.lastSlot)
            let chunks = stride(from: 0, to: all.count, by: 30).map { Array(all[$0..<min(all.count, $0 + 30)]) }
            for (k, slots) in chunks.enumerated() {
                let name = moment.formula == .old ? "legacy" : "clamped"
                let caption = "The \(name) formula predicts a \(Format.milliseconds(moment.durationMS)) flip at wall \(moment.wall.iso8601) → \(Format.seconds(moment.seconds)) "
                    + "(\(report.wallClock?.uncertaintyText ?? "")); slots \(slots.first ?? 0)–\(slots.last ?? 0)"
                    + (chunks.count > 1 ? " (part \(k + 1) of \(chunks.count))" : "") + "; timeline facing: \(moment.seenText)"
                plans.append(("predicted-\(moment.formula.rawValue)-\(n + 1)\(chunks.count > 1 ? "-\(k + 1)" : "").png", slots, caption))
            }
        }
        let info = analysis.scan.info
        // The sprite's neighbourhood, for close-up strips: its box grown by its own size on each side.
        let sprite = analysis.orientationReport.spriteRect.map { r in
            PixelRect(x: r.x - r.width / 2, y: r.y - r.height / 2, width: r.width * 2, height: r.height * 2)
        }
        // Each source frame is reduced to the tile sizes its strips need (and a close-up) as it is
        // decoded: memory holds small tiles, never every flip's full frames at once.
        var tileSizes: [Int: Set<Size>] = [:]
        for plan in plans {
            let size = Filmstrip.tileSize(width: info.width, height: info.height, count: plan.slots.count)
            for slot in plan.slots { if let s = map.source(atSlot: slot) { tileSizes[s, default: []].insert(Size(width: size.width, height: size.height)) } }
        }
        typealias Picture = (tiles: [Size: RGBImage], closeUp: RGBImage?)
        let pictures: [Int: Picture] = tileSizes.isEmpty ? [:] : try FrameExtraction.rgbImages(path: recording, sources: Set(tileSizes.keys)) { source, frame -> Picture in
            let image = try frame.rgbImage()
            var tiles: [Size: RGBImage] = [:]
            for size in tileSizes[source] ?? [] {
                tiles[size] = image.width == size.width && image.height == size.height
                    ? image : try FrameExtraction.scaled(image, width: size.width, height: size.height)
            }
            let closeUp = sprite.flatMap { image.cropped(to: $0, zoom: max(1, min(4, 160 / max(1, $0.width)))) }
            return (tiles: tiles, closeUp: closeUp)
        }
        var strips: [EvidencePage.Strip] = []
        for plan in plans {
            var tiles: [RGBImage] = []
            var closeUps: [RGBImage] = []
            var borders: [Filmstrip.Color?] = []
            let size = Filmstrip.tileSize(width: info.width, height: info.height, count: plan.slots.count)
            for slot in plan.slots {
                guard let source = map.source(atSlot: slot), let picture = pictures[source],
                      let tile = picture.tiles[Size(width: size.width, height: size.height)] else { continue }
                tiles.append(tile)
                if let crop = picture.closeUp { closeUps.append(crop) }
                let mirrored = timeline.flips.contains { slot >= $0.startSlot && slot < $0.startSlot + $0.slots }
                borders.append(mirrored ? Filmstrip.Color.highlight : nil)
            }
            guard !tiles.isEmpty else { continue }
            try PNGEncoder.write(Filmstrip.compose(tiles, borders: borders), to: dir + "/" + plan.file)
            strips.append(EvidencePage.Strip(file: plan.file, caption: plan.caption))
            if closeUps.count == tiles.count, Set(closeUps.map { "\($0.width)x\($0.height)" }).count == 1 {
                let zoomFile = plan.file.replacingOccurrences(of: ".png", with: "-closeup.png")
                try PNGEncoder.write(Filmstrip.compose(closeUps, borders: borders), to: dir + "/" + zoomFile)
                strips.append(EvidencePage.Strip(file: zoomFile, caption: "Close-up of the sprite in the same slots"))
            }
        }
        let arrivals = analysis.resampler.placement.compactMap { $0.map { Double($0) * info.timeBase.doubleValue } }
        try PNGEncoder.write(TimelinePlot.render(timeline: timeline, arrivals: arrivals), to: dir + "/timeline.png")
        try writeJSON(document, to: dir + "/report.json")
        let html = EvidencePage.html(report: report, strips: strips,
                                     timelineFile: "timeline.png", jsonFile: "report.json", textReport: report.text(color: false))
        try OutputFile.writeAtomically(Array(html.utf8), to: dir + "/index.html")
    }
}
