/// Renders a recording's facts and its `TimestampAudit` as JSON and as text for a person.
public struct TimestampReport: Sendable {
    public let info: RecordingInfo
    public let audit: TimestampAudit
    /// Whether the capture was read whole (nil: not known, as in unit tests of the audit alone).
    public let integrity: CaptureIntegrity?
    /// Demuxing stopped early with this error (truncated or damaged file), if it did.
    public var readError: String? { integrity?.reading.readError }

    public init(info: RecordingInfo, audit: TimestampAudit, integrity: CaptureIntegrity? = nil) {
        self.info = info
        self.audit = audit
        self.integrity = integrity
    }

    /// The `integrity` object: intact or not, each problem, FFmpeg's own error messages.
    public var integrityJSON: JSONValue {
        guard let integrity else { return .null }
        return .object([
            ("intact", .bool(integrity.isIntact)),
            ("timing_source", .string(integrity.reading.source.rawValue)),
            ("summary", .optional(integrity.summary) { .string($0) }),
            ("packets", .int(Int64(integrity.reading.packets))),
            ("promised_frames", .optional(integrity.reading.promisedFrames) { .int($0) }),
            ("decoded_s", .optional(integrity.reading.decodedSeconds) { .double($0, decimals: 6) }),
            ("promised_s", .optional(integrity.reading.promisedSeconds) { .double($0, decimals: 6) }),
            ("ffmpeg_errors", .int(Int64(integrity.reading.ffmpegErrors))),
            ("ffmpeg_messages", .array(integrity.reading.ffmpegMessages.map { .string($0) }))
        ])
    }

    // MARK: JSON

    /// The `recording` object of the analyze-recording document.
    public var recordingJSON: JSONValue {
        .object([
            ("path", .string(info.path)),
            ("format", .string(info.format)),
            ("codec", .string(info.codec)),
            ("width", .int(Int64(info.width))),
            ("height", .int(Int64(info.height))),
            ("pixel_format", .optional(info.pixelFormat) { .string($0) }),
            ("display", .string(info.display.name)),
            ("time_base", .string(info.timeBase.description)),
            ("start_time", .optional(info.startTime) { .int($0) }),
            ("frames", .int(Int64(audit.frames.count))),
            ("header_frames", .optional(info.headerFrameCount) { .int($0) }),
            ("duration_s", .optional(info.streamDurationSeconds) { .double($0, decimals: 6) }),
            ("container_duration_s", .optional(info.containerDurationSeconds) { .double($0, decimals: 6) }),
            ("creation_time", .optional(info.creationTime) { .string($0) }),
            (
                "edit_list",
                .optional(info.editList) { edits in
                    .array(
                        edits.entries.map { e in
                            .object([
                                ("duration_s", .double(Double(e.duration) / Double(max(1, edits.movieTimescale)), decimals: 6)),
                                (
                                    "media_start_s",
                                    e.mediaTime < 0
                                        ? .null : .double(Double(e.mediaTime) / Double(max(1, edits.mediaTimescale)), decimals: 6)
                                ),
                                ("rate", .double(e.rate, decimals: 3))
                            ])
                        })
                }
            ),
            ("b_frames", .bool(audit.hasBFrames))
        ])
    }

    /// The `timestamps` object of the analyze-recording document; `includeFrames` adds every frame.
    public func timestampsJSON(includeFrames: Bool = true) -> JSONValue {
        let a = audit
        func s(_ pts: Int64) -> JSONValue { .double(a.seconds(pts), decimals: 6) }
        func ms(_ ticks: Int64) -> JSONValue { .double(a.duration(ticks) * 1000, decimals: 3) }
        var members: [(String, JSONValue)] = [
            (
                "non_monotonic",
                .array(
                    a.nonMonotonic.map {
                        .object([
                            ("index", .int(Int64($0.index))), ("pts", .int($0.pts)), ("pts_s", s($0.pts)),
                            ("previous_pts", .int($0.previousPTS)), ("previous_pts_s", s($0.previousPTS))
                        ])
                    })
            ),
            (
                "duplicates",
                .array(
                    a.duplicates.map {
                        .object([("index", .int(Int64($0.index))), ("pts", .int($0.pts)), ("pts_s", s($0.pts))])
                    })
            ),
            ("missing_pts", .array(a.missingPTS.map { .int(Int64($0)) })),
            (
                "dts_non_monotonic",
                .array(
                    a.dtsNonMonotonic.map {
                        .object([("packet", .int(Int64($0.packetIndex))), ("dts", .int($0.dts)), ("previous_dts", .int($0.previousDTS))])
                    })
            ),
            ("corrupt_packets", .int(Int64(a.corruptPackets))),
            ("read_error", .optional(readError) { .string($0) }),
            ("integrity", integrityJSON),
            (
                "interval_ms",
                .optional(a.intervals) {
                    .object([("min", ms($0.min)), ("median", ms($0.median)), ("max", ms($0.max))])
                }
            ),
            ("vfr", .bool(a.isVariableFrameRate)),
            ("gaps", .array(a.gaps.map { .object([("start_s", s($0.startPTS)), ("duration_ms", ms($0.length))]) })),
            (
                "pts_cut_hazards",
                .array(
                    a.cutHazards.map {
                        .object([
                            ("from_s", s($0.fromPTS)), ("to_s", s($0.toPTS)), ("starts_at_index", .int(Int64($0.startsAtIndex))),
                            ("earlier_frames", .array($0.earlierFrames.map { .int(Int64($0)) }))
                        ])
                    })
            )
        ]
        if includeFrames {
            members.append(
                (
                    "frames",
                    .array(
                        a.frames.map { f in
                            .object([
                                ("index", .int(Int64(f.index))), ("pts", .optional(f.pts) { .int($0) }),
                                ("pts_s", .optional(f.pts) { s($0) }), ("dts", .optional(f.dts) { .int($0) }),
                                ("duration", .int(f.duration)), ("key", .bool(f.isKey))
                            ])
                        })
                ))
        }
        return .object(members)
    }

