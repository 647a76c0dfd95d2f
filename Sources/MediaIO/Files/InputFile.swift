import CFFmpeg
import Foundation

/// The one check every input file passes before it is read: it exists, is a regular file (a FIFO
/// or device could block the tool forever) and is readable.
public enum InputFile {
    /// Throws `.cannotOpen` for a missing, non-regular or unreadable file; returns its size in bytes.
    @discardableResult
    public static func checkReadable(_ path: String, what: String) throws(MediaError) -> Int64 {
        var status = stat()
        if stat(path, &status) != 0 {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw MediaError(kind: .cannotOpen, operation: "stat", code: cff_error_from_errno(errno), message: "\(path): \(reason)")
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw MediaError(kind: .cannotOpen, operation: "stat", message: "\(path): is a directory, not \(what)")
        }
        if status.st_mode & S_IFMT != S_IFREG {
            throw MediaError(kind: .cannotOpen, operation: "stat", message: "\(path): is not a regular file")
        }
        if access(path, R_OK) != 0 {
            throw MediaError(kind: .cannotOpen, operation: "access", code: cff_error_from_errno(errno), message: "\(path): permission denied")
        }
        Inputs.shared.remember(path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        return Int64(status.st_size)
    }
}

/// Every file this run reads (recordings, templates, probe logs), by device and inode, so that no
/// output can replace one of them — through another name, a `./` prefix or a symlink included.
public final class Inputs: @unchecked Sendable {
    static let shared = Inputs()

    /// Remembers `path` as an input of this run without other checks (a capture a child process reads).
    public static func remember(_ path: String) {
        var status = stat()
        if stat(path, &status) == 0 { shared.remember(path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino)) }
    }
    private let lock = NSLock()
    private var files: [(device: UInt64, inode: UInt64, path: String)] = []

    func remember(_ path: String, device: UInt64, inode: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        if !files.contains(where: { $0.device == device && $0.inode == inode }) { files.append((device, inode, path)) }
    }

    /// The input that `path` (after following symlinks) is, if it is one.
    func input(at path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return files.first { $0.device == UInt64(status.st_dev) && $0.inode == UInt64(status.st_ino) }?.path
    }
}
