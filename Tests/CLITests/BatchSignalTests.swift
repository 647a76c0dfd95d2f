import Foundation
import Testing
import TestSupport

/// A batch can be stopped: its children stop with it, finished lines are kept, and one capture that
/// runs too long cannot stall the job.
@Suite(.serialized, .enabled(if: TestSupport.ffmpeg != nil)) struct BatchSignalTests {
    private static let fixed = TestSupport.sampleMedia.appendingPathComponent("fixed.mov").path

    /// A capture whose analysis takes a few seconds.
    private func longClip(in dir: URL, name: String = "long.mov") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=780x1688:rate=60", "-t", "20", "-c:v", "libx264",
            "-preset", "ultrafast", "-pix_fmt", "yuv420p", path
        ])
        return path
    }

    @Test func aCaptureThatTakesTooLongTimesOutAndTheRestGoOn() throws {
        let dir = TestSupport.temporaryDirectory("batch-timeout")
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = try longClip(in: dir)
        let started = Date()
        let r = try TestSupport.tool(["batch", long, Self.fixed, "--jobs", "1", "--timeout", "1"], timeout: 60)
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").compactMap { try? TestSupport.parseJSON(String($0)) }
        #expect(lines.count == 2)
        #expect((lines.first?["error"] as? String)?.hasPrefix("analysis timed out after 1 s") == true, "\(lines.first ?? [:])")
        // fixed.mov finished: auto mode, never locating the sprite, leaves it undetermined.
        #expect(lines.last?["error"] == nil && lines.last?["exit_code"] as? Int == 1, "\(lines.last ?? [:])")
        #expect((lines.last?["summary"] as? String)?.hasPrefix("UNDETERMINED: no transient mirror flip") == true)
    }

    @Test func ctrlCStopsEveryChildAndKeepsTheFinishedLines() throws {
        let dir = TestSupport.temporaryDirectory("batch-signal")
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = try longClip(in: dir)
        let copies = try (2...3).map { i -> String in
            let p = dir.appendingPathComponent("long\(i).mov").path
            try FileManager.default.copyItem(atPath: long, toPath: p)
            return p
        }
        let out = dir.appendingPathComponent("lines.jsonl").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.toolPath)
        process.arguments = ["batch", Self.fixed, long] + copies + ["--jobs", "2", "--json-lines", out]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let launched = Date()
        // Wait until fixed.mov is done and the long ones are running.
        var children: [Int32] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            children = runningAnalyses()
            if children.count == 2, children.allSatisfy({ analysisFile($0)?.hasPrefix(dir.path) == true }) { break }
            usleep(50_000)
        }
        #expect(children.count == 2, "the two long analyses should be running")
        kill(process.processIdentifier, SIGINT)
        let stopped = Date()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(stopped) < 3, "the batch took \(Date().timeIntervalSince(stopped)) s to stop")
        #expect(process.terminationStatus == 130)
        usleep(200_000)
        #expect(children.allSatisfy { kill($0, 0) != 0 }, "a child outlived the batch")
        let lines = (try? String(contentsOfFile: out, encoding: .utf8))?.split(separator: "\n") ?? []
        #expect(
            lines.count == 1 && lines.first?.contains("fixed.mov") == true,
            "\(lines.count) lines after \(stopped.timeIntervalSince(launched)) s: \(lines.map { $0.suffix(200) })")
    }

    /// Pids of running `analyze-recording analyze` processes.
    private func runningAnalyses() -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let args = arguments(pid), args.count >= 2 else { return false }
            return args[0].hasSuffix("analyze-recording") && args[1] == "analyze"
        }
    }

    private func analysisFile(_ pid: Int32) -> String? { arguments(pid).flatMap { $0.count > 2 ? $0[2] : nil } }

    private func arguments(_ pid: Int32) -> [String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Ctrl-C or SIGTERM during `cfr --output` stops the tool and leaves no partial file behind.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct InterruptedOutputTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalRemovesTheTemporaryOutput(signal: Int32) throws {
        let dir = TestSupport.temporaryDirectory("interrupt-\(signal)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("long.mp4").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=60", "-t", "30", "-c:v", "libx264",
            "-preset", "ultrafast", "-pix_fmt", "yuv420p", source
        ])
        let output = dir.appendingPathComponent("out.mov").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.toolPath)
        process.arguments = ["cfr", source, "--output", output]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the temporary output exists and is being written.
        let deadline = Date().addingTimeInterval(60)
        var partial: String?
        while Date() < deadline, partial == nil, process.isRunning {
            partial = (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.first { $0.contains(".partial-") }
            usleep(20_000)
        }
        try #require(partial != nil, "no temporary output appeared")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(
            process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
            "status \(process.terminationStatus), reason \(process.terminationReason.rawValue)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "long.mp4" }
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
