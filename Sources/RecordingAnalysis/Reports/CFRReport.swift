/// Renders a constant-rate grid for people and for JSON: its rule, its clock, and whether the ffmpeg
/// command it names shows the same frames (and where not).
public struct CFRReport: Sendable {
    public let resampler: CFRResampler
    public let frames: [FrameTiming]
    /// How the rate was chosen (nil: given, as `cfr` always takes it).
    public let rateSource: RefreshRate.Source?
    /// The tool's grid against the ffmpeg CLI's (same rule, FFmpeg's timestamps); nil when the grid
    /// already uses FFmpeg's timestamps, so it is the ffmpeg CLI's by construction.
    public let ffmpegComparison: GridComparison?
    /// Frames whose size changes: the ffmpeg CLI rebuilds its filters there (`FrameSizeChange`).
    public let sizeChanges: [FrameSizeChange]

    /// `ffmpegGrid`: the same rule's grid with FFmpeg's timestamps, when the rule repairs them.
    public init(
        resampler: CFRResampler, frames: [FrameTiming], rateSource: RefreshRate.Source? = nil, ffmpegGrid: CFRMap? = nil,
        sizeChanges: [FrameSizeChange] = []
    ) {
        self.rateSource = rateSource
        self.resampler = resampler
        self.frames = frames
        self.sizeChanges = sizeChanges
        ffmpegComparison = ffmpegGrid.map { GridComparison(ours: resampler.map, theirs: $0) }
    }

    private var map: CFRMap { resampler.map }
    private var rule: GridRule { resampler.rule }

    /// The ffmpeg command whose frames this grid reproduces.
    public var ffmpegCommand: String { rule.ffmpegCommand(rate: map.rate) }

    /// Whether the ffmpeg command shows the same frame in every slot: by construction with FFmpeg's
    /// timestamps, otherwise only when the comparison proves it; never across a change of frame size.
    public var sameSlotsAsFFmpeg: Bool { sizeChanges.isEmpty && (ffmpegComparison?.identical ?? true) }

    /// Seconds on the recording clock of source frame `index` (nil without a pts).
    private func seconds(ofFrame index: Int) -> Double? {
        guard frames.indices.contains(index), let pts = frames[index].pts else { return nil }
        return resampler.recordingClock.seconds(ofStreamTicks: pts)
    }

    /// `60` for whole rates, `"30000/1001"` otherwise.
    public static func rateJSON(_ rate: Rational) -> JSONValue {
        rate.denominator == 1 ? .int(rate.numerator) : .string(rate.description)
    }

    /// The `cfr` object; `includeMap` adds the per-slot map.
    public func json(includeMap: Bool) -> JSONValue {
        let clock = resampler.recordingClock
        var members: [(String, JSONValue)] = [
            ("fps", CFRReport.rateJSON(map.rate)),
            ("fps_source", .optional(rateSource) { .string($0.rawValue) }),
            ("frames", .int(map.slotCount)),
            ("duration_s", .double(map.duration, decimals: 6)),
            ("duplicated", .int(map.duplicated)),
            ("dropped", .array(map.dropped.map { .int(Int64($0)) })),
            (
                "rule",
                .object([
                    ("method", .string(rule.method.rawValue)), ("timestamps", .string(rule.timestamps.rawValue)),
                    ("origin", .string(rule.origin.rawValue)), ("ffmpeg_command", .string(ffmpegCommand))
                ])
            ),
            ("clock", .string(resampler.clock.rawValue)),
            (
                "clock_zero",
                .object([
                    ("ticks", .int(clock.zeroTicks)), ("time_base", .string(clock.timeBase.description)),
                    ("seconds", .double(Double(clock.zeroTicks) * clock.timeBase.doubleValue, decimals: 6))
                ])
            ),
            ("origin_slot", .int(map.originSlot)),
            ("start_s", .double(map.seconds(ofSlot: 0), decimals: 6)),
            ("same_slots_as_ffmpeg", .bool(sameSlotsAsFFmpeg)),
            (
                "ffmpeg_differences",
                .array(
                    (ffmpegComparison?.differences ?? []).map { d in
                        .object([
                            ("slot", .int(d.absoluteSlot - map.originSlot)),
                            ("time_s", .double(ffmpegComparison!.seconds(ofAbsoluteSlot: d.absoluteSlot), decimals: 6)),
                            ("slots", .int(d.count)), ("frame", .optional(d.ours) { .int(Int64($0)) }),
                            ("ffmpeg_frame", .optional(d.theirs) { .int(Int64($0)) })
                        ])
                    })
            ),
            (
                "frame_size_changes",
                .array(
                    sizeChanges.map { c in
                        .object([
                            ("frame", .int(Int64(c.index))), ("time_s", .optional(seconds(ofFrame: c.index)) { .double($0, decimals: 6) }),
                            ("previous_width", .int(Int64(c.previousWidth))), ("previous_height", .int(Int64(c.previousHeight))),
                            ("width", .int(Int64(c.width))), ("height", .int(Int64(c.height)))
                        ])
                    })
            ),
            ("warnings", .array(resampler.warnings.map { .string($0) }))
        ]
        if includeMap { members.append(("map", .array(map.slotMap.map { .int(Int64($0)) }))) }
        return .object(members)
    }

