import Foundation

/// Temporary files being written right now, removed if the tool is stopped by SIGINT, SIGTERM or
/// SIGHUP before it could finish them: an interrupted `cfr --output` leaves no `.OUT.partial-PID`.
///
/// The signal handler may only make async-signal-safe calls, so the paths are kept as C strings in
/// a fixed table it can walk without allocating.
public enum TemporaryFiles {
    private static let capacity = 32
    nonisolated(unsafe) private static let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    private static let lock = NSLock()
    nonisolated(unsafe) private static var initialized = false

    /// Registers `path`; returns its slot for `remove(_:)`, nil when the table is full (the file is
    /// still removed on every other exit path, just not on a signal).
    static func add(_ path: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        if !initialized {
            table.initialize(repeating: nil, count: capacity)
            initialized = true
        }
        guard let slot = (0..<capacity).first(where: { table[$0] == nil }) else { return nil }
        table[slot] = strdup(path)
        return slot
    }

    /// Forgets a registered path (it was finished or removed).
    static func remove(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        defer { lock.unlock() }
        let entry = table[slot]
        table[slot] = nil
        free(entry)
    }

    /// Installs the handler (call it before any thread starts, so threads inherit the unblocked
    /// mask): on SIGINT, SIGTERM or SIGHUP, unlink every registered file, then die of the same
    /// signal (so the exit status still says what stopped the tool).
    public static func removeOnSignals() {
        lock.lock()
        if !initialized {
            table.initialize(repeating: nil, count: capacity)
            initialized = true
        }
        lock.unlock()
        // A parent may have started the tool with these signals blocked (Foundation's Process does,
        // from a Dispatch thread); they must still stop it.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { received in
                for i in 0..<TemporaryFiles.capacity { if let p = TemporaryFiles.table[i] { unlink(p) } }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
