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

    /// Writes `bytes` to a temporary file beside `path`, then renames it into place.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(MediaError) {
        let url = URL(fileURLWithPath: path)
        do {
            try Data(bytes).write(to: url, options: .atomic)
        } catch {
            throw MediaError(kind: .cannotCreate, operation: "write", message: "\(path): cannot write: \(reason(for: path))")
        }
    }
}
