import Foundation
import RecordingAnalysis
import MediaIO

/// `analyze-recording batch PATH... [--json-lines OUT|-] [--jobs N] [analyze options]`
///
/// For CI jobs with many captures: each capture is analysed by a child process of this tool
/// (so one broken or hostile file cannot take the batch down), at most `--jobs` at a time, and
/// reported as one JSON line, in the order given.
struct BatchCommand: Command {
    static let name = "batch"
    static let abstract = "Analyse many captures (files or folders) in parallel, one JSON line each, past broken files."
    static let usage = "batch PATH..."
    static let options =
        [
            OptionSpec("json-lines", value: "OUT|-", help: "Write one JSON object per capture to OUT (default '-': stdout)."),
            OptionSpec("jobs", value: "N", help: "Captures analysed at once (default: the number of cores)."),
            OptionSpec("timeout", value: "SECONDS", help: "Stop an analysis that takes longer and report it as timed out (default 600)."),
            OptionSpec("junit", value: "FILE", help: "Write one JUnit XML report with a test suite per capture."),
            OptionSpec(
                "ci", value: "none|github",
                help: "github: each capture's annotations and job summary, as analyze (default when GITHUB_ACTIONS=true).")
        ] + analysisSpecs

    /// analyze's own options, passed to each analysis.
    static let analysisSpecs = DetectionOptions.specs + VerdictOptions.specs

    /// Recording extensions picked up from folders.
    static let extensions: Set<String> = ["mov", "mp4", "m4v", "mkv", "webm"]

