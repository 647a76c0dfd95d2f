import Foundation

/// The result of running a program to completion.
public struct RunResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// True when the program was killed by a signal (a crash) rather than exiting.
    public var crashed: Bool
}

/// Paths and programs the tests need.
public enum TestSupport {
    /// The package's root directory.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The SampleMedia folder.
    public static var sampleMedia: URL { packageRoot.appendingPathComponent("SampleMedia") }

    /// `--template` with the samples' snail: how a capture of a fixed build (no flip, so no mirror
    /// event for auto mode to find the sprite by) is checked.
    public static var snailTemplate: [String] { ["--template", sampleMedia.appendingPathComponent("snail.png").path] }

    /// The built `analyze-recording` binary next to the test bundle.
    public static var toolPath: String {
        if let override = ProcessInfo.processInfo.environment["ANALYZE_RECORDING_BIN"] { return override }
        return productPath("analyze-recording")
    }

    /// A product built alongside the tests (`analyze-recording`, `make-sample-media`).
    public static func productPath(_ name: String) -> String {
        var candidates: [String] = []
        // `make test` points this at the release build: the binary users run, and fast.
        if let dir = ProcessInfo.processInfo.environment["ANALYZE_RECORDING_PRODUCTS"] {
            candidates.append(URL(fileURLWithPath: dir).appendingPathComponent(name).path)
        }
        if let url = Bundle.main.executableURL {
            candidates.append(url.deletingLastPathComponent().appendingPathComponent(name).path)
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path)
        candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[candidates.count - 1]
    }

    /// Finds an executable on PATH.
    public static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The ffmpeg CLI, used only as a test oracle and to make clips.
    public static var ffmpeg: String? { which("ffmpeg") }

    /// Whether the ffmpeg CLI can encode with `encoder` (e.g. libx265): cases that need it are left
    /// out where it cannot, instead of passing without running.
    public static func ffmpegHasEncoder(_ encoder: String) -> Bool {
        guard let ffmpeg, let r = try? run(ffmpeg, ["-hide_banner", "-encoders"]) else { return false }
        return r.stdout.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first == Substring(encoder) }
    }
    /// The ffprobe CLI, used only as a test oracle.
    public static var ffprobe: String? { which("ffprobe") }

    /// A fresh temporary directory.
    public static func temporaryDirectory(_ label: String = "test") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-recording-\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `executable` with `arguments`, killing it after `timeout` seconds.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], timeout: TimeInterval = 120,
        environment: [String: String]? = nil, directory: URL? = nil
    ) throws -> RunResult {
        let process = Process()
        if let directory { process.currentDirectoryURL = directory }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let outURL = temporaryDirectory("out").appendingPathComponent("stdout")
        let errURL = outURL.deletingLastPathComponent().appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        var timedOut = false
        if process.isRunning {
            timedOut = true
            process.terminate()
            process.waitUntilExit()
        }
        try outHandle.close()
        try errHandle.close()
        let out = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        var err = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        if timedOut { err += "\n[timed out after \(timeout) s]" }
        try? FileManager.default.removeItem(at: outURL.deletingLastPathComponent())
        return RunResult(
            status: process.terminationStatus, stdout: out, stderr: err,
            crashed: process.terminationReason == .uncaughtSignal || timedOut)
    }

    /// Runs the tool.
    @discardableResult
    public static func tool(_ arguments: [String], timeout: TimeInterval = 120, directory: URL? = nil) throws -> RunResult {
        try run(toolPath, arguments, timeout: timeout, environment: ["NO_COLOR": "1"], directory: directory)
    }

    /// Runs the ffmpeg CLI quietly and throws when it fails.
    public static func ffmpegRun(_ arguments: [String]) throws {
        guard let ffmpeg else { throw TestSupportError.missing("ffmpeg") }
        let r = try run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments)
        guard r.status == 0 else { throw TestSupportError.failed("ffmpeg \(arguments.joined(separator: " ")): \(r.stderr)") }
    }

    /// Frame pts of the first video stream according to ffprobe, in decoder output order.
    public static func ffprobeFramePTS(_ path: String) throws -> [Int64?] {
        guard let ffprobe else { throw TestSupportError.missing("ffprobe") }
        let r = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts", "-of", "csv=p=0", path])
        guard r.status == 0 else { throw TestSupportError.failed("ffprobe: \(r.stderr)") }
        return r.stdout.split(separator: "\n").map { line in
            let field = line.split(separator: ",").first.map(String.init) ?? ""
            return Int64(field.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Parses a JSON document produced by the tool.
    public static func parseJSON(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw TestSupportError.failed("not a JSON object")
        }
        return object
    }
}

public enum TestSupportError: Error, CustomStringConvertible {
    case missing(String)
    case failed(String)

    public var description: String {
        switch self {
        case .missing(let tool): return "\(tool) is not installed (make test installs it)"
        case .failed(let why): return why
        }
    }
}
