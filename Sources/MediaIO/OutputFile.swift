import Foundation

/// Writes output files so that a failure or interruption never leaves a partial file behind.
public enum OutputFile {
    /// Writes `bytes` to a temporary file beside `path`, then renames it into place.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(MediaError) {
        let url = URL(fileURLWithPath: path)
        do {
            try Data(bytes).write(to: url, options: .atomic)
        } catch {
            throw MediaError(kind: .cannotCreate, operation: "write", message: "\(path): cannot write: \(error.localizedDescription)")
        }
    }
}
