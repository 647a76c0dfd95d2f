import Foundation

/// SIGINT, SIGTERM and SIGHUP for `batch`, delivered promptly whichever thread the kernel picks: a
/// C handler (async-signal-safe) writes the signal number into a pipe, and a watcher thread reads it
/// and calls the batch's reaction. (Dispatch signal sources were tried first: on Linux they only
/// saw the signal when another event woke their thread, sometimes seconds later.)
enum StopSignals {
    nonisolated(unsafe) private static var pipeFDs: [Int32] = [-1, -1]

    /// Installs the handler and starts the watcher; `react` runs on the watcher thread, once per signal.
    static func watch(_ react: @escaping @Sendable (Int32) -> Void) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        pipeFDs = fds
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(StopSignals.pipeFDs[1], &byte, 1)
            }
        }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        let readFD = fds[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let n = read(readFD, &byte, 1)
                if n == 1 { react(Int32(byte)) } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
        thread.start()
    }
}
