import Foundation
import MediaIO
import RecordingAnalysis

/// How results reach a CI system: `--junit FILE`, `--ci none|github` (default: github when
/// `GITHUB_ACTIONS=true`, as GitHub's runners set it), `--quiet`.
struct CIOptions {
    static let specs = [
        OptionSpec(
            "junit", value: "FILE",
            help:
                "Write a JUnit XML report (one test suite per capture: integrity, timestamps, mirror flips, probe-log cross-check, verdict)."
        ),
        OptionSpec(
            "ci", value: "none|github",
            help:
                "github: print ::error/::warning/::notice annotations and append a Markdown summary to $GITHUB_STEP_SUMMARY (default when GITHUB_ACTIONS=true)."
        ),
        OptionSpec("quiet", help: "Print only the verdict line.")
    ]

    enum System: String { case none, github }

    let junit: String?
    let system: System
    let quiet: Bool

    init(_ arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) {
        junit = arguments.values["junit"]
        if junit == "" || junit == "-" { throw UsageError("--junit needs a file name") }
        if let text = arguments.values["ci"] {
            guard let s = System(rawValue: text) else { throw UsageError("--ci must be none or github, not '\(text)'") }
            system = s
        } else {
            system = environment["GITHUB_ACTIONS"] == "true" ? .github : .none
        }
        quiet = arguments.flags.contains("quiet")
    }

    /// Writes the JUnit file and the GitHub annotations and summary for `checks`. Annotations go to
    /// standard output, or to standard error when standard output carries the JSON document.
    func publish(_ checks: CIChecks, jsonOnStdout: Bool) throws {
        if let junit {
            try OutputFile.writeAtomically(Array(CIChecks.junitDocument([checks.junitSuite]).utf8), to: junit)
        }
        guard system == .github else { return }
        let lines = checks.githubAnnotations.joined(separator: "\n") + "\n"
        if jsonOnStdout { Console.error(lines) } else { Console.out(lines) }
        CIOptions.appendStepSummary(checks.markdownSummary)
    }

    /// Appends to `$GITHUB_STEP_SUMMARY` when the runner provides it; a summary that cannot be
    /// written is reported and does not change the verdict.
    static func appendStepSummary(_ markdown: String) {
        guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            Console.error(
                "analyze-recording: cannot append the job summary to \(TextTable.terminalSafe(path)): \(String(cString: strerror(errno)))\n"
            )
            return
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(markdown.utf8))
        } catch {
            Console.error("analyze-recording: cannot append the job summary to \(TextTable.terminalSafe(path))\n")
        }
    }
}
