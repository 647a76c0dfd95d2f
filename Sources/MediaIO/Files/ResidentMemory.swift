import Foundation

/// The process's resident memory, as the kernel counts it.
public enum ResidentMemory {
    /// Bytes resident now; nil where this cannot be read (it is read from `/proc/self/statm`).
    public static var bytes: Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
