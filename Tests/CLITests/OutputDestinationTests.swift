import Foundation
import Testing
import TestSupport

/// Outputs go where the user points them without replacing what is there by accident: a device is
/// written, never renamed over; a symlink's target is replaced, never the link.
@Suite struct OutputDestinationTests {
    private let flip = TestSupport.sampleMedia.appendingPathComponent("flip.mov").path

    private func isCharacterDevice(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR
    }

    @Test func devNullStaysADevice() throws {
        #expect(isCharacterDevice("/dev/null"))
        let runs = [
            ["frame", flip, "--at", "4.05", "--output", "/dev/null"],
            ["cfr", flip, "--output", "/dev/null"],
            [flip, "--json", "/dev/null"],
            ["log", TestSupport.sampleMedia.appendingPathComponent("probe.txt").path, "--json", "/dev/null"]
        ]
        for args in runs {
            let r = try TestSupport.tool(args)
            #expect(r.status == 0 || r.status == 1, "\(args): \(r.stderr)")
            #expect(isCharacterDevice("/dev/null"), "\(args) replaced /dev/null")
        }
    }

    @Test func aSymlinkIsFollowedNotReplaced() throws {
        let dir = TestSupport.temporaryDirectory("symlink")
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("report.json").path
        let target = dir.appendingPathComponent("target.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let r = try TestSupport.tool([flip, "--json", link])
        #expect(r.status == 1, "\(r.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target)
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.contains("\"schema_version\""))
    }

    @Test func anOutputThatIsAnInputIsRefusedAndTheInputSurvives() throws {
        let dir = TestSupport.temporaryDirectory("clobber")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rec = dir.appendingPathComponent("rec.mov").path, log = dir.appendingPathComponent("log.txt").path
        try FileManager.default.copyItem(atPath: flip, toPath: rec)
        try FileManager.default.copyItem(atPath: TestSupport.sampleMedia.appendingPathComponent("probe.txt").path, toPath: log)
        let link = dir.appendingPathComponent("link.mov").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: rec)
        let original = try Data(contentsOf: URL(fileURLWithPath: rec)), originalLog = try Data(contentsOf: URL(fileURLWithPath: log))
        let runs: [[String]] = [
            ["frame", rec, "--at", "1", "--output", rec],
            [rec, "--json", rec],
            [rec, "--log", log, "--json", log],
            ["log", log, "--json", log],
            ["batch", rec, "--json-lines", rec],
            ["cfr", rec, "--output", dir.path + "/./rec.mov"],
            ["cfr", rec, "--output", link],
            [rec, "--template", TestSupport.sampleMedia.appendingPathComponent("snail.png").path, "--json", rec]
        ]
        for args in runs {
            let r = try TestSupport.tool(args)
            #expect(r.status == 73, "\(args): exit \(r.status)")
            #expect(
                r.stderr.contains("of this run; refusing to overwrite it") && r.stderr.split(separator: "\n").count == 1,
                "\(args): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: rec)) == original)
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == originalLog)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["link.mov", "log.txt", "rec.mov"], "left behind: \(left)")
    }

    @Test func aFullOrClosedStandardOutputIsExit74NotACrash() throws {
        for redirect in ["> /dev/full", ">&-"] {
            let r = try TestSupport.run("/bin/sh", ["-c", "'\(TestSupport.toolPath)' '\(flip)' \(redirect)"])
            #expect(!r.crashed)
            #expect(r.status == 74, "\(redirect): exit \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("analyze-recording: cannot write to standard output: "), "\(r.stderr)")
        }
        let quiet = try TestSupport.run("/bin/sh", ["-c", "'\(TestSupport.toolPath)' /nonexistent.mov 2> /dev/full"])
        #expect(!quiet.crashed && quiet.status == 74)
    }
}

/// Strings from files reach the terminal escaped: no cursor moves, hidden text or fake lines.
@Suite struct TerminalSafeTextTests {
    @Test func aFileNameWithEscapesCannotForgeALine() throws {
        let dir = TestSupport.temporaryDirectory("escape")
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = dir.appendingPathComponent("x\u{1B}[8mhidden\nVerdict: PASS (fixed).mov").path
        try FileManager.default.copyItem(atPath: TestSupport.sampleMedia.appendingPathComponent("fixed.mov").path, toPath: name)
        let r = try TestSupport.tool(["timestamps", name])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("\u{1B}"))
        #expect(!r.stdout.split(separator: "\n").contains { $0.hasPrefix("Verdict:") })
        #expect(r.stdout.contains("x\\e[8mhidden\\x0AVerdict: PASS (fixed).mov"), "\(r.stdout.prefix(300))")
    }
}

/// An output name is a local path, never a protocol: `http://…` does not reach a network and a
/// folder with a colon in its name works.
@Suite struct OutputProtocolTests {
    @Test func aURLIsALocalPathAndAColonIsFine() throws {
        let dir = TestSupport.temporaryDirectory("proto")
        defer { try? FileManager.default.removeItem(at: dir) }
        let flip = TestSupport.sampleMedia.appendingPathComponent("flip.mov").path
        // Nothing listens on this port; a connection attempt would show as a different error.
        let url = try TestSupport.tool(["cfr", flip, "--output", "http://127.0.0.1:9/x.mov"])
        #expect(url.status == 73)
        #expect(url.stderr == "analyze-recording: http://127.0.0.1:9/x.mov: cannot write: directory http:/127.0.0.1:9 does not exist\n")
        let folder = dir.appendingPathComponent("results:v2")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("out.mov").path
        let ok = try TestSupport.tool(["cfr", flip, "--output", out])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }
}

/// A reused evidence folder holds only the current run's files; a folder with other files is refused.
@Suite struct EvidenceFolderTests {
    @Test func staleFilesAreRemovedAndForeignFoldersRefused() throws {
        let dir = TestSupport.temporaryDirectory("evidence-reuse")
        defer { try? FileManager.default.removeItem(at: dir) }
        let flip = TestSupport.sampleMedia.appendingPathComponent("flip.mov").path
        let stale = dir.appendingPathComponent("flip-7.png")
        try Data("old".utf8).write(to: stale)
        let r = try TestSupport.tool([flip, "--evidence", dir.path])
        #expect(r.status == 1, "\(r.stderr)")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(!files.contains("flip-7.png"), "the stale strip of an earlier run is still there: \(files)")
        #expect(files.isSuperset(of: ["flip-1.png", "index.html", "report.json", "timeline.png"]), "\(files)")

        let notes = dir.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: notes)
        let refused = try TestSupport.tool([flip, "--evidence", dir.path])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("notes.txt") && refused.stderr.split(separator: "\n").count == 1)
        #expect(FileManager.default.fileExists(atPath: notes.path), "a user's file was removed")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("flip-1.png").path))
    }
}
