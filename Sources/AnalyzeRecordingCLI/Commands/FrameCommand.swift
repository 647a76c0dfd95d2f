import Foundation
import MediaIO
import RecordingAnalysis

/// `analyze-recording frame RECORDING --at TIME [--fps 60] [--clock cfr|pts] --output OUT.png`
/// `analyze-recording frame RECORDING --around TIME --count N [--fps 60] --output STRIP.png`
struct FrameCommand: Command {
    static let name = "frame"
    static let abstract = "Write the frame shown at a time (or a filmstrip around it) as PNG, and say which source frame it is."
    static let usage =
        "frame RECORDING (--at TIME [--clock cfr|pts] | --around TIME --count N | --at-wall WALL | --around-wall WALL --count N) --output OUT.png"
    static let options =
        GridOptions.specs + [WorkLimitOption.spec] + [
            OptionSpec("at", value: "TIME", help: "Time on the recording clock: 4.05, 4.05s or 4050ms."),
            OptionSpec(
                "clock", value: "cfr|pts",
                help:
                    "cfr (default): slot floor(TIME x RATE) of the constant-rate grid; pts: the first frame with pts >= TIME, as trim=start= picks."
            ),
            OptionSpec("around", value: "TIME", help: "Write a filmstrip of --count constant-rate slots centred on TIME."),
            OptionSpec("count", value: "N", help: "Number of filmstrip tiles (1-\(Limits.filmstripTiles))."),
            OptionSpec("fps", value: "RATE", help: "Rate of the constant-rate grid (default 60)."),
            OptionSpec("output", value: "OUT.png", help: "Where to write the PNG (required)."),
            OptionSpec(
                "at-wall", value: "WALL",
                help:
                    "A wall-clock time: 2026-08-20T16:14:25.315Z, 808935265.31518 (seconds since 2001, as Date() prints) or @1787242465.315 (Unix)."
            ),
            OptionSpec("around-wall", value: "WALL", help: "A filmstrip of --count slots centred on a wall-clock time."),
            OptionSpec("wall-origin", value: "WALL", help: "The wall time of the recording's first frame (the most exact mapping)."),
            OptionSpec(
                "log", value: "PROBE_LOG", help: "Map wall time through the probe log: where the video and a formula agree on a flip.")
        ]

    enum Mode {
        case at(TimeArgument, usePTS: Bool)
        case around(TimeArgument, count: Int)
        case atWall(WallTime)
        case aroundWall(WallTime, count: Int)
    }