    // MARK: Text

    /// A few lines on the recording itself.
    public var recordingText: String {
        var t = TextTable()
        t.row("Recording", info.path)
        var codec = "\(info.codec) \(info.width)x\(info.height)"
        if let pf = info.pixelFormat { codec += " \(pf)" }
        t.row("Container", "\(info.format) · \(codec)")
        if let shown = info.display.summary {
            let size = info.display.changesFrames ? ", shown \(info.shownWidth)x\(info.shownHeight) as ffmpeg writes it" : ""
            t.row("Display", "the display matrix says \(shown)\(size)")
        }
        var timing = "time base \(info.timeBase)"
        if let start = info.startTime { timing += " · start \(start)" }
        timing += " · \(Format.count(audit.frames.count, "frame")) decoded"
        if let header = info.headerFrameCount { timing += " (header says \(header))" }
        t.row("Timing", timing)
        var duration = "stream " + (info.streamDurationSeconds.map { Format.seconds($0) } ?? "unknown")
        duration += " · container " + (info.containerDurationSeconds.map { Format.seconds($0) } ?? "unknown")
        if let s = info.streamDurationSeconds, let c = info.containerDurationSeconds, abs(s - c) > 0.0005 {
            // A stream that starts after the container explains the difference; say so instead.
            let start = info.startTime.map { Double($0) * info.timeBase.doubleValue } ?? 0
            if start > 0, abs(s + start - c) <= 0.0005 {
                duration += "  (the stream starts \(Format.milliseconds(start * 1000)) into the container)"
            } else {
                duration += "  (they disagree by \(Format.milliseconds(abs(s - c) * 1000)))"
            }
        }
        t.row("Duration", duration)
        if let created = info.creationTime { t.row("Created", created) }
        if let edits = info.editList, edits.isSignificant {
            t.row(
                "Edit list",
                (edits.entries.count == 1 ? "1 entry" : "\(edits.entries.count) entries") + ": \(edits.description)"
                    + (edits.playing.count > 1 ? " (FFmpeg delivers every stretch in turn, so timestamps step back where one ends)" : ""))
        }
        return t.rendered
    }

    /// The audit's findings, in a few lines, for the `analyze` summary.
    public var summaryText: String {
        let a = audit
        var t = TextTable()
        if let iv = a.intervals {
            t.row(
                "Intervals",
                "min \(Format.milliseconds(a.duration(iv.min) * 1000)) · median \(Format.milliseconds(a.duration(iv.median) * 1000)) · max \(Format.milliseconds(a.duration(iv.max) * 1000)) → "
                    + (a.isVariableFrameRate ? "variable frame rate" : "constant frame rate"))
        } else {
            t.row("Intervals", "fewer than two frames")
        }
        if !a.gaps.isEmpty {
            t.row(
                "Gaps",
                Format.list(
                    a.gaps.map { "\(Format.seconds(a.seconds($0.startPTS))) +\(Format.milliseconds(a.duration($0.length) * 1000))" })
                    + "  (static screen: no frames emitted)")
        }
        t.row("Pts order", ptsOrderLine)
        t.row(
            "Decoding",
            "B-frames: \(a.hasBFrames ? "yes (reordering is normal, not an anomaly)" : "no") · corrupt packets: \(a.corruptPackets)"
                + (readError.map { " · reading stopped early: \($0)" } ?? ""))
        if integrity?.reading.source == .sliceHeaders {
            t.row(
                "Frames",
                "not decoded: put in output order by the picture order counts in their slice headers (--decode decodes every frame)")
        }
        if let integrity {
            t.row(
                "Integrity",
                integrity.details.map { "DAMAGED: " + $0 }
                    ?? "read whole: \(integrity.reading.packets) packets\(integrity.reading.promisedFrames.map { " of \($0) in the index" } ?? ""), "
                    + (integrity.reading.source == .sliceHeaders
                        ? "pixels not checked (not decoded)"
                        : integrity.reading.ffmpegErrors == 0
                            ? "no decoding error"
                            : "FFmpeg logged \(integrity.reading.ffmpegErrors) error(s): "
                                + integrity.reading.ffmpegMessages.joined(separator: "; ")))
        }
        return t.rendered
    }

