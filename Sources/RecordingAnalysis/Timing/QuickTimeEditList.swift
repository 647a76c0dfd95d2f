/// The edit list of a QuickTime/MP4 file's video track: which stretches of its media the file says
/// to play, in order. A trimmed recording (QuickTime Player's Trim, Photos) keeps all its samples
/// and plays only parts of them; FFmpeg then delivers some samples twice or out of order, which
/// looks like a muxing fault unless the edit list is known.
public struct QuickTimeEditList: Sendable, Equatable {
    /// One edit: `duration` on the movie's time scale plays media from `mediaTime` (media time scale),
    /// or nothing (an empty edit: a delay) when `mediaTime` is -1.
    public struct Entry: Sendable, Equatable {
        public var duration: Int64
        public var mediaTime: Int64
        public var rate: Double
    }

    public var movieTimescale: Int64
    public var mediaTimescale: Int64
    public var entries: [Entry]

    /// Edits that play media (not delays).
    public var playing: [Entry] { entries.filter { $0.mediaTime >= 0 } }

    /// More than one stretch of media, or a stretch that does not start at the first sample: the
    /// samples FFmpeg delivers are cut, shifted or repeated.
    public var isSignificant: Bool {
        playing.count > 1 || (playing.first.map { $0.mediaTime != 0 } ?? false) || entries.count > playing.count
    }

    /// "plays media 0.000–4.000 s, then 2.033–6.117 s".
    public var description: String {
        var parts: [String] = []
        for e in entries {
            let seconds = Double(e.duration) / Double(max(1, movieTimescale))
            if e.mediaTime < 0 {
                parts.append(String(format: "waits %.3f s", seconds))
            } else {
                let start = Double(e.mediaTime) / Double(max(1, mediaTimescale))
                parts.append(String(format: "plays media %.3f–%.3f s", start, start + seconds))
            }
        }
        return parts.joined(separator: ", then ")
    }

    /// The video track's edit list, reading the file through `read(offset, count)`; nil when the file
    /// is not QuickTime/MP4, has no index, or its video track has no edit list.
    public static func videoTrack(size: Int64, read: (Int64, Int) -> [UInt8]) -> QuickTimeEditList? {
        var offset: Int64 = 0
        var boxes = 0
        while offset + 8 <= size, boxes < 10_000 {
            boxes += 1
            let header = read(offset, 16)
            guard header.count >= 8 else { return nil }
            var boxSize = Int64(be32(header, 0))
            var headerLength: Int64 = 8
            if boxSize == 1, header.count >= 16 {
                boxSize = Int64(bitPattern: be64(header, 8))
                headerLength = 16
            }
            if boxSize == 0 { boxSize = size - offset }
            guard boxSize >= headerLength else { return nil }
            if String(decoding: header[4..<8], as: UTF8.self) == "moov" {
                // An index larger than this is not a screen recording's.
                guard boxSize <= Int64(Limits.indexBytes) else { return nil }
                let moov = read(offset + headerLength, Int(boxSize - headerLength))
                return parse(moov: moov[...])
            }
            let (next, overflow) = offset.addingReportingOverflow(boxSize)
            if overflow { return nil }
            offset = next
        }
        return nil
    }

    static func parse(moov: ArraySlice<UInt8>) -> QuickTimeEditList? {
        var movieTimescale: Int64 = 0
        for (type, body) in children(moov) {
            if type == "mvhd", body.count >= 20 {
                movieTimescale = Int64(body[body.startIndex] == 1 ? be32(Array(body), 20) : be32(Array(body), 12))
            }
        }
        for (type, trak) in children(moov) where type == "trak" {
            var edits: [Entry]?
            var mediaTimescale: Int64 = 0
            var isVideo = false
            for (t, body) in children(trak) {
                if t == "edts", let elst = children(body).first(where: { $0.0 == "elst" })?.1 { edits = entries(elst) }
                if t == "mdia" {
                    for (m, b) in children(body) {
                        if m == "hdlr", b.count >= 12 { isVideo = String(decoding: Array(b)[8..<12], as: UTF8.self) == "vide" }
                        if m == "mdhd", b.count >= 24 {
                            let a = Array(b)
                            mediaTimescale = Int64(a[0] == 1 ? be32(a, 20) : be32(a, 12))
                        }
                    }
                }
            }
            if isVideo, let edits {
                return QuickTimeEditList(movieTimescale: movieTimescale, mediaTimescale: mediaTimescale, entries: edits)
            }
        }
        return nil
    }

    /// An `elst` box's entries (version 0: 32-bit fields; version 1: 64-bit).
    static func entries(_ body: ArraySlice<UInt8>) -> [Entry]? {
        let a = Array(body)
        guard a.count >= 8 else { return nil }
        let version = a[0]
        let count = Int(be32(a, 4))
        let size = version == 1 ? 20 : 12
        guard count >= 0, count <= 10_000, a.count >= 8 + count * size else { return nil }
        return (0..<count).map { i in
            let o = 8 + i * size
            if version == 1 {
                return Entry(
                    duration: Int64(bitPattern: be64(a, o)), mediaTime: Int64(bitPattern: be64(a, o + 8)),
                    rate: Double(Int16(bitPattern: UInt16(a[o + 16]) << 8 | UInt16(a[o + 17]))))
            }
            return Entry(
                duration: Int64(be32(a, o)), mediaTime: Int64(Int32(bitPattern: be32(a, o + 4))),
                rate: Double(Int16(bitPattern: UInt16(a[o + 8]) << 8 | UInt16(a[o + 9]))))
        }
    }

    /// The child boxes of a container box's body: (type, body).
    static func children(_ data: ArraySlice<UInt8>) -> [(String, ArraySlice<UInt8>)] {
        var out: [(String, ArraySlice<UInt8>)] = []
        var i = data.startIndex
        while i + 8 <= data.endIndex, out.count < 10_000 {
            let size = Int(be32(Array(data[i..<(i + 4)]), 0))
            guard size >= 8, i + size <= data.endIndex else { break }
            let type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            out.append((type, data[(i + 8)..<(i + size)]))
            i += size
        }
        return out
    }

    static func be32(_ a: [UInt8], _ o: Int) -> UInt32 {
        guard o + 4 <= a.count else { return 0 }
        return UInt32(a[o]) << 24 | UInt32(a[o + 1]) << 16 | UInt32(a[o + 2]) << 8 | UInt32(a[o + 3])
    }

    static func be64(_ a: [UInt8], _ o: Int) -> UInt64 {
        UInt64(be32(a, o)) << 32 | UInt64(be32(a, o + 4))
    }
}