    let recording: String
    let mode: Mode
    let rate: Rational
    let gridOptions: GridOptions
    let output: String
    let wallOrigin: WallTime?
    let logPath: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        recording = try arguments.single("RECORDING")
        rate = try parseRate(arguments.values["fps"])
        gridOptions = try GridOptions(arguments)
        guard let output = arguments.values["output"], !output.isEmpty else { throw UsageError("missing --output OUT.png") }
        self.output = output
        func wall(_ option: String) throws(UsageError) -> WallTime? {
            guard let text = arguments.values[option] else { return nil }
            guard let w = WallTime(parsing: text) else {
                throw UsageError("--\(option) takes a wall-clock time such as \(WallTime.acceptedForms), not '\(text)'")
            }
            return w
        }
        wallOrigin = try wall("wall-origin")
        logPath = arguments.values["log"]
        if logPath == "" { throw UsageError("--log needs a file") }
        let atWall = try wall("at-wall"), aroundWall = try wall("around-wall")
        if atWall != nil || aroundWall != nil {
            guard arguments.values["at"] == nil, arguments.values["around"] == nil, (atWall == nil) != (aroundWall == nil) else {
                throw UsageError("give one of --at, --around, --at-wall or --around-wall")
            }
            if let atWall {
                if arguments.values["count"] != nil { throw UsageError("--count goes with --around-wall, not --at-wall") }
                mode = .atWall(atWall)
            } else if let aroundWall {
                guard let text = arguments.values["count"] else { throw UsageError("--around-wall needs --count N") }
                guard let n = Int(text), n >= 1, n <= Limits.filmstripTiles else {
                    throw UsageError("--count must be a whole number from 1 to \(Limits.filmstripTiles), not '\(text)'")
                }
                mode = .aroundWall(aroundWall, count: n)
            } else {
                throw UsageError("give one of --at, --around, --at-wall or --around-wall")
            }
            return
        }
        if wallOrigin != nil || logPath != nil { throw UsageError("--wall-origin and --log go with --at-wall or --around-wall") }
        switch (arguments.values["at"], arguments.values["around"]) {
        case (let at?, nil):
            if arguments.values["count"] != nil { throw UsageError("--count goes with --around, not --at") }
            let clock = arguments.values["clock"] ?? "cfr"
            guard clock == "cfr" || clock == "pts" else { throw UsageError("--clock must be cfr or pts, not '\(clock)'") }
            mode = .at(try parseTime(at, option: "--at"), usePTS: clock == "pts")
        case (nil, let around?):
            if arguments.values["clock"] != nil {
                throw UsageError("--clock goes with --at; a filmstrip always uses the constant-rate grid")
            }
            guard let text = arguments.values["count"] else { throw UsageError("--around needs --count N") }
            guard let n = Int(text), n >= 1, n <= Limits.filmstripTiles else {
                throw UsageError("--count must be a whole number from 1 to \(Limits.filmstripTiles), not '\(text)'")
            }
            mode = .around(try parseTime(around, option: "--around"), count: n)
        case (nil, nil):
            throw UsageError("give --at TIME or --around TIME --count N")
        case (_?, _?):
            throw UsageError("give either --at or --around, not both")
        }
    }

    func run() throws -> ExitStatus {
        // A wall time mapped through the probe log needs the flips, so the one decoding pass is the
        // analysis's; otherwise timings alone are enough.
        var analysis: CaptureAnalysis?
        var log: ProbeLog?
        switch mode {
        case .atWall, .aroundWall:
            if wallOrigin == nil, let logPath {
                log = try readProbeLog(logPath)  // a bad log fails before the decoding
                analysis = try CaptureAnalysis(
                    recording: recording, rate: rate, rule: gridOptions.rule, templatePath: nil, roi: nil, transientMS: 500)
            }
        case .at, .around:
            break
        }
        let grid = try analysis.map(Grid.init(analysis:)) ?? Grid(recording: recording, rate: rate, rule: gridOptions.rule)
        let locator = grid.locator
        switch mode {
        case .at(let time, let usePTS):
            return try writeSingle(grid: grid, locator: locator, time: time, usePTS: usePTS)
        case .around(let time, let count):
            return try writeStrip(grid: grid, locator: locator, time: time, count: count)
        case .atWall(let wall):
            let time = try mapWall(wall, grid: grid, locator: locator, analysis: analysis, log: log)
            return try writeSingle(grid: grid, locator: locator, time: time, usePTS: false)
        case .aroundWall(let wall, let count):
            let time = try mapWall(wall, grid: grid, locator: locator, analysis: analysis, log: log)
            return try writeStrip(grid: grid, locator: locator, time: time, count: count)
        }
    }

    /// The recording time of `wall` by the best mapping available, printed with its source and
    /// uncertainty; a usage error when there is none or the time falls outside the recording.
    private func mapWall(_ wall: WallTime, grid: Grid, locator: FrameLocator, analysis: CaptureAnalysis?, log: ProbeLog?) throws
        -> TimeArgument
    {
        let first = locator.seconds(ofSource: 0) ?? 0
        let slot = grid.map.rate.inverse.doubleValue
        var crossCheck: CrossCheck?
        var walkOrigin: Double?
        if let analysis, let log {
            walkOrigin = log.walkOrigin
            crossCheck = CrossCheck(
                video: CaptureFindings.videoFlips(analysis.timeline), unknown: CaptureFindings.unknownStretches(analysis.timeline),
                log: log, toleranceMS: 1500 * slot)
        }
        let mapping = WallClockMapping.best(
            wallOrigin: wallOrigin, crossCheck: crossCheck, walkOrigin: walkOrigin, slotSeconds: slot,
            creationTime: grid.scan.info.creationTime, firstFrameSeconds: first)
        var notes: [String] = []
        if crossCheck != nil, mapping?.source != .probeLog {
            notes.append("the probe log cannot place wall time here: no flip the video shows agrees with a formula's")
        }
        guard let mapping else {
            throw CommandFailure(
                status: .usage,
                message: (notes.first.map { $0 + "; " } ?? "")
                    + "a wall time needs a mapping to the recording: --wall-origin (the first frame's wall time), --log with a flip the video shows, or a creation_time in the file (\(recording) has none)"
            )
        }
        let seconds = mapping.recordingSeconds(wall)
        let source: String
        switch mapping.source {
        case .wallOrigin: source = "from --wall-origin"
        case .probeLog: source = "from the probe log"
        case .creationTime: source = "from creation_time"
        }
        let end = grid.map.seconds(ofSlot: grid.map.slotCount)
        guard seconds.isFinite, seconds >= grid.map.seconds(ofSlot: 0) - mapping.earlier, seconds < end + mapping.later else {
            throw CommandFailure(
                status: .usage,
                message:
                    "wall \(wall.iso8601) maps to \(Format.seconds(seconds)) (\(source), \(mapping.uncertaintyText)), outside the recording (\(Format.seconds(grid.map.seconds(ofSlot: 0)))–\(Format.seconds(end)))"
            )
        }
        for note in notes { Console.out("Note: \(note)\n") }
        Console.out(
            "wall \(wall.iso8601) → \(Format.seconds(seconds)) on the recording (\(source), \(mapping.uncertaintyText): \(mapping.basis))\n"
        )
        let micro = Int64((max(0, seconds) * 1_000_000).rounded())
        return TimeArgument(seconds: Rational(micro, 1_000_000))
    }

    private func describe(_ locator: FrameLocator, _ source: Int) -> String {
        let pts = locator.frames[source].pts.map(String.init) ?? "none"
        let time = locator.seconds(ofSource: source).map { Format.seconds($0) } ?? "–"
        return "#\(source) (pts \(pts), \(time))"
    }

    private func writeSingle(grid: Grid, locator: FrameLocator, time: TimeArgument, usePTS: Bool) throws -> ExitStatus {
        let onGrid = locator.onGrid(time)
        let byPTS = locator.byPTS(time)
        var lines: [String] = []
        if let onGrid {
            lines.append(
                "cfr clock: slot \(onGrid.slot) (\(Format.seconds(grid.map.seconds(ofSlot: onGrid.slot)))) of the \(rate.compactDescription) fps grid shows source frame \(describe(locator, onGrid.source))"
            )
        } else {
            lines.append(
                "cfr clock: \(time) is past the end of the \(rate.compactDescription) fps grid (\(grid.map.slotCount) slots, \(Format.seconds(grid.map.seconds(ofSlot: grid.map.slotCount))))"
            )
        }
        if let byPTS {
            lines.append(
                "pts clock: the first frame with pts at or after \(time) (what trim=start= starts with) is \(describe(locator, byPTS))")
        } else {
            lines.append("pts clock: no frame has a pts at or after \(time)")
        }
        if let onGrid, let byPTS, onGrid.source != byPTS {
            lines.append(
                "The two clocks disagree at \(time): a pts-based cut shows #\(byPTS), the screen at that moment showed #\(onGrid.source).")
        }
        guard let chosen = usePTS ? byPTS : onGrid?.source else {
            // A time outside the recording is a mistake in the command line, not bad data.
            throw CommandFailure(
                status: .usage,
                message: "\(recording): no frame at \(time) on the \(usePTS ? "pts" : "cfr") clock: "
                    + "the recording ends at \(Format.seconds(grid.map.seconds(ofSlot: grid.map.slotCount)))")
        }
        let pictures = try FrameExtraction.rgbImages(path: recording, sources: [chosen], timings: grid.scan) { _, frame in
            try frame.picture()
        }
        guard let picture = pictures[chosen] else {
            throw CommandFailure(status: .dataError, message: "\(recording): frame #\(chosen) could not be decoded")
        }
        try PNGEncoder.write(picture, to: output)
        lines.append(
            "Wrote \(output): source frame #\(chosen), \(picture.width)x\(picture.height)"
                + (picture.bitsPerChannel == 8
                    ? "" : ", \(picture.bitsPerChannel) bits per channel as the capture's samples are deeper than 8"))
        Console.out(lines.joined(separator: "\n") + "\n")
        return .success
    }

    private func writeStrip(grid: Grid, locator: FrameLocator, time: TimeArgument, count: Int) throws -> ExitStatus {
        let slots = locator.slots(around: time, count: count)
        guard !slots.isEmpty else {
            throw CommandFailure(status: .dataError, message: "\(recording): the constant-rate grid is empty")
        }
        let sources = slots.compactMap { grid.map.source(atSlot: $0) }
        let info = grid.scan.info
        let size = Filmstrip.tileSize(width: info.shownWidth, height: info.shownHeight, count: slots.count)
        let images = try FrameExtraction.rgbImages(path: recording, sources: Set(sources), timings: grid.scan, size: size)
        var tiles: [RGBImage] = []
        var t = TextTable(indent: 2)
        t.header(["tile", "slot", "time", "source frame"])
        for (n, slot) in slots.enumerated() {
            guard let source = grid.map.source(atSlot: slot), let image = images[source] else {
                throw CommandFailure(status: .dataError, message: "\(recording): slot \(slot) could not be decoded")
            }
            tiles.append(image)
            t.columns([String(n), String(slot), Format.seconds(grid.map.seconds(ofSlot: slot)), describe(locator, source)])
        }
        let strip = Filmstrip.compose(tiles)
        try PNGEncoder.write(strip, to: output)
        Console.out(
            "Filmstrip of \(slots.count) slots of the \(rate.compactDescription) fps grid around \(time)\n" + t.rendered
                + "Wrote \(output): \(strip.width)x\(strip.height), tiles \(size.width)x\(size.height)\n")
        return .success
    }
}
