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
        return Int64(status.st_size)
    }
}
