import Foundation
import Testing
import TestSupport

private func sample(_ name: String) -> String { TestSupport.sampleMedia.appendingPathComponent(name).path }

@Suite struct CFRCommandTests {
    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func jsonMapIsFFmpegsMap() throws {
        let r = try TestSupport.tool(["cfr", sample("flip.mov"), "--json", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try TestSupport.parseJSON(r.stdout)
        let cfr = try #require(json["cfr"] as? [String: Any])
        let map = try #require(cfr["map"] as? [Int])
        #expect(map == (try FFmpegOracle.fpsSlotMap(sample("flip.mov"), rate: "60")))
        #expect(cfr["fps"] as? Int == 60)
        #expect(cfr["frames"] as? Int == map.count)
        #expect(cfr["duplicated"] as? Int == map.count - Set(map).count)
        #expect((cfr["dropped"] as? [Int]) == [])
        #expect(cfr["clock"] as? String == "pts")
        // flip.mov's truth: 480 vsyncs of 8 s.
        #expect(map.count == 480)
    }

    @Test func nonMonotonicInputIsRepairedAndWarned() throws {
        let r = try TestSupport.tool(["cfr", sample("nonmonotonic.mov"), "--json", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        let cfr = try #require(try TestSupport.parseJSON(r.stdout)["cfr"] as? [String: Any])
        #expect(cfr["clock"] as? String == "dts")
        #expect((cfr["warnings"] as? [String])?.isEmpty == false)
        // The truth: the mirrored frame (#7) is on screen for vsyncs 241-244.
        let map = try #require(cfr["map"] as? [Int])
        #expect(Array(map[240...245]) == [6, 7, 7, 7, 7, 8])
        let text = try TestSupport.tool(["cfr", sample("nonmonotonic.mov")])
        #expect(text.stdout.contains("Warning  pts are not strictly increasing in output order (1 repeats, 2 step back)"), "\(text.stdout)")
    }

    @Test(.enabled(if: TestSupport.ffprobe != nil)) func outputIsAConstantRateVideo() throws {
        let dir = TestSupport.temporaryDirectory("cfr-out")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("cfr.mov").path
        let r = try TestSupport.tool(["cfr", sample("flip.mov"), "--fps", "30", "--output", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Wrote \(out): 240 frames at 30 fps"))
        let pts = try TestSupport.ffprobeFramePTS(out)
        #expect(pts.count == 240)
        let probe = try TestSupport.run(
            TestSupport.ffprobe!,
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=codec_name,time_base,r_frame_rate", "-of", "csv=p=0", out
            ])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,30/1,1/30")
        // Constant rate: pts run 0, 1, 2, ... in 1/30.
        #expect(pts.compactMap { $0 } == (0..<240).map { Int64($0) })
    }

    @Test func badRatesAreUsageErrors() throws {
        for bad in ["0", "abc", "60/0", "-5", "29.97"] {
            let r = try TestSupport.tool(["cfr", sample("flip.mov"), "--fps", bad])
            #expect(r.status == 64, "--fps \(bad): \(r.stderr)")
            #expect(r.stderr.contains("--fps"))
        }
    }
}

@Suite struct FrameCommandTests {
    @Test(.enabled(if: TestSupport.ffmpeg != nil)) func atWritesTheFrameFFmpegShows() throws {
        let dir = TestSupport.temporaryDirectory("frame-at")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (file, time, slot) in [("flip.mov", "4.05", 243), ("flip-hevc.mov", "4050ms", 243), ("turns.mov", "6.5s", 390)] {
            guard FileManager.default.fileExists(atPath: sample(file)) else { continue }
            let png = dir.appendingPathComponent("\(file).png").path
            let r = try TestSupport.tool(["frame", sample(file), "--at", time, "--output", png])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("slot \(slot) "), "\(r.stdout)")
            let raw = dir.appendingPathComponent("\(file).rgb").path
            try TestSupport.ffmpegRun(["-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
            let ours = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
            let theirs = try FFmpegOracle.fpsFrameRGB(sample(file), rate: "60", slot: slot, in: dir)
            #expect(ours.count == 390 * 844 * 3)
            #expect(ours == theirs, "\(file) slot \(slot) is not pixel-identical to ffmpeg's")
        }
    }

    @Test func theTwoClocksDisagreeOnTheTrap() throws {
        let dir = TestSupport.temporaryDirectory("frame-clock")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("x.png").path
        let cfr = try TestSupport.tool(["frame", sample("nonmonotonic.mov"), "--at", "4.09", "--output", png])
        #expect(cfr.status == 0, "\(cfr.stderr)")
        #expect(cfr.stdout.contains("slot 245"))
        #expect(cfr.stdout.contains("The two clocks disagree"))
        #expect(cfr.stdout.contains("Wrote \(png): source frame #8"))
        let pts = try TestSupport.tool(["frame", sample("nonmonotonic.mov"), "--at", "4.09", "--clock", "pts", "--output", png])
        #expect(pts.stdout.contains("Wrote \(png): source frame #7"))
        let agree = try TestSupport.tool(["frame", sample("flip.mov"), "--at", "0", "--output", png])
        #expect(!agree.stdout.contains("disagree"))
    }

    @Test(.enabled(if: TestSupport.ffprobe != nil)) func aroundWritesAFilmstrip() throws {
        let dir = TestSupport.temporaryDirectory("frame-strip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("strip.png").path
        let r = try TestSupport.tool(["frame", sample("flip.mov"), "--around", "4.05", "--count", "8", "--output", png])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.contains("tile") }
        #expect(rows.count == 8)
        #expect(rows[2].contains("241") && rows[2].contains("#7"))
        let probe = try TestSupport.run(
            TestSupport.ffprobe!, ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", png])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(8 * 390 + 7 * 2),844")
        // Twenty tiles would be too wide at full size: they are scaled to stay under 4096 px.
        let wide = try TestSupport.tool(["frame", sample("flip.mov"), "--around", "4.05", "--count", "20", "--output", png])
        #expect(wide.status == 0)
        let size = try TestSupport.run(TestSupport.ffprobe!, ["-v", "error", "-show_entries", "stream=width", "-of", "csv=p=0", png])
        #expect((Int(size.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 9999) < 4096)
    }

    @Test func usageErrors() throws {
        let cases: [[String]] = [
            ["frame", sample("flip.mov"), "--at", "4", "--around", "4", "--output", "/tmp/x.png"],
            ["frame", sample("flip.mov"), "--at", "4"],
            ["frame", sample("flip.mov"), "--at", "four", "--output", "/tmp/x.png"],
            ["frame", sample("flip.mov"), "--around", "4", "--output", "/tmp/x.png"],
            ["frame", sample("flip.mov"), "--around", "4", "--count", "0", "--output", "/tmp/x.png"],
            ["frame", sample("flip.mov"), "--at", "4", "--clock", "wall", "--output", "/tmp/x.png"]
        ]
        for args in cases {
            let r = try TestSupport.tool(args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func pastTheEndIsABadRequestNotACrash() throws {
        let r = try TestSupport.tool(["frame", sample("flip.mov"), "--at", "99", "--output", "/tmp/never.png"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("no frame at 99.000 s") && r.stderr.contains("the recording ends at 8.000 s"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.png"))
    }
}

@Suite struct ROITests {
    @Test func theRegionOfInterestLimitsTheSearch() throws {
        let flip = TestSupport.sampleMedia.appendingPathComponent("flip.mov").path
        // The card holds the snail: the flip is found there.
        let card = try TestSupport.tool(["orientation", flip, "--roi", "12,56,366,236", "--json", "-"])
        #expect(card.status == 1, "a flip is a finding: \(card.stderr)")
        #expect((try TestSupport.parseJSON(card.stdout)["flips"] as? [Any])?.count == 1)
        // The list below it has no sprite: nothing mirrors there.
        let list = try TestSupport.tool(["orientation", flip, "--roi", "0,320,390,500", "--json", "-"])
        #expect(list.status == 0)
        #expect((try TestSupport.parseJSON(list.stdout)["flips"] as? [Any])?.isEmpty == true)
        // A rectangle outside the recording is a usage error.
        let outside = try TestSupport.tool(["orientation", flip, "--roi", "1000,1000,10,10"])
        #expect(outside.status == 64)
        #expect(outside.stderr.contains("outside the 390x844 recording"))
    }
}

/// A capture whose frame size changes: found where ffprobe sees it, and the grid not claimed to be
/// the ffmpeg CLI's, which rebuilds its filters there and loses the frame before the change.
@Suite struct FrameSizeChangeTests {
    @Test(.enabled(if: TestSupport.ffprobe != nil && TestSupport.ffmpeg != nil))
    func theChangeIsReportedAndTheGridIsNotClaimedToBeFFmpegs() throws {
        let dir = TestSupport.temporaryDirectory("size-change")
        defer { try? FileManager.default.removeItem(at: dir) }
        guard let path = try Clips.vp9SizeChange(in: dir) else { return }
        let probe = try TestSupport.run(
            TestSupport.ffprobe!, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=width,height", "-of", "csv=p=0", path])
        let sizes = probe.stdout.split(separator: "\n").map(String.init)
        let changeAt = try #require(sizes.indices.dropFirst().first { sizes[$0] != sizes[$0 - 1] })
        let r = try TestSupport.tool(["cfr", path, "--fps", "30", "--json", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        let cfr = try #require(try TestSupport.parseJSON(r.stdout)["cfr"] as? [String: Any])
        let changes = try #require(cfr["frame_size_changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes.first?["frame"] as? Int == changeAt)
        #expect(changes.first?["width"] as? Int == 96 && changes.first?["previous_width"] as? Int == 160)
        #expect(cfr["same_slots_as_ffmpeg"] as? Bool == false)
        // Why: the ffmpeg CLI's fps output has fewer frames than the grid over the whole stream.
        let map = try #require(cfr["map"] as? [Int])
        let md5 = try TestSupport.run(
            TestSupport.ffmpeg!, ["-v", "error", "-i", path, "-map", "0:v:0", "-vf", "fps=30", "-f", "framemd5", "-"])
        let outputs = md5.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        #expect(outputs > 0 && outputs < map.count, "ffmpeg \(outputs) frames, the grid \(map.count) slots")
        let text = try TestSupport.tool(["cfr", path, "--fps", "30"])
        #expect(
            text.stdout.contains("not claimed to match ffmpeg -i REC -vf fps=30: the frame size changes at #\(changeAt)"), "\(text.stdout)")
    }

    @Test func aCaptureOfOneSizeHasNoChange() throws {
        let r = try TestSupport.tool(["cfr", TestSupport.sampleMedia.appendingPathComponent("flip.mov").path, "--json", "-"])
        let cfr = try #require(try TestSupport.parseJSON(r.stdout)["cfr"] as? [String: Any])
        #expect((cfr["frame_size_changes"] as? [Any])?.isEmpty == true)
        #expect(cfr["same_slots_as_ffmpeg"] as? Bool == true)
    }
}
