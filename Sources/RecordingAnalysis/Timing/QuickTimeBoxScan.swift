/// Walks the top-level boxes (atoms) of a QuickTime/MP4 file to explain why it cannot be opened.
///
/// A simulator capture whose recorder was killed (SIGKILL, a crashed CI job) has its media data
/// but no `moov` index, which FFmpeg reports only as "invalid data". This scan tells the two apart.
public enum QuickTimeBoxScan {
    /// What the top level of a file looks like.
    public enum Diagnosis: Equatable, Sendable {
        /// Zero bytes.
        case empty
        /// QuickTime boxes, media data present, but no `moov` index: the recording was not finalised.
        case missingIndex
        /// QuickTime boxes with an index.
        case indexed
        /// Not a QuickTime/MP4 file at all.
        case notQuickTime
    }

    /// Top-level box types that may start a QuickTime or ISO-BMFF file.
    static let leadingTypes: Set<String> = ["ftyp", "wide", "mdat", "free", "skip", "moov", "pnot", "uuid", "styp"]

    /// Diagnoses a file of `size` bytes; `read(offset, count)` returns up to `count` bytes at `offset`.
    public static func diagnose(size: Int64, read: (Int64, Int) -> [UInt8]) -> Diagnosis {
        guard size > 0 else { return .empty }
        var offset: Int64 = 0
        var sawMediaData = false
        var boxes = 0
        while offset + 8 <= size, boxes < 10_000 {
            let header = read(offset, 16)
            guard header.count >= 8 else { break }
            var boxSize = Int64(header[0]) << 24 | Int64(header[1]) << 16 | Int64(header[2]) << 8 | Int64(header[3])
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if boxes == 0 && !leadingTypes.contains(type) { return .notQuickTime }
            boxes += 1
            if type == "moov" { return .indexed }
            if type == "mdat" { sawMediaData = true }
            if boxSize == 1 {
                guard header.count >= 16 else { break }
                boxSize = header[8..<16].reduce(Int64(0)) { ($0 << 8) | Int64($1) }
            } else if boxSize == 0 {
                break  // extends to end of file: a recorder that never came back to patch the size
            }
            guard boxSize >= 8 else { break }
            let (next, overflow) = offset.addingReportingOverflow(boxSize)
            if overflow { break }
            offset = next
        }
        return sawMediaData || boxes > 0 ? .missingIndex : .notQuickTime
    }
}
