import Testing
@testable import RecordingAnalysis

/// The video track's edit list, read from box bytes built here as QuickTime lays them out.
@Suite struct QuickTimeEditListTests {
    private func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(UInt32(8 + body.count)) + Array(type.utf8) + body }
    private func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A file: ftyp, then moov with a movie header (time scale 600) and one track of `handler`.
    private func file(handler: String, edits: [(duration: UInt32, mediaTime: Int32)]) -> [UInt8] {
        let mvhd = box("mvhd", [0, 0, 0, 0] + be32(0) + be32(0) + be32(600) + be32(4800) + [UInt8](repeating: 0, count: 80))
        let hdlr = box("hdlr", [0, 0, 0, 0] + be32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 12))
        let mdhd = box("mdhd", [0, 0, 0, 0] + be32(0) + be32(0) + be32(6000) + be32(48000) + [0, 0, 0, 0])
        var elst: [UInt8] = [0, 0, 0, 0] + be32(UInt32(edits.count))
        for e in edits { elst += be32(e.duration) + be32(UInt32(bitPattern: e.mediaTime)) + [0, 1, 0, 0] }
        let trak = box("trak", box("edts", box("elst", elst)) + box("mdia", mdhd + hdlr))
        return box("ftyp", Array("qt  ".utf8) + be32(0)) + box("moov", mvhd + trak)
    }

    private func read(_ bytes: [UInt8]) -> QuickTimeEditList? {
        QuickTimeEditList.videoTrack(size: Int64(bytes.count)) { offset, count in
            let start = Int(offset)
            guard start < bytes.count else { return [] }
            return Array(bytes[start..<min(bytes.count, start + count)])
        }
    }

    @Test func aTrimmedRecordingPlaysTwoStretches() throws {
        let edits = try #require(read(file(handler: "vide", edits: [(40, 200), (4810, 900)])))
        #expect(edits.movieTimescale == 600 && edits.mediaTimescale == 6000)
        #expect(edits.playing.count == 2 && edits.isSignificant)
        #expect(edits.description == "plays media 0.033–0.100 s, then plays media 0.150–8.167 s")
    }

    @Test func anEmptyEditIsADelayAndAPlainOneIsNotSignificant() throws {
        let delayed = try #require(read(file(handler: "vide", edits: [(60, -1), (4800, 0)])))
        #expect(delayed.description == "waits 0.100 s, then plays media 0.000–8.000 s")
        #expect(delayed.isSignificant)
        let plain = try #require(read(file(handler: "vide", edits: [(4800, 0)])))
        #expect(!plain.isSignificant)
    }

    @Test func onlyTheVideoTrackCountsAndGarbageIsNil() {
        #expect(read(file(handler: "soun", edits: [(40, 200)])) == nil)
        #expect(read(Array("not a movie at all".utf8)) == nil)
        var truncated = file(handler: "vide", edits: [(40, 200), (4810, 900)])
        truncated.removeLast(30)
        #expect(read(truncated) == nil)
    }
}