    let paths: [String]
    let output: String
    let jobs: Int
    let passThrough: [String]
    let timeout: Double

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing PATH (captures or folders of captures)") }
        paths = arguments.positionals
        output = arguments.values["json-lines"] ?? "-"
        if output.isEmpty { throw UsageError("--json-lines needs a file name or '-'") }
        if let text = arguments.values["jobs"] {
            guard let n = Int(text), n >= 1, n <= 64 else { throw UsageError("--jobs must be a whole number from 1 to 64, not '\(text)'") }
            jobs = n
        } else {
            jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
        }
        if let text = arguments.values["timeout"] {
            guard let t = Double(text), t.isFinite, t >= 1, t <= 86_400 else {
                throw UsageError("--timeout must be a number of seconds from 1 to 86400, not '\(text)'")
            }
            timeout = t
        } else {
            timeout = 600
        }
        // The analysis options are analyze's own declarations, validated here as analyze would, then
        // passed on unchanged.
        _ = try DetectionOptions(arguments)
        _ = try VerdictOptions(arguments)
        var pass: [String] = []
        for spec in BatchCommand.analysisSpecs {
            if spec.value == nil {
                if arguments.flags.contains(spec.name) { pass.append("--" + spec.name) }
            } else if let value = arguments.values[spec.name] {
                pass += ["--" + spec.name, value]
            }
        }
        let ci = try CIOptions(arguments)
        junit = ci.junit
        pass += ["--ci", ci.system.rawValue]
        passThrough = pass
    }

    /// Where the merged JUnit report goes.
    let junit: String?

    /// Files named on the command line, and recordings found in folders (sorted, recursive).
    func captures() -> [String] {
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                let items = (FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? [])
                    .filter { BatchCommand.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                    .sorted()
                found += items.map { (path as NSString).appendingPathComponent($0) }
            } else {
                found.append(path)
            }
        }
        return found
    }

    /// The probe log beside a capture: same name with `.txt` or `.log`, if there is one.
    static func logBeside(_ capture: String) -> String? {
        let base = (capture as NSString).deletingPathExtension
        return [base + ".txt", base + ".log"].first { FileManager.default.fileExists(atPath: $0) }
    }

    func run() throws -> ExitStatus {
        let files = captures()
        for file in files { Inputs.remember(file) }
        if output != "-" { try OutputFile.refuseInput(output) }
        let me = selfExecutable()
        let results = Results(count: files.count)
        let gate = DispatchSemaphore(value: jobs)
        let group = DispatchGroup()
        let extra = passThrough
        let limit = timeout
        if let junit { try OutputFile.refuseInput(junit) }
        let junitDir = junit.map { _ in NSTemporaryDirectory() + "analyze-recording-junit-\(getpid())" }
        if let junitDir { try? FileManager.default.createDirectory(atPath: junitDir, withIntermediateDirectories: true) }
        defer { if let junitDir { try? FileManager.default.removeItem(atPath: junitDir) } }
        // Ctrl-C, SIGTERM or SIGHUP: pass it on to the running analyses, start no more, and still
        // write the lines of the captures that finished.
        let interruption = Interruption()
        StopSignals.watch { sig in
            interruption.signal = sig
            ChildProcess.signalAll(SIGTERM)
        }
        for (i, file) in files.enumerated() {
            gate.wait()
            if interruption.signal != nil {
                gate.signal()
                break
            }
            group.enter()
            // One thread per running analysis (it blocks reading the child's output): Dispatch's
            // shared pool would run no more of them at once than there are cores, whatever --jobs says.
            Thread {
                defer {
                    gate.signal()
                    group.leave()
                }
                var args = ["analyze", file, "--json", "-"] + extra
                if let junitDir { args += ["--junit", junitDir + "/\(i).xml"] }
                if let log = BatchCommand.logBeside(file) { args += ["--log", log] }
                results.set(i, BatchCommand.analyse(executable: me, arguments: args, file: file, timeout: limit))
            }.start()
        }
        group.wait()
        var text = ""
        var worst = ExitStatus.success
        var finished = 0
        var suites: [String] = []
        var annotations = ""
        for (i, result) in results.all.enumerated() {
            guard let (status, line, notes) = result else { continue }
            if let sig = interruption.signal, status == 128 + SIGTERM || status == 128 + sig { continue }
            text += line + "\n"
            annotations += notes
            finished += 1
            if status != 0 { worst = .findings }
            if let junitDir {
                suites.append(BatchCommand.junitSuite(from: junitDir + "/\(i).xml") ?? BatchCommand.errorSuite(file: files[i], line: line))
            }
        }
        if let junit, interruption.signal == nil || !suites.isEmpty {
            try OutputFile.writeAtomically(Array(CIChecks.junitDocument(suites).utf8), to: junit)
        }
        if !annotations.isEmpty { if output == "-" { Console.error(annotations) } else { Console.out(annotations) } }
        if output == "-" {
            Console.out(text)
        } else if !text.isEmpty || interruption.signal == nil {
            try writeText(text, to: output)
        }
        if let sig = interruption.signal {
            Console.error(
                "analyze-recording batch: interrupted by signal \(sig); \(finished) of \(files.count) captures finished, their lines written\n"
            )
            exit(128 + sig)
        }
        return worst
    }

    private func writeText(_ text: String, to path: String) throws {
        try OutputFile.writeAtomically(Array(text.utf8), to: path)
    }

    /// The `<testsuite>` of a capture's own JUnit file.
    static func junitSuite(from path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let start = text.range(of: "  <testsuite "), let end = text.range(of: "</testsuite>\n", range: start.lowerBound..<text.endIndex)
        else { return nil }
        return String(text[start.lowerBound..<end.upperBound])
    }

    /// A test suite for a capture that could not be analysed: one errored case with the reason.
    static func errorSuite(file: String, line: String) -> String {
        let reason =
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["error"] as? String ?? "analysis failed"
        return CIChecks.errorSuite(capture: file, reason: reason)
    }

    /// Runs one analysis and turns its outcome into a JSON line, with the GitHub annotations it printed.
    static func analyse(executable: String, arguments: [String], file: String, timeout: Double) -> (Int32, String, String) {
        var status: Int32 = 70
        var stdout = Data(), stderr = Data()
        do {
            let child = try ChildProcess(executable: executable, arguments: arguments)
            let result = child.finish(timeout: timeout)
            status = result.status
            stdout = result.stdout
            stderr = result.timedOut ? Data("analysis timed out after \(Int(timeout)) s (--timeout)".utf8) : result.stderr
            if result.timedOut { stdout = Data() }
        } catch {
            stderr = Data("cannot start analysis: \(error)".utf8)
        }
        var members: [(String, JSONValue)] = [("path", .string(file)), ("exit_code", .int(Int64(status)))]
        let errorLine = String(decoding: stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let report = try? AnalyzeDocument.decode(stdout) {
            members.append(("passed", .bool(report.verdict.passed)))
            members.append(("summary", .string(report.verdict.summary)))
            members.append(("flips", .int(Int64(report.flips.count))))
            members.append(("cross_check", .string(report.crossCheck?.verdict ?? "none")))
            // Our own serialiser escapes newlines inside strings, so joining lines keeps it valid JSON.
            members.append(
                (
                    "report",
                    .raw(
                        String(decoding: stdout, as: UTF8.self).split(separator: "\n").map {
                            $0.trimmingCharacters(in: .whitespaces)
                        }.joined(separator: " "))
                ))
        } else {
            members.append(("passed", .bool(false)))
            members.append(("error", .string(errorLine.isEmpty ? "analysis failed with status \(status)" : errorLine)))
        }
        let notes = String(decoding: stderr, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("::") }.map { $0 + "\n" }.joined()
        return (status, JSONValue.object(members).serialized(), notes)
    }

    private func selfExecutable() -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}

/// Results filled in by worker threads, read when all are done.
private final class Results: @unchecked Sendable {
    private var items: [(Int32, String, String)?]
    private let lock = NSLock()

    init(count: Int) { items = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ value: (Int32, String, String)) {
        lock.lock()
        items[i] = value
        lock.unlock()
    }

    /// Each capture's result, nil for one that never ran (the batch was interrupted).
    var all: [(Int32, String, String)?] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// The signal that interrupted the batch, if one did.
private final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int32?
    var signal: Int32? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
        set {
            lock.lock()
            value = newValue
            lock.unlock()
        }
    }
}
