import Foundation
import MediaIO
import RecordingAnalysis

/// `analyze-recording record [--device booted] [--codec hevc|h264] [--seconds N] OUT.mov [-- analyze options]`
///
/// Runs `xcrun simctl io DEVICE recordVideo`, stops it the only way that makes it write its index
/// (SIGINT, after N seconds or on the user's Ctrl-C; never SIGKILL), waits for the file to be
/// finalised, checks that it is a readable capture, then analyses it.
struct RecordCommand: Command {
    static let name = "record"
    static let abstract =
        "Record the Simulator's screen with simctl (stopped with SIGINT so the file gets its index), then analyse the capture."
    static let usage = "record OUT.mov [-- analyze options]"
    static let options = [
        OptionSpec("device", value: "UDID|booted", help: "The simulator to record (default booted)."),
        OptionSpec("codec", value: "hevc|h264", help: "The recorder's codec (default hevc, simctl's own default)."),
        OptionSpec("seconds", value: "N", help: "Stop after N seconds (default: on Ctrl-C).")
    ]

    let output: String
    let device: String
    let codec: String
    let seconds: Double?
    let analyzeArguments: [String]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let first = arguments.positionals.first else { throw UsageError("missing OUT.mov, the capture to write") }
        output = first
        analyzeArguments = Array(arguments.positionals.dropFirst())
        device = arguments.values["device"] ?? "booted"
        guard !device.isEmpty, !device.hasPrefix("-") else { throw UsageError("--device takes a simulator's UDID or 'booted'") }
        codec = arguments.values["codec"] ?? "hevc"
        guard codec == "hevc" || codec == "h264" else { throw UsageError("--codec must be hevc or h264, not '\(codec)'") }
        if let text = arguments.values["seconds"] {
            guard let s = Double(text), s.isFinite, s > 0, s <= 24 * 3600 else {
                throw UsageError("--seconds must be a number of seconds up to 86400, not '\(text)'")
            }
            seconds = s
        } else {
            seconds = nil
        }
        // The analysis options are checked now, not after a recording that could not be redone.
        _ = try AnalyzeCommand(ParsedArguments([output] + analyzeArguments, specs: AnalyzeCommand.options))
    }

    /// How long the recorder may take to finalise the file after SIGINT.
    static let finaliseSeconds = 60.0

    func run() throws -> ExitStatus {
        guard let xcrun = RecordCommand.onPath("xcrun") else {
            throw CommandFailure(
                status: .unavailable,
                message:
                    "record needs Xcode's xcrun (xcrun simctl io … recordVideo), which exists only on macOS with Xcode installed; record there, then run analyze-recording on the file"
            )
        }
        if FileManager.default.fileExists(atPath: output) {
            throw CommandFailure(
                status: .cannotCreate, message: "\(output): exists; record into a new file (the recorder would overwrite it)")
        }
        let recorder = try spawn(xcrun, ["simctl", "io", device, "recordVideo", "--codec=\(codec)", output])
        let exited = DispatchSemaphore(value: 0)
        let stop = RecorderStop(pid: recorder)
        // Ctrl-C, SIGTERM or SIGHUP to us: the recorder gets SIGINT, the one signal that makes it finalise.
        StopSignals.watch { _ in stop.interrupt() }
        if let seconds {
            Thread {
                if exited.wait(timeout: .now() + seconds) == .timedOut { stop.interrupt() }
            }.start()
        }
        var status: Int32 = 0
        var waited: pid_t
        repeat { waited = waitpid(recorder, &status, 0) } while waited < 0 && errno == EINTR
        exited.signal()
        guard waited == recorder else { throw CommandFailure(status: .software, message: "lost track of the recorder (pid \(recorder))") }
        let normally = status & 0x7F == 0
        let code = normally ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard FileManager.default.fileExists(atPath: output) else {
            throw CommandFailure(status: .dataError, message: "the recorder exited with status \(code) and wrote no \(output)")
        }
        if let problem = RecordCommand.unreadable(output) {
            throw CommandFailure(
                status: .dataError,
                message: "\(output): the recorder stopped (status \(code)) but the file is not a finished capture: \(problem)")
        }
        Console.error("Recorded \(output) (recorder status \(code)); analysing it\n")
        return try AnalyzeCommand(ParsedArguments([output] + analyzeArguments, specs: AnalyzeCommand.options)).run()
    }

    /// The recorder as a child in our process group, with a clean signal mask and default dispositions.
    private func spawn(_ executable: String, _ arguments: [String]) throws -> pid_t {
        var pid: pid_t = 0
        let r = ChildProcess.spawnClean(executable, arguments, actions: nil, pid: &pid)
        guard r == 0 else {
            throw CommandFailure(status: .unavailable, message: "cannot start \(executable): \(String(cString: strerror(r)))")
        }
        return pid
    }

    /// Why `path` cannot be opened as a capture (a recorder killed before writing its index), or nil.
    static func unreadable(_ path: String) -> String? {
        do {
            _ = try RecordingReader(path: path)
            return nil
        } catch {
            return error.message
        }
    }

    static func onPath(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = String(dir) + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

/// Sends the recorder SIGINT once, however many reasons to stop arrive.
private final class RecorderStop: @unchecked Sendable {
    private let pid: pid_t
    private let lock = NSLock()
    private var sent = false

    init(pid: pid_t) { self.pid = pid }

    func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        guard !sent else { return }
        sent = true
        kill(pid, SIGINT)
    }
}