    private var ptsOrderLine: String {
        let a = audit
        if a.isClean { return "monotonic: no backward steps, duplicates or missing pts; packet dts monotonic" }
        var parts: [String] = []
        parts.append(Format.count(a.nonMonotonic.count, "backward step"))
        parts.append(Format.count(a.duplicates.count, "duplicate"))
        parts.append("\(a.missingPTS.count) missing")
        var line = parts.joined(separator: ", ")
        let replayed = (info.editList?.playing.count ?? 0) > 1
        line +=
            a.dtsNonMonotonic.isEmpty
            ? "; packet dts monotonic"
            : "; packet dts goes backwards \(Format.count(a.dtsNonMonotonic.count, "time"))"
                + (replayed ? " (where the edit list starts another stretch of media, not a muxing fault)" : " (muxing fault)")
        return line
    }

    /// What a pts-based cut would get wrong, in plain language; empty when nothing.
    public var consequenceText: String {
        let a = audit
        guard !a.cutHazards.isEmpty || !a.duplicates.isEmpty else { return "" }
        var lines: [String] = []
        for h in a.cutHazards {
            let earlier = h.earlierFrames.map { "#\($0)" }.joined(separator: ", ")
            lines.append(
                "A pts-based cut (ffmpeg trim=start=T) with T after \(Format.seconds(a.seconds(h.fromPTS))) and up to \(Format.seconds(a.seconds(h.toPTS))) starts at frame #\(h.startsAtIndex) and still shows \(earlier), which belong before T."
            )
        }
        for d in a.duplicates {
            lines.append(
                "Frames #\(d.index - 1) and #\(d.index) share pts \(d.pts) (\(Format.seconds(a.seconds(d.pts)))): a pts-based tool keeps only one of them."
            )
        }
        lines.append(
            "Resample to a constant frame rate first (analyze-recording cfr: frames placed where they were presented, and the slots where ffmpeg -vf fps differs named) and cut by frame number."
        )
        return lines.joined(separator: "\n")
    }

    /// The full text report of the `timestamps` subcommand.
    public var text: String {
        var out = recordingText + "\n" + summaryText
        let consequence = consequenceText
        if !consequence.isEmpty { out += "\n" + consequence + "\n" }
        let a = audit
        if !a.nonMonotonic.isEmpty || !a.duplicates.isEmpty || !a.missingPTS.isEmpty || !a.dtsNonMonotonic.isEmpty {
            out += "\nAnomalies\n"
            var t = TextTable(indent: 2)
            for b in a.nonMonotonic {
                t.row(
                    "#\(b.index)",
                    "pts \(b.pts) (\(Format.seconds(a.seconds(b.pts)))) after \(b.previousPTS) (\(Format.seconds(a.seconds(b.previousPTS)))): backwards"
                )
            }
            for d in a.duplicates { t.row("#\(d.index)", "pts \(d.pts) (\(Format.seconds(a.seconds(d.pts)))): same as the frame before") }
            for m in a.missingPTS { t.row("#\(m)", "no pts") }
            for d in a.dtsNonMonotonic { t.row("packet \(d.packetIndex)", "dts \(d.dts) after \(d.previousDTS): backwards") }
            out += t.rendered
        }
        out += "\nInteresting frames (" + (a.frames.count == 1 ? "the only one" : "all \(a.frames.count)") + " in the JSON: --json FILE)\n"
        var t = TextTable(indent: 2)
        t.header(["index", "pts", "time", "interval", "dur", "key", "note"])
        for (i, note) in interestingRows() {
            let f = a.frames[i]
            var interval = ""
            if i > 0, let p = f.pts, let q = a.frames[i - 1].pts { interval = Format.milliseconds(a.duration(p &- q) * 1000) }
            t.columns([
                "#\(f.index)", f.pts.map(String.init) ?? "none", f.pts.map { Format.seconds(a.seconds($0)) } ?? "–",
                interval, String(f.duration), f.isKey ? "key" : "", note
            ])
        }
        out += t.rendered
        return out
    }

    /// Rows worth a person's attention: the ends, anomalies and their neighbours, frames after gaps.
    func interestingRows() -> [(Int, String)] {
        let a = audit
        guard !a.frames.isEmpty else { return [] }
        var notes: [Int: [String]] = [:]
        func add(_ i: Int, _ note: String) { if a.frames.indices.contains(i) { notes[i, default: []].append(note) } }
        add(0, "first")
        add(a.frames.count - 1, "last")
        for b in a.nonMonotonic {
            add(b.index - 1, "")
            add(b.index, "backwards")
            add(b.index + 1, "")
        }
        for d in a.duplicates {
            add(d.index - 1, "")
            add(d.index, "duplicate pts")
        }
        for m in a.missingPTS { add(m, "no pts") }
        let gapStarts = Set(a.gaps.map(\.startPTS))
        for f in a.frames where f.pts.map(gapStarts.contains) ?? false {
            add(f.index, "then a gap")
            add(f.index + 1, "after gap")
        }
        return notes.keys.sorted().map { ($0, notes[$0, default: []].filter { !$0.isEmpty }.joined(separator: ", ")) }
    }
}
