/// The evidence folder's index.html: self-contained (inline style, relative links, no scripts).
public enum EvidencePage {
    /// Escapes text for HTML.
    public static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// One flip's filmstrip and the slots it shows.
    public struct Strip: Sendable {
        public var file: String
        public var caption: String
        public init(file: String, caption: String) {
            self.file = file
            self.caption = caption
        }
    }

    public static func html(report: AnalyzeReport, strips: [Strip], timelineFile: String, jsonFile: String, textReport: String) -> String {
        let v = report.verdict
        let colour = v.passed ? "#1d7a3a" : "#b3202e"
        var rows = ""
        func row(_ k: String, _ value: String) { rows += "<tr><th>\(escape(k))</th><td>\(escape(value))</td></tr>\n" }
        let info = report.timestamps.info
        row(
            "Recording",
            "\(info.path) — \(info.codec) \(info.width)x\(info.height), time base \(info.timeBase), \(report.timestamps.audit.frames.count) frames"
        )
        row(
            "Timestamps",
            report.timestamps.audit.isClean
                ? "monotonic"
                : "\(report.timestamps.audit.nonMonotonic.count) backward steps, \(report.timestamps.audit.duplicates.count) duplicates")
        row(
            "Grid",
            "\(report.cfr.resampler.map.rate.compactDescription) fps, \(report.cfr.resampler.map.slotCount) slots, clock \(report.cfr.resampler.clock.rawValue)"
        )
        let flips = report.orientation.timeline.flips
        row("Flips", flips.isEmpty ? "none" : AnalyzeReport.describeFlips(report.orientation.timeline))
        row("Turns", report.orientation.timeline.turns.isEmpty ? "none" : "\(report.orientation.timeline.turns.count)")
        if let c = report.crossCheck {
            row(
                "Cross-check",
                c.verdict.rawValue
                    + (c.verdict == .inconsistent
                        ? ": "
                            + Format.list(
                                c.disagreements(limit: Limits.textRows + 1), limit: Limits.textRows, total: c.disagreeingPairs.count) : ""))
        }
        var figures = ""
        for s in strips {
            figures +=
                "<figure><img src=\"\(escape(s.file))\" alt=\"\(escape(s.caption))\"><figcaption>\(escape(s.caption))</figcaption></figure>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>analyze-recording: \(escape(info.path))</title>
            <style>
            body { font: 15px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px; color: #222; }
            h1 { font-size: 20px; } .verdict { font-size: 18px; font-weight: 600; color: \(colour); border-left: 6px solid \(colour); padding: 6px 12px; }
            table { border-collapse: collapse; margin: 12px 0; } th { text-align: left; padding: 3px 12px 3px 0; vertical-align: top; color: #555; } td { padding: 3px 0; }
            figure { margin: 16px 0; } figure img { max-width: 100%; border: 1px solid #ccc; } figcaption { color: #555; font-size: 13px; }
            pre { background: #f6f6f8; padding: 12px; overflow-x: auto; font-size: 12px; }
            .legend span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; vertical-align: -1px; }
            </style></head><body>
            <h1>analyze-recording evidence</h1>
            <p class="verdict">\(escape(report.verdictSummary))</p>
            <table>
            \(rows)</table>
            <h2>Mirror flips</h2>
            \(figures.isEmpty ? "<p>No transient mirror flip.</p>" : figures)
            <h2>Timeline</h2>
            <figure><img src="\(escape(timelineFile))" alt="facing along the recording"><figcaption class="legend">facing along the recording:<span style="background:#469a5a"></span>\(report.orientation.templateMode ? "right" : "initial")<span style="background:#dc323c"></span>\(report.orientation.templateMode ? "left" : "mirrored") (flips marked with a triangle)<span style="background:#bebebe"></span>unknown; ticks below: frame arrivals, then whole seconds</figcaption></figure>
            <p><a href="\(escape(jsonFile))">\(escape(jsonFile))</a>: the whole analysis as JSON.</p>
            <h2>Report</h2>
            <pre>\(escape(textReport))</pre>
            </body></html>

            """
    }
}
