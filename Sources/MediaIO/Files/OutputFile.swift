import Foundation

/// Writes output files so that a failure or interruption never leaves a partial file behind.
public enum OutputFile {
    /// Why a file cannot be written, in the words of the file system.
    static func reason(for path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) { return "directory \(directory) does not exist" }
        if !isDirectory.boolValue { return "\(directory) is not a directory" }
        if !FileManager.default.isWritableFile(atPath: directory) { return "directory \(directory) is not writable" }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue { return "it is a directory" }
        return "the file system refused it"
    }

    /// Refuses an output that is one of this run's inputs (as FFmpeg refuses "Output same as Input").
    public static func refuseInput(_ path: String) throws(MediaError) {
        if let input = Inputs.shared.input(at: path) {
            throw MediaError(
                kind: .cannotCreate, operation: "write",
                message: "\(path): is \(input == path ? "an input" : "the input \(input)") of this run; refusing to overwrite it")
        }
    }

    /// Where bytes for `path` end up. A new or regular file is replaced by renaming a finished
    /// temporary file over it (through a symlink, the file it points to, not the link). A device,
    /// pipe or socket (`/dev/null`, `/dev/stdout`, a FIFO) is written in place: renaming over it
    /// would replace the device node itself.
    enum Destination: Equatable {
        case replaceFile(String)
        case stream(String)
    }

    static func destination(for path: String) -> Destination {
        var info = stat()
        guard stat(path, &info) == 0 else {
            // A dangling symlink: create the file it names rather than replace the link.
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                let base = (path as NSString).deletingLastPathComponent
                return .replaceFile(target.hasPrefix("/") || base.isEmpty ? target : base + "/" + target)
            }
            return .replaceFile(path)
        }
        let type = info.st_mode & S_IFMT
        // A directory cannot be written either way; the rename fails and `reason` says why.
        if type != S_IFREG && type != S_IFDIR { return .stream(path) }
        var link = stat()
        if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return .replaceFile(String(cString: resolved))
        }
        return .replaceFile(path)
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it into place; a device or
    /// pipe is written directly.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(MediaError) {
        try writeAtomically(Data(bytes), to: path)
    }

    /// Writes `data` as `writeAtomically(_:to:)` writes bytes (without another copy of a large document).
    public static func writeAtomically(_ data: Data, to path: String) throws(MediaError) {
        try writeStreaming(to: path) { (write) throws(MediaError) in try write(data) }
    }

    /// Writes what `produce` hands its writer, piece by piece, by the same rule as
    /// `writeAtomically`: a regular file through a temporary file beside it (removed on any error or
    /// signal, renamed into place at the end), a device or pipe directly.
    public static func writeStreaming(
        to path: String, _ produce: (_ write: (Data) throws(MediaError) -> Void) throws(MediaError) -> Void
    ) throws(MediaError) {
        try refuseInput(path)
        switch destination(for: path) {
        case .stream(let device):
            guard let handle = FileHandle(forWritingAtPath: device) else {
                throw MediaError(
                    kind: .cannotCreate, operation: "open", message: "\(path): cannot write: \(String(cString: strerror(errno)))")
            }
            defer { try? handle.close() }
            try produce { (data) throws(MediaError) in
                do { try handle.write(contentsOf: data) } catch {
                    throw MediaError(
                        kind: .cannotCreate, operation: "write", message: "\(path): cannot write: \(error.localizedDescription)")
                }
            }
        case .replaceFile(let file):
            let directory = (file as NSString).deletingLastPathComponent
            let temporary = (directory.isEmpty ? "." : directory) + "/.\((file as NSString).lastPathComponent).partial-\(getpid())"
            let slot = TemporaryFiles.add(temporary)
            defer { TemporaryFiles.remove(slot) }
            guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary)
            else {
                throw MediaError(kind: .cannotCreate, operation: "open", message: "\(path): cannot write: \(reason(for: file))")
            }
            do {
                try produce { (data) throws(MediaError) in
                    do { try handle.write(contentsOf: data) } catch {
                        throw MediaError(kind: .cannotCreate, operation: "write", message: "\(path): cannot write: \(reason(for: file))")
                    }
                }
            } catch {
                try? handle.close()
                unlink(temporary)
                throw error
            }
            do { try handle.close() } catch {
                unlink(temporary)
                throw MediaError(kind: .cannotCreate, operation: "close", message: "\(path): cannot write: \(reason(for: file))")
            }
            if rename(temporary, file) != 0 {
                unlink(temporary)
                throw MediaError(kind: .cannotCreate, operation: "rename", message: "\(path): cannot write: \(reason(for: file))")
            }
        }
    }

    /// Moves a finished temporary file to `path` by the same rule as `writeAtomically`.
    public static func moveIntoPlace(_ temporary: String, to path: String) throws(MediaError) {
        do { try refuseInput(path) } catch {
            unlink(temporary)
            throw error
        }
        switch destination(for: path) {
        case .stream:
            defer { unlink(temporary) }
            guard let data = FileManager.default.contents(atPath: temporary) else {
                throw MediaError(kind: .cannotCreate, operation: "read", message: "\(path): cannot write: the temporary file vanished")
            }
            try writeAtomically(data, to: path)
        case .replaceFile(let file):
            if rename(temporary, file) != 0 {
                let why = String(cString: strerror(errno))
                unlink(temporary)
                throw MediaError(kind: .cannotCreate, operation: "rename", message: "\(path): cannot write: \(why)")
            }
        }
    }
}
