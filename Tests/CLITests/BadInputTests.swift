import Foundation
import Testing
import TestSupport

/// Every bad input gets one line on stderr naming the file, and a sysexits status; never a crash.
@Suite struct BadInputTests {
    private func expectOneLineError(_ r: RunResult, status: Int32, mentions: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.crashed, "crashed or hung: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.status == status, "status \(r.status), stderr: \(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "expected one line, got: \(r.stderr)", sourceLocation: sourceLocation)
        for word in mentions {
            #expect(r.stderr.contains(word), "'\(word)' not in: \(r.stderr)", sourceLocation: sourceLocation)
        }
        #expect(r.stdout.isEmpty, "stdout should be empty on failure: \(r.stdout)", sourceLocation: sourceLocation)
    }

    @Test func missingFileIs66() throws {
        for sub in [["timestamps"], []] {
            let r = try TestSupport.tool(sub + ["/nonexistent/capture.mov"])
            expectOneLineError(r, status: 66, mentions: ["/nonexistent/capture.mov", "no such file"])
        }
    }

    @Test func directoryIs66() throws {
        let dir = TestSupport.temporaryDirectory("dir")
        defer { try? FileManager.default.removeItem(at: dir) }
        expectOneLineError(try TestSupport.tool(["timestamps", dir.path]), status: 66, mentions: ["directory"])
    }

