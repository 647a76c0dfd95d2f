import Foundation
import Testing
import TestSupport

/// `record` drives `xcrun simctl io … recordVideo`; here a stand-in `xcrun` (Tests/Fixtures/xcrun,
/// documented there) takes the real one's place, since Xcode exists only on macOS. It records the
/// signal it received, so the tests can prove the recorder is stopped with SIGINT, never killed.
@Suite struct RecordCommandTests {
    private static let standIn = TestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/xcrun").path

    private func environment(_ dir: URL, capture: String, extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = Self.standIn + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["XCRUN_STANDIN_CAPTURE"] = capture
        env["XCRUN_STANDIN_LOG"] = dir.appendingPathComponent("xcrun.log").path
        for (k, v) in extra { env[k] = v }
        return env
    }

    @Test func stopsTheRecorderWithSIGINTAndAnalysesTheCapture() throws {
        let dir = TestSupport.temporaryDirectory("record")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("capture.mov").path
        let fixed = TestSupport.sampleMedia.appendingPathComponent("fixed.mov").path
        let r = try TestSupport.run(
            TestSupport.toolPath,
            ["record", "--seconds", "0.5", "--codec", "h264", out, "--", "--expect", "fixed"] + TestSupport.snailTemplate,
            environment: environment(dir, capture: fixed))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Verdict: PASS (fixed)"), "\(r.stdout)")
        #expect(
            try String(contentsOfFile: dir.appendingPathComponent("xcrun.log").path, encoding: .utf8)
                == "simctl io booted recordVideo --codec=h264 \(out)\n")
        #expect(try String(contentsOfFile: dir.appendingPathComponent("xcrun.log.signal").path, encoding: .utf8) == "INT\n")
    }

    @Test func ctrlCIsPassedOnAsSIGINT() throws {
        let dir = TestSupport.temporaryDirectory("record-ctrl-c")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("capture.mov").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.toolPath)
        process.arguments = ["record", out]
        process.environment = environment(dir, capture: TestSupport.sampleMedia.appendingPathComponent("flip.mov").path)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !FileManager.default.fileExists(atPath: dir.appendingPathComponent("xcrun.log").path) { usleep(20_000) }
        usleep(200_000)
        kill(process.processIdentifier, SIGTERM)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(
            try String(contentsOfFile: dir.appendingPathComponent("xcrun.log.signal").path, encoding: .utf8) == "INT\n",
            "a SIGTERM to the tool must reach the recorder as SIGINT")
        #expect(process.terminationStatus == 1 && output.contains("Verdict: FAIL"), "flip.mov has a flip: \(output)")
    }

    @Test func aCaptureWithoutItsIndexIsReportedNotAnalysed() throws {
        let dir = TestSupport.temporaryDirectory("record-broken")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("capture.mov").path
        let r = try TestSupport.run(
            TestSupport.toolPath, ["record", "--seconds", "0.3", out],
            environment: environment(
                dir, capture: TestSupport.sampleMedia.appendingPathComponent("fixed.mov").path,
                extra: ["XCRUN_STANDIN_IGNORE_INT": "1"]))
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("not a finished capture") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test func withoutXcodeItSaysSo() throws {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = "/nonexistent"
        let dir = TestSupport.temporaryDirectory("record-none")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try TestSupport.run(
            TestSupport.toolPath, ["record", "--seconds", "1", dir.appendingPathComponent("x.mov").path], environment: env)
        #expect(r.status == 69 && r.stderr.contains("Xcode"), "\(r.stderr)")
        let usage = try TestSupport.run(TestSupport.toolPath, ["record", "x.mov", "--", "--expect", "maybe"], environment: env)
        #expect(usage.status == 64, "analyze options are checked before recording: \(usage.stderr)")
    }
}
