import Foundation

/// A child process of the tool (one `batch` capture), spawned so that signals reach it: an empty
/// signal mask and default dispositions (Dispatch's worker threads block signals, and a child
/// inherits the mask), in the parent's process group, so Ctrl-C in a terminal stops it too.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32

    /// Every child running now, so a signal to the parent can be passed on.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: Set<pid_t> = []

    init(executable: String, arguments: [String]) throws {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        // Pipes and spawn under one lock, the pipes close-on-exec: a child spawned by another worker
        // must not inherit this child's pipes (it would hold them open after this child exits).
        ChildProcess.lock.lock()
        defer { ChildProcess.lock.unlock() }
        guard pipe(&outPipe) == 0 else { throw POSIXError(.EMFILE) }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0])
            close(outPipe[1])
            throw POSIXError(.EMFILE)
        }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var child: pid_t = 0
        let r = ChildProcess.spawnClean(executable, arguments, actions: &actions, pid: &child)
        if r == 0 { ChildProcess.running.insert(child) }
        close(outPipe[1])
        close(errPipe[1])
        guard r == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: r) ?? .EPERM)
        }
        pid = child
        stdoutFD = outPipe[0]
        stderrFD = errPipe[0]
    }

    /// Reads both outputs to their end and waits, killing the child after `timeout` seconds.
    /// Returns the exit status (128 + signal for a killed child) and whether it timed out.
    func finish(timeout: Double) -> (status: Int32, stdout: Data, stderr: Data, timedOut: Bool) {
        // Dedicated threads, never Dispatch's shared pool: blocking reads there can starve a timer
        // (libdispatch runs about as many threads as cores), which let a timeout fire only once the
        // child had finished anyway.
        let errBox = Box()
        let errRead = DispatchSemaphore(value: 0)
        let errFD = stderrFD
        Thread {
            errBox.data = ChildProcess.readAll(errFD)
            errRead.signal()
        }.start()
        let exited = DispatchSemaphore(value: 0)
        let timedOut = Box()
        let me = pid
        Thread {
            guard exited.wait(timeout: .now() + timeout) == .timedOut else { return }
            timedOut.flag = true
            kill(me, SIGTERM)
            if exited.wait(timeout: .now() + 2) == .timedOut { kill(me, SIGKILL) }
        }.start()
        let out = ChildProcess.readAll(stdoutFD)
        errRead.wait()
        var status: Int32 = 0
        var waited: pid_t
        repeat { waited = waitpid(pid, &status, 0) } while waited < 0 && errno == EINTR
        exited.signal()
        ChildProcess.lock.lock()
        ChildProcess.running.remove(pid)
        ChildProcess.lock.unlock()
        close(stdoutFD)
        close(stderrFD)
        // A status that cannot be collected is a failure, never a pass.
        if waited < 0 {
            return (70, out, Data("cannot collect the analysis's exit status: \(String(cString: strerror(errno)))".utf8), false)
        }
        let normally = status & 0x7F == 0
        // The timeout counts only if it is what stopped the child.
        return (normally ? (status >> 8) & 0xFF : 128 + (status & 0x7F), out, errBox.data, timedOut.flag && !normally)
    }

    /// posix_spawn with an empty signal mask and SIGINT, SIGTERM, SIGHUP and SIGPIPE at their default
    /// action, whatever the caller's threads had (Dispatch's workers block them); returns its error.
    static func spawnClean(
        _ executable: String, _ arguments: [String], actions: UnsafePointer<posix_spawn_file_actions_t>?,
        pid: inout pid_t
    ) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        return posix_spawn(&pid, executable, actions, &attributes, argv, environ)
    }

    static func signalAll(_ signal: Int32) {
        lock.lock()
        let pids = running
        lock.unlock()
        for p in pids { kill(p, signal) }
    }

    private static func readAll(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { data.append(buffer, count: n) } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return data
    }

    /// A value handed between the threads of `finish` (the stderr reader, the timeout timer).
    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var storedData = Data()
        private var storedFlag = false
        var data: Data {
            get {
                lock.lock()
                defer { lock.unlock() }
                return storedData
            }
            set {
                lock.lock()
                storedData = newValue
                lock.unlock()
            }
        }
        var flag: Bool {
            get {
                lock.lock()
                defer { lock.unlock() }
                return storedFlag
            }
            set {
                lock.lock()
                storedFlag = newValue
                lock.unlock()
            }
        }
    }
}
