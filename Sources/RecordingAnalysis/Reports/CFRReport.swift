/// Renders a constant-rate grid for people and for JSON.
public struct CFRReport: Sendable {
    public let resampler: CFRResampler
    public let frames: [FrameTiming]
    public let timeBase: Rational
    /// How the rate was chosen (nil: given, as `cfr` always takes it).
    public let rateSource: RefreshRate.Source?

    public init(resampler: CFRResampler, frames: [FrameTiming], timeBase: Rational, rateSource: RefreshRate.Source? = nil) {
        self.rateSource = rateSource
        self.resampler = resampler
        self.frames = frames
        self.timeBase = timeBase
    }

    private var map: CFRMap { resampler.map }

    /// `60` for whole rates, `"30000/1001"` otherwise.
    public static func rateJSON(_ rate: Rational) -> JSONValue {
        rate.denominator == 1 ? .int(rate.numerator) : .string(rate.description)
    }

    /// The `cfr` object; `includeMap` adds the per-slot map.
    public func json(includeMap: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("fps", CFRReport.rateJSON(map.rate)),
            ("fps_source", .optional(rateSource) { .string($0.rawValue) }),
            ("frames", .int(map.slotCount)),
            ("duration_s", .double(map.seconds(ofSlot: map.slotCount), decimals: 6)),
            ("duplicated", .int(map.duplicated)),
            ("dropped", .array(map.dropped.map { .int(Int64($0)) })),
            ("clock", .string(resampler.clock.rawValue)),
            ("origin_slot", .int(map.originSlot)),
            ("warnings", .array(resampler.warnings.map { .string($0) })),
        ]
        if includeMap { members.append(("map", .array(map.slotMap.map { .int(Int64($0)) }))) }
        return .object(members)
    }

    /// The grid's rate, how it was chosen, and its size, on one line.
    public var gridLine: String {
        var t = TextTable()
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
        t.row("Grid", "\(rateText) fps\(source): \(map.slotCount) slots = \(Format.seconds(map.seconds(ofSlot: map.slotCount)))")
    }

    /// A few lines: grid size, repeats, drops, clock and warnings.
    public var summaryText: String {
        var t = TextTable()
        gridRow(&t)
        t.row("Repeats", "\(map.duplicated) slots repeat the frame before them; \(map.runs.count) source frames shown")
        t.row("Dropped", map.dropped.isEmpty ? "no source frame" : "\(Format.count(map.dropped.count, "source frame")): " + map.dropped.map { "#\($0)" }.joined(separator: ", "))
        switch resampler.clock {
        case .pts: t.row("Clock", "pts (monotonic): the same slots as ffmpeg -vf fps=\(map.rate.denominator == 1 ? String(map.rate.numerator) : map.rate.description)")
        case .dts: t.row("Clock", "dts (pts run backwards)")
        case .sortedPTS: t.row("Clock", "pts in sorted order (pts run backwards, dts unusable)")
        }
        for w in resampler.warnings { t.row("Warning", w) }
        return t.rendered
    }

    var rateText: String { map.rate.denominator == 1 ? String(map.rate.numerator) : "\(map.rate) (\(String(format: "%.3f", map.rate.doubleValue)))" }

    /// The run table: which source frame each stretch of slots shows.
    public var runsText: String {
        let origin = frames.lazy.compactMap(\.pts).first ?? 0
        var t = TextTable(indent: 2)
        t.header(["slots", "time", "frame", "pts", "pts time", "count"])
        for run in map.runs {
            let last = run.firstSlot + run.count - 1
            let slots = run.count == 1 ? "\(run.firstSlot)" : "\(run.firstSlot)–\(last)"
            let time = String(format: "%.3f s", map.seconds(ofSlot: run.firstSlot))
            let f = frames.indices.contains(run.source) ? frames[run.source] : nil
            let pts = f?.pts.map(String.init) ?? "none"
            let ptsTime = f?.pts.map { String(format: "%.3f s", Double($0 &- origin) * timeBase.doubleValue) } ?? "–"
            t.columns([slots, time, "#\(run.source)", pts, ptsTime, String(run.count)])
        }
        return t.rendered
    }
}
