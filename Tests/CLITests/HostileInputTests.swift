import Foundation
import Testing
import TestSupport

/// An untrusted capture must never make the tool open another file.
@Suite struct HostileInputTests {
    /// Makes a FIFO at `path` and watches whether anything opens it for reading: a thread blocks
    /// opening it for writing, which succeeds only once a reader opens it.
    final class FIFOWatch: @unchecked Sendable {
        let path: String
        private let lock = NSLock()
        private var opened = false
        private var done = false

        init(path: String) throws {
            self.path = path
            guard mkfifo(path, 0o644) == 0 else { throw TestSupportError.failed("mkfifo \(path)") }
            let thread = Thread { [self] in
                let fd = open(path, O_WRONLY)
                lock.lock()
                if !done { opened = true }
                lock.unlock()
                if fd >= 0 { close(fd) }
            }
            thread.start()
        }

        /// Whether a reader opened the FIFO; releases the watching thread either way.
        func finish() -> Bool {
            lock.lock()
            let result = opened
            done = true
            lock.unlock()
            // Unblock the writer thread by opening the FIFO ourselves.
            let fd = open(path, O_RDONLY | O_NONBLOCK)
            if fd >= 0 {
                usleep(50_000)
                close(fd)
            }
            return result
        }
    }

    @Test func playlistAndConcatScriptPointingAtFilesAreRefusedUnopened() throws {
        let dir = TestSupport.temporaryDirectory("fifo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let segment = try FIFOWatch(path: dir.appendingPathComponent("segment.ts").path)
        let listed = try FIFOWatch(path: dir.appendingPathComponent("listed.mov").path)
        let playlist = dir.appendingPathComponent("capture.m3u8").path
        try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\n\(segment.path)\n#EXT-X-ENDLIST\n"
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        let concat = dir.appendingPathComponent("capture.ffconcat").path
        try "ffconcat version 1.0\nfile '\(listed.path)'\n".write(toFile: concat, atomically: true, encoding: .utf8)
        for (file, args) in [
            (playlist, ["timestamps"]), (concat, ["timestamps"]), (playlist, ["analyze"]),
            (concat, ["frame", "--at", "0", "--output", dir.appendingPathComponent("x.png").path])
        ] {
            let r = try TestSupport.tool(args + [file], timeout: 30)
            #expect(!r.crashed, "\(file): hung or crashed")
            #expect(r.status == 65, "\(file): status \(r.status) \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
        #expect(!segment.finish(), "the playlist's segment was opened")
        #expect(!listed.finish(), "the concat script's file was opened")
    }

    @Test func theRecordingItselfMustNotBeAFIFO() throws {
        let dir = TestSupport.temporaryDirectory("fifo-self")
        defer { try? FileManager.default.removeItem(at: dir) }
        let watch = try FIFOWatch(path: dir.appendingPathComponent("capture.mov").path)
        let r = try TestSupport.tool(["timestamps", watch.path], timeout: 30)
        #expect(r.status == 66 && !r.crashed)
        #expect(r.stderr.contains("not a regular file"))
        #expect(!watch.finish())
    }

    @Test func fuzzRegressionFixturesNeverCrash() throws {
        let dir = TestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/fuzz")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        for name in files.sorted() where name.hasSuffix(".mov") || name.hasSuffix(".txt") {
            let path = dir.appendingPathComponent(name).path
            let commands: [[String]] =
                name.hasSuffix(".mov")
                ? [
                    ["timestamps", path], ["orientation", path],
                    ["analyze", path, "--log", TestSupport.sampleMedia.appendingPathComponent("probe.txt").path]
                ]
                : [["log", path], ["analyze", TestSupport.sampleMedia.appendingPathComponent("flip.mov").path, "--log", path]]
            for args in commands {
                let r = try TestSupport.tool(args, timeout: 60)
                #expect(!r.crashed, "\(name) \(args[0]): crashed or hung")
                #expect([0, 1, 65].contains(r.status), "\(name) \(args[0]): status \(r.status)")
                if r.status == 65 { #expect(!r.stderr.isEmpty) }
            }
        }
    }

    @Test func batchContinuesPastBrokenFiles() throws {
        let dir = TestSupport.temporaryDirectory("batch")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            atPath: TestSupport.sampleMedia.appendingPathComponent("flip.mov").path, toPath: dir.appendingPathComponent("a.mov").path)
        try FileManager.default.copyItem(
            atPath: TestSupport.sampleMedia.appendingPathComponent("probe.txt").path, toPath: dir.appendingPathComponent("a.txt").path)
        try FileManager.default.copyItem(
            atPath: TestSupport.sampleMedia.appendingPathComponent("fixed.mov").path, toPath: dir.appendingPathComponent("b.mov").path)
        try "not a video".write(toFile: dir.appendingPathComponent("c.mov").path, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("results.jsonl").path
        let r = try TestSupport.tool(
            ["batch", dir.path, "/nonexistent/d.mov", "--json-lines", out, "--jobs", "2"] + TestSupport.snailTemplate)
        #expect(r.status == 1)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4)
        let objects = try lines.map { try TestSupport.parseJSON(String($0)) }
        #expect(objects.map { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } } == ["a.mov", "b.mov", "c.mov", "d.mov"])
        #expect(objects.map { $0["exit_code"] as? Int } == [1, 0, 65, 66])
        #expect(objects[0]["cross_check"] as? String == "matches-old", "a.txt is a.mov's probe log")
        #expect((objects[2]["error"] as? String)?.contains("c.mov") == true)
        #expect((objects[0]["report"] as? [String: Any])?["flips"] != nil)
    }
}

@Suite struct NonRegularInputTests {
    @Test func aFIFOAsProbeLogOrTemplateIsRefusedWithoutBlocking() throws {
        let dir = TestSupport.temporaryDirectory("fifo-log")
        defer { try? FileManager.default.removeItem(at: dir) }
        let watch = try HostileInputTests.FIFOWatch(path: dir.appendingPathComponent("probe.txt").path)
        let flip = TestSupport.sampleMedia.appendingPathComponent("flip.mov").path
        for args in [["log", watch.path], [flip, "--log", watch.path], [flip, "--template", watch.path]] {
            let r = try TestSupport.tool(args, timeout: 30)
            #expect(!r.crashed, "\(args): hung")
            #expect(r.status == 66, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("is not a regular file"))
        }
        #expect(!watch.finish(), "the FIFO was opened")
    }
}
