/// What a CI system shows for one capture: a few named checks built once from the analysis, then
/// rendered as a JUnit XML test suite, GitHub Actions annotations and a Markdown job summary.
public struct CIChecks: Sendable {
    /// One named check (a JUnit test case).
    public struct Check: Sendable, Equatable {
        public enum Outcome: Sendable, Equatable { case passed, failed, skipped }
        public var name: String
        public var outcome: Outcome
        /// One line: why it failed, or what was seen.
        public var message: String
    }

    public let capture: String
    public let checks: [Check]
    public let verdict: String
    public let passed: Bool
    /// Where the evidence folder was written, if it was.
    public let evidence: String?
    /// Seconds the analysis took.
    public let seconds: Double
    /// Timestamp findings that do not fail the verdict (warnings).
    public let warnings: [String]
    /// `(start s, duration ms, facing)` of each flip, for the summary's table.
    public let flips: [(start: Double, milliseconds: Double, frames: Int64)]

    public init(report: AnalyzeReport, capture: String, evidence: String?, seconds: Double) {
        self.capture = capture
        self.evidence = evidence
        self.seconds = seconds
        verdict = report.verdictSummary
        passed = report.verdict.passed
        let timeline = report.orientation.timeline
        let slotMS = 1000 * timeline.map.rate.inverse.doubleValue
        flips = timeline.flips.map { (timeline.map.seconds(ofSlot: $0.startSlot), Double($0.slots) * slotMS, $0.slots) }
        let evidenceNote = evidence.map { " (evidence: \($0))" } ?? ""
        var checks: [Check] = []
        let integrity = report.timestamps.integrity
        checks.append(
            Check(
                name: "capture integrity", outcome: integrity?.isIntact == false ? .failed : .passed,
                message: integrity?.details ?? "read whole"))
        let audit = report.timestamps.audit
        var warnings: [String] = []
        if !audit.nonMonotonic.isEmpty { warnings.append("pts run backwards at \(Format.count(audit.nonMonotonic.count, "place"))") }
        if !audit.duplicates.isEmpty { warnings.append("\(audit.duplicates.count) duplicated pts") }
        if !audit.missingPTS.isEmpty { warnings.append("\(Format.count(audit.missingPTS.count, "frame")) without pts") }
        self.warnings = warnings
        checks.append(
            Check(
                name: "timestamps", outcome: .passed,
                message: warnings.isEmpty ? "pts monotonic" : warnings.joined(separator: "; ") + " (placed by the repaired clock)"))
        let expectation = report.verdict.expectation
        let flipsExpected = expectation == .bug
        let flipText = flips.isEmpty ? "no transient mirror flip" : AnalyzeReport.describeFlips(timeline)
        checks.append(
            Check(
                name: "mirror flips", outcome: flips.isEmpty != flipsExpected ? .passed : .failed,
                message: flipText + (flips.isEmpty == flipsExpected ? evidenceNote : "")))
        if let crossCheck = report.crossCheck {
            let ok: Bool
            switch expectation {
            case .bug?: ok = crossCheck.verdict == .matchesOld
            case .fixed?: ok = crossCheck.verdict == .matchesNew || (crossCheck.verdict == .undetermined && !crossCheck.hiddenByUnknown)
            case nil: ok = crossCheck.verdict != .inconsistent
            }
            checks.append(
                Check(
                    name: "probe-log cross-check", outcome: ok ? .passed : .failed,
                    message: "\(crossCheck.verdict.rawValue)" + (ok ? "" : crossCheck.disagreements(limit: 1).first.map { ": \($0)" } ?? "")
                ))
        } else {
            checks.append(Check(name: "probe-log cross-check", outcome: .skipped, message: "no probe log given (--log)"))
        }
        checks.append(Check(name: "verdict", outcome: passed ? .passed : .failed, message: verdict + (passed ? "" : evidenceNote)))
        self.checks = checks
    }

    // MARK: JUnit