    /// As root every file is readable, so there the tool runs as `nobody` through setpriv.
    @Test(.enabled(if: getuid() != 0 || TestSupport.which("setpriv") != nil)) func unreadableFileIs66() throws {
        let dir = TestSupport.temporaryDirectory("perm")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        let path = dir.appendingPathComponent("locked.mov").path
        FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3]), attributes: [.posixPermissions: 0o000])
        let r: RunResult
        if getuid() == 0, let setpriv = TestSupport.which("setpriv") {
            let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", TestSupport.toolPath]
            // The checkout may sit where nobody cannot reach the binary (e.g. under /root): then skip.
            guard try TestSupport.run(setpriv, asNobody + ["--version"]).status == 0 else {
                print("skipping unreadableFileIs66: user nobody cannot run \(TestSupport.toolPath)")
                return
            }
            r = try TestSupport.run(setpriv, asNobody + ["timestamps", path])
        } else {
            r = try TestSupport.tool(["timestamps", path])
        }
        expectOneLineError(r, status: 66, mentions: ["locked.mov", "permission"])
    }

    @Test func emptyFileIs65() throws {
        let dir = TestSupport.temporaryDirectory("empty")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("empty.mov").path
        FileManager.default.createFile(atPath: path, contents: Data())
        expectOneLineError(try TestSupport.tool(["timestamps", path]), status: 65, mentions: ["empty.mov", "empty"])
    }

    @Test func textFileIs65() throws {
        let dir = TestSupport.temporaryDirectory("text")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notes.mov").path
        try "this is not a video\n".write(toFile: path, atomically: true, encoding: .utf8)
        expectOneLineError(
            try TestSupport.tool(["timestamps", path]), status: 65, mentions: ["notes.mov", "not a readable video recording"])
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func truncatedCaptureExplainsSIGINT() throws {
        let dir = TestSupport.temporaryDirectory("trunc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Clips.truncatedBeforeIndex(in: dir)
        expectOneLineError(try TestSupport.tool(["timestamps", path]), status: 65, mentions: ["killed.mov", "truncated", "moov", "SIGINT"])
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func audioOnlyIs65() throws {
        let dir = TestSupport.temporaryDirectory("audio")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Clips.audioOnly(in: dir)
        expectOneLineError(try TestSupport.tool(["timestamps", path]), status: 65, mentions: ["audio.m4a", "no video stream"])
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func corruptedHeaderIs65() throws {
        let dir = TestSupport.temporaryDirectory("corrupt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try Clips.h264WithBFrames(in: dir)
        var data = try Data(contentsOf: URL(fileURLWithPath: good))
        // Overwrite the moov box's contents (keeping its header) with junk.
        let moov = data.range(of: Data("moov".utf8))!.upperBound
        for i in moov..<min(data.count, moov + 400) { data[i] = UInt8(truncatingIfNeeded: i &* 7) }
        let path = dir.appendingPathComponent("corrupt.mp4").path
        try data.write(to: URL(fileURLWithPath: path))
        let r = try TestSupport.tool(["timestamps", path])
        expectOneLineError(r, status: 65, mentions: ["corrupt.mp4"])
    }

    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func corruptedPacketsAreCountedAndTheAuditContinues() throws {
        let dir = TestSupport.temporaryDirectory("packets")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("src.mov").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "2", "-c:v", "libx264",
            "-bf", "0", "-g", "10", "-pix_fmt", "yuv420p", "-movflags", "+faststart", source
        ])
        var data = try Data(contentsOf: URL(fileURLWithPath: source))
        let mdat = data.range(of: Data("mdat".utf8))!.upperBound
        // Damage bytes in the middle of the media data; the index stays intact.
        let middle = mdat + (data.count - mdat) / 2
        for i in middle..<(middle + 600) { data[i] = 0xff }
        let path = dir.appendingPathComponent("damaged.mov").path
        try data.write(to: URL(fileURLWithPath: path))
        let r = try TestSupport.tool(["timestamps", path, "--json", "-"])
        #expect(!r.crashed)
        let json = try TestSupport.parseJSON(r.stdout)
        let recording = json["recording"] as? [String: Any]
        #expect((recording?["frames"] as? Int ?? 0) > 0)
        let timestamps = json["timestamps"] as? [String: Any]
        let integrity = timestamps?["integrity"] as? [String: Any]
        // The damage shows: as corrupt packets (then the capture is damaged, a finding: exit 1) or at
        // least in FFmpeg's own error messages.
        let corrupt = timestamps?["corrupt_packets"] as? Int ?? 0
        #expect(corrupt > 0 || (integrity?["ffmpeg_errors"] as? Int ?? 0) > 0, "\(integrity ?? [:])")
        #expect(r.status == (corrupt > 0 ? 1 : 0), "\(r.stderr)")
        #expect(integrity?["intact"] as? Bool == (corrupt == 0))
    }

    @Test func playlistAndConcatScriptAreRefused() throws {
        let dir = TestSupport.temporaryDirectory("hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = dir.appendingPathComponent("secret.ts").path
        try "secret".write(toFile: secret, atomically: true, encoding: .utf8)
        let playlist = dir.appendingPathComponent("capture.mov").path
        try "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n\(secret)\n#EXT-X-ENDLIST\n".write(
            toFile: playlist, atomically: true, encoding: .utf8)
        expectOneLineError(try TestSupport.tool(["timestamps", playlist]), status: 65, mentions: ["capture.mov"])
        let concat = dir.appendingPathComponent("list.mov").path
        try "ffconcat version 1.0\nfile '\(secret)'\n".write(toFile: concat, atomically: true, encoding: .utf8)
        expectOneLineError(try TestSupport.tool(["timestamps", concat]), status: 65, mentions: ["list.mov"])
    }

    @Test func imageSequencePatternIsNotExpanded() throws {
        let dir = TestSupport.temporaryDirectory("pattern")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: dir.appendingPathComponent("img001.png"))
        let pattern = dir.appendingPathComponent("img%03d.png").path
        expectOneLineError(try TestSupport.tool(["timestamps", pattern]), status: 66, mentions: ["img%03d.png", "no such file"])
    }
}

@Suite struct OutputErrorTests {
    @Test func unwritableOutputsAre73WithOneLineAndNoPartialFile() throws {
        let flip = TestSupport.sampleMedia.appendingPathComponent("flip.mov").path
        let r = try TestSupport.tool(["frame", flip, "--at", "1", "--output", "/nonexistent-dir/a.png"])
        #expect(r.status == 73)
        #expect(r.stderr == "analyze-recording: /nonexistent-dir/a.png: cannot write: directory /nonexistent-dir does not exist\n")
        let dir = TestSupport.temporaryDirectory("out")
        defer { try? FileManager.default.removeItem(at: dir) }
        let d = try TestSupport.tool(["frame", flip, "--at", "1", "--output", dir.path])
        #expect(d.status == 73 && d.stderr.contains("it is a directory"))
        #expect((try FileManager.default.contentsOfDirectory(atPath: dir.path)).isEmpty, "no temporary file left behind")
    }
}
