/// Renders a constant-rate grid for people and for JSON.
public struct CFRReport: Sendable {
    public let resampler: CFRResampler
    public let frames: [FrameTiming]
    public let timeBase: Rational
    /// How the rate was chosen (nil: given, as `cfr` always takes it).
    public let rateSource: RefreshRate.Source?

    /// The container's start time in microseconds (see `RecordingInfo.containerStartMicroseconds`).
    public let containerStartMicroseconds: Int64?

    public init(resampler: CFRResampler, frames: [FrameTiming], timeBase: Rational, rateSource: RefreshRate.Source? = nil,
                containerStartMicroseconds: Int64? = nil) {
        self.rateSource = rateSource
        self.containerStartMicroseconds = containerStartMicroseconds
        self.resampler = resampler
        self.frames = frames
        self.timeBase = timeBase
    }

    private var map: CFRMap { resampler.map }

    /// Whether `ffmpeg -i REC -vf fps=R` places frames in the same slots: it does when the grid runs
    /// on monotonic pts and the container's start time, which the ffmpeg CLI subtracts from every
    /// timestamp, is a whole number of slots (zero, for most captures); otherwise its slots are shifted
    /// by a fraction of a slot and may differ.
    public var sameSlotsAsFFmpeg: Bool {
        guard resampler.clock == .pts else { return false }
        let start = containerStartMicroseconds ?? 0
        let rate = map.rate
        // start × R / 1e6 must be a whole number.
        let numerator = start.multipliedReportingOverflow(by: rate.numerator)
        guard !numerator.overflow else { return false }
        return numerator.partialValue % (1_000_000 * rate.denominator) == 0
    }

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
            ("same_slots_as_ffmpeg", .bool(sameSlotsAsFFmpeg)),
            ("container_start_s", .optional(containerStartMicroseconds) { .double(Double($0) / 1_000_000, decimals: 6) }),
            ("warnings", .array(resampler.warnings.map { .string($0) })),
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
        t.row("Grid", "\(rateText) fps\(source): \(map.slotCount) slots = \(Format.seconds(map.seconds(ofSlot: map.slotCount)))")
    }

    /// A few lines: grid size, repeats, drops, clock and warnings.
    public var summaryText: String {
        var t = TextTable()
        gridRow(&t)
        t.row("Repeats", "\(map.duplicated) slots repeat the frame before them; \(map.runs.count) source frames shown")
        t.row("Dropped", map.dropped.isEmpty ? "no source frame" : "\(Format.count(map.dropped.count, "source frame")): " + Format.list(map.dropped.map { "#\($0)" }))
        switch resampler.clock {
        case .pts:
            let rateArgument = map.rate.denominator == 1 ? String(map.rate.numerator) : map.rate.description
            if sameSlotsAsFFmpeg {
                t.row("Clock", "pts (monotonic): the same slots as ffmpeg -vf fps=\(rateArgument)")
            } else {
                let start = Double(containerStartMicroseconds ?? 0) / 1000
                t.row("Clock", "pts (monotonic) from time 0, as ffmpeg -copyts -vf fps=\(rateArgument); plain ffmpeg -vf fps=\(rateArgument) "
                      + "first subtracts the container's start time " + String(format: "(%.3f ms)", start) + ", a fraction of a slot, so its slots can differ")
            }
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