    /// This capture as one `<testsuite>`.
    public var junitSuite: String {
        let failures = checks.filter { $0.outcome == .failed }.count
        let skipped = checks.filter { $0.outcome == .skipped }.count
        var xml =
            "  <testsuite name=\"\(CIChecks.xml(capture))\" tests=\"\(checks.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(CIChecks.seconds(seconds))\">\n"
        for check in checks {
            let open = "    <testcase classname=\"analyze-recording\" name=\"\(CIChecks.xml(check.name))\" time=\"0\""
            switch check.outcome {
            case .passed:
                xml += open + ">\n      <system-out>\(CIChecks.xml(check.message))</system-out>\n    </testcase>\n"
            case .failed:
                xml +=
                    open
                    + ">\n      <failure message=\"\(CIChecks.xml(check.message))\" type=\"\(CIChecks.xml(check.name))\">\(CIChecks.xml(verdict))</failure>\n    </testcase>\n"
            case .skipped:
                xml += open + ">\n      <skipped message=\"\(CIChecks.xml(check.message))\"/>\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n"
    }

    /// A suite for a capture that could not be analysed at all: one test case in error.
    public static func errorSuite(capture: String, reason: String) -> String {
        "  <testsuite name=\"\(xml(capture))\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
            + "    <testcase classname=\"analyze-recording\" name=\"analysis\" time=\"0\">\n"
            + "      <error message=\"\(xml(reason))\" type=\"analysis\"/>\n    </testcase>\n  </testsuite>\n"
    }

    /// A JUnit document of `suites` (each from `junitSuite`).
    public static func junitDocument(_ suites: [String], name: String = "analyze-recording") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"\(xml(name))\">\n" + suites.joined() + "</testsuites>\n"
    }

    /// Text escaped for XML 1.0: the five special characters, and characters XML cannot hold at
    /// all (most control characters) shown as `\xNN`.
    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                    out += "\\x" + String(scalar.value, radix: 16, uppercase: true)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    static func seconds(_ s: Double) -> String { String(Double(Int((s * 1000).rounded())) / 1000) }

    // MARK: GitHub Actions

    /// Workflow commands: `::error` for each failed check, `::warning` for timestamp findings,
    /// `::notice` with the verdict when it passed.
    public var githubAnnotations: [String] {
        var lines: [String] = []
        let file = CIChecks.property(capture)
        for check in checks where check.outcome == .failed {
            lines.append(
                "::error file=\(file),title=\(CIChecks.property("analyze-recording: " + check.name))::\(CIChecks.data(check.message))")
        }
        for w in warnings {
            lines.append("::warning file=\(file),title=\(CIChecks.property("analyze-recording: timestamps"))::\(CIChecks.data(w))")
        }
        if passed { lines.append("::notice file=\(file),title=\(CIChecks.property("analyze-recording"))::\(CIChecks.data(verdict))") }
        return lines
    }

    /// A workflow command's message: `%`, CR and LF escaped.
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(
            of: "\n", with: "%0A")
    }

    /// A workflow command's property value: also `:` and `,`.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// Markdown for `$GITHUB_STEP_SUMMARY`: verdict, flips, timestamp findings, evidence.
    public var markdownSummary: String {
        var md = "### \(passed ? "✅" : "❌") analyze-recording: `\(CIChecks.markdownCode(capture))`\n\n"
        md += "**\(CIChecks.markdownText(verdict))**\n\n"
        if !flips.isEmpty {
            md += "| flip | start | duration | frames |\n|---|---|---|---|\n"
            for (n, f) in flips.enumerated() {
                md += "| \(n + 1) | \(Format.seconds(f.start)) | \(Format.milliseconds(f.milliseconds)) | \(f.frames) |\n"
            }
            md += "\n"
        }
        md += "| check | result | detail |\n|---|---|---|\n"
        for c in checks {
            let result = c.outcome == .passed ? "pass" : c.outcome == .failed ? "**fail**" : "skipped"
            md += "| \(c.name) | \(result) | \(CIChecks.markdownText(c.message)) |\n"
        }
        if let evidence { md += "\nEvidence: `\(CIChecks.markdownCode(evidence))` (upload it as an artifact; open `index.html`).\n" }
        return md + "\n"
    }

    static func markdownText(_ text: String) -> String {
        var out = ""
        for c in text {
            if "\\`*_{}[]<>()#+!|".contains(c) { out.append("\\") }
            out.append(c == "\n" || c == "\r" ? " " : c)
        }
        return out
    }

    static func markdownCode(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "\n", with: " ")
    }
}
