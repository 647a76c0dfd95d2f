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
            ["log", TestSupport.sampleMedia.appendingPathComponent("probe.txt").path, "--json", "/dev/null"],
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
}