    /// The grid's rate, how it was chosen, and its size, on one line.
    public var gridLine: String {
        var t = TextTable(labelWidth: OrientationReport.labelWidth)
        gridRow(&t)
        return t.rendered
    }

    private func gridRow(_ t: inout TextTable) {
        let source: String
        switch rateSource {
        case .detected?: source = " (the display's refresh rate, detected from the frame intervals)"
        case .assumed?: source = " (assumed: the frame intervals fit no refresh rate; set --fps)"
        case .given?, nil: source = ""
        }
        t.row("Grid", "\(rateText) fps\(source): \(map.slotCount) slots = \(Format.seconds(map.duration))")
    }

    /// A few lines: grid size, rule, repeats, drops, clock, FFmpeg's view and warnings.
    public var summaryText: String {
        var t = TextTable()
        gridRow(&t)
        t.row("Rule", ruleText)
        t.row("Repeats", "\(map.duplicated) slots repeat the frame before them; \(map.runs.count) source frames shown")
        t.row(
            "Dropped",
            map.dropped.isEmpty
                ? "no source frame" : "\(Format.count(map.dropped.count, "source frame")): " + Format.list(map.dropped.map { "#\($0)" }))
        switch resampler.clock {
        case .pts: t.row("Clock", "pts (monotonic)")
        case .dts: t.row("Clock", "dts (pts are not strictly increasing; see the warning)")
        case .sortedPTS: t.row("Clock", "pts in sorted order (pts are not strictly increasing; see the warning)")
        case .bestEffort: t.row("Clock", "FFmpeg's best_effort_timestamp, as the ffmpeg CLI (--timestamps ffmpeg)")
        }
        t.row("FFmpeg", ffmpegText)
        for w in resampler.warnings { t.row("Warning", w) }
        return t.rendered
    }

    /// What the rule reproduces and where its clock's 0 is.
    var ruleText: String {
        let method = rule.method == .fpsFilter ? "fps filter" : "output rate conversion"
        let zero = resampler.recordingClock.zeroTicks
        let origin =
            rule.origin == .absolute
            ? "times as stored"
            : zero == 0
                ? "times from the container start (0)"
                : "times from the container start (stored time \(Format.seconds(Double(zero) * resampler.recordingClock.timeBase.doubleValue)) is 0)"
        return "\(method), as \(ffmpegCommand); \(origin)"
    }

