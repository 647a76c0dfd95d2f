import Foundation
import RecordingAnalysis
import Testing
import TestSupport

/// Fail closed: a capture that did not decode whole never passes, whatever the frames that did
/// decode show. Each damaged copy is made from SampleMedia during the run.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct DamagedCaptureTests {
    private static let flip = TestSupport.sampleMedia.appendingPathComponent("flip.mov").path

    /// flip.mov with the sample-table size of frame #7 (the mirrored one) set to 0x7FFFFFFF.
    private func sampleSizeEdited(in dir: URL) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.flip)))
        let stsz = Array("stsz".utf8)
        let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == stsz })
        let entry = at + 16 + 7 * 4
        bytes.replaceSubrange(entry..<(entry + 4), with: [0x7F, 0xFF, 0xFF, 0xFF])
        let path = dir.appendingPathComponent("size7.mov").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A fast-start copy (index first) cut at `fraction` of its bytes, or just before frame #7's data.
    private func cutCopy(in dir: URL, beforeFrame frame: Int? = nil, fraction: Double? = nil) throws -> String {
        let fast = dir.appendingPathComponent("fast.mov").path
        try TestSupport.ffmpegRun(["-i", Self.flip, "-c", "copy", "-movflags", "faststart", fast])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fast))
        var length = Int(Double(bytes.count) * (fraction ?? 1))
        if let frame {
            let probe = try TestSupport.run(
                try #require(TestSupport.ffprobe),
                ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos", "-of", "csv=p=0", fast])
            let positions = probe.stdout.split(separator: "\n").compactMap { Int($0) }
            length = positions[frame]
        }
        let path = dir.appendingPathComponent("cut-\(frame ?? -1)-\(fraction ?? 0).mov").path
        try bytes.prefix(length).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `seenWithoutDecoding`: the damage is in the index or the file's length, so `timestamps` sees it
    /// without decoding; damage inside the pictures needs `timestamps --decode`.
    private func expectNeverPasses(_ path: String, _ label: String, seenWithoutDecoding: Bool = true) throws {
        for expect in [["--expect", "fixed"], ["--expect", "bug"], []] {
            let r = try TestSupport.tool([path] + expect + ["--json", "-"])
            #expect(!r.crashed, "\(label): \(r.stderr)")
            guard r.status != 65 else { continue }  // refused outright: also never a pass
            #expect(r.status == 1, "\(label) \(expect): exit \(r.status)")
            let json = try AnalyzeDocument.decode(Data(r.stdout.utf8))
            #expect(!json.verdict.passed, "\(label) \(expect) passed")
            #expect(json.verdict.summary.hasPrefix("FAIL (damaged capture): "), "\(label): \(json.verdict.summary)")
            #expect(!json.timestamps.integrity.intact)
        }
        for decode in seenWithoutDecoding ? [false, true] : [true] {
            let t = try TestSupport.tool(["timestamps", path] + (decode ? ["--decode"] : []))
            #expect(t.status == 1 || t.status == 65, "\(label): timestamps exit \(t.status)")
            if t.status == 1 { #expect(t.stdout.contains("Integrity  DAMAGED: "), "\(t.stdout)") }
        }
    }

    @Test func aSampleTableEditNeverPasses() throws {
        let dir = TestSupport.temporaryDirectory("damaged")
        defer { try? FileManager.default.removeItem(at: dir) }
        try expectNeverPasses(try sampleSizeEdited(in: dir), "stsz edit")
    }

    @Test func aCopyCutBeforeTheMirroredFrameNeverPasses() throws {
        let dir = TestSupport.temporaryDirectory("damaged")
        defer { try? FileManager.default.removeItem(at: dir) }
        try expectNeverPasses(try cutCopy(in: dir, beforeFrame: 7), "cut before #7")
    }

    @Test func aCopyWithHalfItsMediaDataNeverPasses() throws {
        let dir = TestSupport.temporaryDirectory("damaged")
        defer { try? FileManager.default.removeItem(at: dir) }
        try expectNeverPasses(try cutCopy(in: dir, fraction: 0.5), "half")
    }

    @Test func anIntactCaptureIsReadWhole() throws {
        let r = try TestSupport.tool(["timestamps", Self.flip, "--json", "-"])
        #expect(r.status == 0)
        let integrity = (try TestSupport.parseJSON(r.stdout)["timestamps"] as? [String: Any])?["integrity"] as? [String: Any]
        #expect(integrity?["intact"] as? Bool == true)
        #expect(integrity?["packets"] as? Int == 87 && integrity?["promised_frames"] as? Int == 87)
    }

    private static let fixed = TestSupport.sampleMedia.appendingPathComponent("fixed.mov").path

    /// fixed.mov (which passes intact) with bits flipped inside frame #20's data: the decoder
    /// conceals the damage and says so on its error log.
    @Test func corruptedPictureDataNeverPasses() throws {
        let dir = TestSupport.temporaryDirectory("bitflip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let probe = try TestSupport.run(
            try #require(TestSupport.ffprobe),
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos,size", "-of", "csv=p=0", Self.fixed])
        // ffprobe prints size,pos whatever the order asked for.
        let packets = probe.stdout.split(separator: "\n").map { $0.split(separator: ",").compactMap { Int($0) } }
        let frame = try #require(packets.dropFirst(10).first { $0.count == 2 && $0[0] > 400 }, "no large packet to damage")
        let (size, position) = (frame[0], frame[1])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixed)))
        for k in stride(from: size / 3, to: size - 8, by: 29) { bytes[position + k] ^= 0x5A }
        let path = dir.appendingPathComponent("bitflip.mov").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try expectNeverPasses(path, "bit flips in a frame", seenWithoutDecoding: false)
        let r = try TestSupport.tool([path, "--expect", "fixed"])
        #expect(r.stdout.contains("reading or decoding"), "\(r.stdout)")
    }

    /// fixed.mov with the video track's media time scale zeroed: FFmpeg says the header is invalid and
    /// guesses 1 tick a second, after which frames fall outside the edit list. Found by `make fuzz`.
    @Test func anInvalidMediaTimeScaleNeverPasses() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixed)))
        let mdhd = Array("mdhd".utf8)
        let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == mdhd })
        #expect(bytes[at + 4] == 0, "a version 0 media header")
        bytes.replaceSubrange((at + 4 + 12)..<(at + 4 + 16), with: [0, 0, 0, 0])
        let dir = TestSupport.temporaryDirectory("mdhd")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("mdhd.mov").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try expectNeverPasses(path, "media time scale 0")
        let r = try TestSupport.tool(["timestamps", path])
        #expect(r.stdout.contains("Invalid mdhd time scale 0"), "\(r.stdout)")
    }

    /// fixed.mov with its time-to-sample table broken (one entry's count zeroed, its delta made
    /// huge): the demuxer delivers every packet, but most decode to nothing, silently.
    @Test func packetsThatDecodeToNothingNeverPass() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixed)))
        let stts = Array("stts".utf8)
        let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == stts })
        let second = at + 12 + 8  // the second (count, delta) entry
        bytes.replaceSubrange(second..<(second + 8), with: [0, 0, 0, 0, 0, 1, 0, 0x1E])
        let dir = TestSupport.temporaryDirectory("stts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("stts.mov").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try expectNeverPasses(path, "broken stts")
    }

    /// A trimmed capture (an edit list that starts after a key frame) decodes the leading pictures as
    /// references without showing them: no frame is owed for them, so it is not damage. (Found on a
    /// real QuickTime trim: 604 packets, 478 frames.)
    @Test func anEditListTrimIsNotDamage() throws {
        let dir = TestSupport.temporaryDirectory("trim")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("gop.mov").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "4", "-c:v", "libx264", "-g", "60",
            "-bf", "0", "-pix_fmt", "yuv420p", source
        ])
        let trimmed = dir.appendingPathComponent("trimmed.mov").path
        try TestSupport.ffmpegRun(["-ss", "1.5", "-i", source, "-c", "copy", trimmed])
        for arguments in [
            [trimmed, "--json", "-"], ["timestamps", trimmed, "--decode", "--json", "-"], ["timestamps", trimmed, "--json", "-"]
        ] {
            let r = try TestSupport.tool(arguments)
            let integrity = try #require(
                (try TestSupport.parseJSON(r.stdout)["timestamps"] as? [String: Any])?["integrity"] as? [String: Any])
            #expect(integrity["intact"] as? Bool == true, "\(arguments.first ?? ""): \(integrity["summary"] ?? "")")
        }
    }
}
