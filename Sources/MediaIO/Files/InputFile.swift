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
            throw MediaError(
                kind: .cannotOpen, operation: "access", code: cff_error_from_errno(errno), message: "\(path): permission denied")
        }
        Inputs.shared.remember(path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        return Int64(status.st_size)
    }
}

extension InputFile {
    /// Opens `path` once for reading and checks what was opened (`fstat`), so that nothing swapped in
    /// between a check and the open (a FIFO that would block, another file) is ever read: the
    /// returned descriptor is the file that was checked. The open does not block on a FIFO.
    /// Returns the descriptor (close-on-exec, blocking) and the file's size; the caller closes it.
    public static func openChecked(_ path: String, what: String) throws(MediaError) -> (fd: Int32, size: Int64) {
        // Checked by name first, so that a FIFO is refused without ever being opened; then opened and
        // checked again through the descriptor, so that nothing swapped in between is read.
        try checkReadable(path, what: what)
        var named = stat()
        _ = stat(path, &named)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == EISDIR { throw MediaError(kind: .cannotOpen, operation: "open", message: "\(path): is a directory, not \(what)") }
            let reason = code == ENOENT ? "no such file" : code == EACCES ? "permission denied" : String(cString: strerror(code))
            throw MediaError(kind: .cannotOpen, operation: "open", code: cff_error_from_errno(code), message: "\(path): \(reason)")
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            throw MediaError(kind: .cannotOpen, operation: "fstat", message: "\(path): cannot be examined")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            let kind = status.st_mode & S_IFMT == S_IFDIR ? "is a directory, not \(what)" : "is not a regular file"
            throw MediaError(kind: .cannotOpen, operation: "fstat", message: "\(path): \(kind)")
        }
        guard status.st_dev == named.st_dev, status.st_ino == named.st_ino else {
            close(fd)
            throw MediaError(kind: .cannotOpen, operation: "fstat", message: "\(path): was replaced while it was being opened")
        }
        // Reads of a regular file do not block anyway; clear the flag the open needed.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        Inputs.shared.remember(path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        return (fd, Int64(status.st_size))
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