    /// Whether the ffmpeg command shows the same frames; where not, how many slots over which span,
    /// then the first stretches (all of them are in the JSON).
    var ffmpegText: String {
        if let first = sizeChanges.first {
            let when = seconds(ofFrame: first.index).map { ", \(Format.seconds($0))" } ?? ""
            let more = sizeChanges.count > 1 ? " and \(sizeChanges.count - 1) more times" : ""
            return "not claimed to match \(ffmpegCommand): the frame size changes at #\(first.index)\(when) (\(first.sizesText))\(more), "
                + "where the ffmpeg CLI rebuilds its filters and its fps output loses the frame before the change"
        }
        guard let comparison = ffmpegComparison else { return "this grid is \(ffmpegCommand)'s, slot for slot" }
        guard let first = comparison.differences.first, let last = comparison.differences.last else {
            return "the same slots as \(ffmpegCommand)"
        }
        let span = String(
            format: "%.3f–%.3f s", comparison.seconds(ofAbsoluteSlot: first.absoluteSlot),
            comparison.seconds(ofAbsoluteSlot: last.absoluteSlot + last.count))
        let items = comparison.differences.prefix(3).map { d -> String in
            let k = d.absoluteSlot - map.originSlot
            let slots = d.count == 1 ? "slot \(k)" : "slots \(k)–\(k + d.count - 1)"
            return
                "\(slots) (\(Format.seconds(comparison.seconds(ofAbsoluteSlot: d.absoluteSlot)))): ffmpeg \(d.theirs.map { "#\($0)" } ?? "none"), here \(d.ours.map { "#\($0)" } ?? "none")"
        }
        let more = comparison.differences.count > 3 ? " · \(comparison.differences.count - 3) more stretches in the JSON" : ""
        return "\(ffmpegCommand) differs in \(comparison.differingSlots) of \(map.slotCount) slots, \(span): its best_effort_timestamp "
            + "takes dts where pts repeat or run backwards (--timestamps ffmpeg reproduces it exactly). " + items.joined(separator: " · ")
            + more
    }

    var rateText: String {
        map.rate.denominator == 1 ? String(map.rate.numerator) : "\(map.rate) (\(String(format: "%.3f", map.rate.doubleValue)))"
    }

    /// The run table: which source frame each stretch of slots shows.
    public var runsText: String {
        let clock = resampler.recordingClock
        var t = TextTable(indent: 2)
        t.header(["slots", "time", "frame", "pts", "pts time", "count"])
        // A long map is shown by its head and tail: the text stays readable, the JSON has every slot.
        let runs = map.runs
        let shown: [ArraySlice<CFRMap.Run>] =
            runs.count > Limits.textRuns
            ? [runs.prefix(Limits.textRuns * 2 / 3), runs.suffix(Limits.textRuns / 3)] : [runs[...]]
        for (part, slice) in shown.enumerated() {
            if part == 1, let first = runs.dropFirst(Limits.textRuns * 2 / 3).first, let last = slice.first {
                let hidden = runs.count - Limits.textRuns * 2 / 3 - slice.count
                t.columns(["…", "", "", "", "", "\(hidden) more runs (slots \(first.firstSlot)–\(last.firstSlot - 1)) in the JSON (--json)"]
                )
            }
            for run in slice { row(run, &t, clock) }
        }
        return t.rendered
    }

    private func row(_ run: CFRMap.Run, _ t: inout TextTable, _ clock: RecordingClock) {
        do {
            let last = run.firstSlot + run.count - 1
            let slots = run.count == 1 ? "\(run.firstSlot)" : "\(run.firstSlot)–\(last)"
            let time = String(format: "%.3f s", map.seconds(ofSlot: run.firstSlot))
            let f = frames.indices.contains(run.source) ? frames[run.source] : nil
            let pts = f?.pts.map(String.init) ?? "none"
            let ptsTime = f?.pts.map { String(format: "%.3f s", clock.seconds(ofStreamTicks: $0)) } ?? "–"
            t.columns([slots, time, "#\(run.source)", pts, ptsTime, String(run.count)])
        }
    }
}
