import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import SampleScene
import TestSupport

private func truthFiles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: TestSupport.sampleMedia, includingPropertiesForKeys: nil)
        .filter { $0.lastPathComponent.hasSuffix(".truth.json") }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}

private func loadTruth(_ url: URL) throws -> [String: Any] {
    try TestSupport.parseJSON(String(contentsOf: url, encoding: .utf8))
}

private func int64s(_ value: Any?) -> [Int64] { (value as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.int64Value } }

@Suite struct SampleMediaTests {
    @Test func everyCaptureHasItsTruth() throws {
        let names = try truthFiles().map(\.lastPathComponent)
        for expected in ["flip.truth.json", "fixed.truth.json", "nonmonotonic.truth.json", "turns.truth.json"] {
            #expect(names.contains(expected))
        }
        for file in [
            "flip.mov", "fixed.mov", "nonmonotonic.mov", "turns.mov", "probe.txt", "probe-fixed.txt",
            "probe-console.txt", "snail.png", "tap-filmstrip.png", "README.md"
        ] {
            #expect(FileManager.default.fileExists(atPath: TestSupport.sampleMedia.appendingPathComponent(file).path), "\(file)")
        }
        let size = try FileManager.default.contentsOfDirectory(at: TestSupport.sampleMedia, includingPropertiesForKeys: [.fileSizeKey])
            .reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
        #expect(size < 3_000_000, "SampleMedia is \(size) bytes")
    }

    @Test func committedTruthAndLogsAgreeWithAFreshRun() throws {
        let dir = TestSupport.temporaryDirectory("truth")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try TestSupport.run(TestSupport.productPath("make-sample-media"), [dir.path, "--truth-only"])
        #expect(r.status == 0, "\(r.stderr)")
        let fresh = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(fresh.contains("flip.truth.json") && fresh.contains("probe.txt"))
        for name in fresh {
            let new = try Data(contentsOf: dir.appendingPathComponent(name))
            let old = try Data(contentsOf: TestSupport.sampleMedia.appendingPathComponent(name))
            #expect(new == old, "\(name) differs from a fresh run")
        }
    }

    /// The whole set, videos included, regenerates byte for byte with the FFmpeg that made it.
    @Test func regenerationIsByteIdentical() throws {
        let recorded = try String(contentsOf: TestSupport.sampleMedia.appendingPathComponent("GENERATOR.txt"), encoding: .utf8)
        guard recorded.contains(LibraryVersions.description) else {
            print("skipping byte comparison: SampleMedia was made with another FFmpeg (\(recorded.trimmingCharacters(in: .newlines)))")
            return
        }
        let dir = TestSupport.temporaryDirectory("regen")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try TestSupport.run(TestSupport.productPath("make-sample-media"), [dir.path], timeout: 600)
        #expect(r.status == 0, "\(r.stderr)")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
            let new = try Data(contentsOf: dir.appendingPathComponent(name))
            let old = try Data(contentsOf: TestSupport.sampleMedia.appendingPathComponent(name))
            #expect(new == old, "\(name) is not byte-identical to the committed file")
        }
    }

    @Test func readerAgreesWithTheTruth() throws {
        for url in try truthFiles() {
            let truth = try loadTruth(url)
            let file = try #require(truth["file"] as? String)
            let path = TestSupport.sampleMedia.appendingPathComponent(file).path
            let scan = try TimingScan(path: path)
            #expect(scan.info.timeBase == Rational(1, 600), "\(file)")
            #expect(scan.info.width == 390 && scan.info.height == 844)
            #expect(scan.frames.count == truth["frames"] as? Int, "\(file)")
            #expect(scan.frames.map(\.pts) == int64s(truth["frame_pts"]).map { Optional($0) }, "\(file)")
            let audit = scan.audit
            #expect(audit.nonMonotonic.map { Int64($0.index) } == int64s(truth["non_monotonic"]), "\(file)")
            #expect(audit.duplicates.map { Int64($0.index) } == int64s(truth["duplicates"]), "\(file)")
            #expect(audit.hasBFrames == (truth["b_frames"] as? Bool), "\(file)")
            #expect(audit.dtsNonMonotonic.isEmpty)
            #expect(audit.isVariableFrameRate)
            #expect(scan.info.codec == truth["codec"] as? String)
        }
    }

    @Test(.enabled(if: TestSupport.ffprobe != nil)) func ffprobeAgreesOnFramePTS() throws {
        for url in try truthFiles() {
            let truth = try loadTruth(url)
            let file = try #require(truth["file"] as? String)
            let oracle = try TestSupport.ffprobeFramePTS(TestSupport.sampleMedia.appendingPathComponent(file).path)
            #expect(oracle == int64s(truth["frame_pts"]).map { Optional($0) }, "\(file)")
        }
    }

    @Test func theMirroredFrameReallyIsMirrored() throws {
        // Decode flip.mov and compare the sprite's neighbourhood in the frame before the tap,
        // the mirrored frame and its horizontal mirror: pixels, not the simulation's word.
        let truth = try loadTruth(TestSupport.sampleMedia.appendingPathComponent("flip.truth.json"))
        let facing = (truth["frame_facing"] as? [String]) ?? []
        let mirroredIndex = try #require(facing.firstIndex(of: "left"))
        let reader = try RecordingReader(path: TestSupport.sampleMedia.appendingPathComponent("flip.mov").path)
        var frames: [Int: GrayImage] = [:]
        var index = 0
        try reader.decode { frame in
            if index == mirroredIndex - 1 || index == mirroredIndex { frames[index] = try frame.grayImage() }
            index += 1
        }
        let before = try #require(frames[mirroredIndex - 1]), flipped = try #require(frames[mirroredIndex])
        // The sprite's box: card origin (12, 56) + sprite offset (16, spriteY).
        let x0 = SnailScene.card.x + 16, y0 = SnailScene.card.y + Int(SnailScene.spriteY)
        var direct = 0, mirrored = 0
        for y in y0..<(y0 + SnailSprite.height) {
            for x in 0..<SnailSprite.width {
                let a = Int(before[x0 + x, y]), b = Int(flipped[x0 + x, y]), m = Int(flipped[x0 + SnailSprite.width - 1 - x, y])
                direct += abs(a - b)
                mirrored += abs(a - m)
            }
        }
        #expect(mirrored * 4 < direct, "mirror difference \(mirrored) vs direct difference \(direct)")
    }
}

@Suite struct CaptureSimulationTests {
    @Test func legacyFormulaWrapsANegativeElapsedAndTheClampDoesNot() {
        #expect(abs(WalkFormula.legacy.phase(elapsed: -0.01517, period: 90) - 0.99983) < 0.00001)
        #expect(WalkFormula.clamped.phase(elapsed: -0.01517, period: 90) == 0)
        #expect(!WalkFormula.facesRight(phase: WalkFormula.legacy.phase(elapsed: -0.01517, period: 90)))
        #expect(WalkFormula.legacy.phase(elapsed: 0.03483, period: 90) == WalkFormula.clamped.phase(elapsed: 0.03483, period: 90))
    }

    @Test func theLegacyCaptureMirrorsForFourVsyncsAndTheFixedOneNever() {
        let flip = CaptureSimulation(CaptureScript(name: "flip", formula: .legacy))
        let mirrored = flip.screens.indices.filter { !flip.screens[$0].facingRight }
        #expect(mirrored.count == 4)
        #expect(mirrored == Array(mirrored[0]..<(mirrored[0] + 4)))
        let firstProbe = flip.probed[0]
        #expect(firstProbe.elapsed! < -0.010 && firstProbe.elapsed! > -0.020, "first elapsed is about -15 ms")
        #expect(flip.baseline.count == 15 && flip.baseline.allSatisfy { $0.skew < 0 })
        let fixed = CaptureSimulation(CaptureScript(name: "fixed", formula: .clamped))
        #expect(fixed.screens.allSatisfy { $0.facingRight })
        let predicted = SampleTruth.predictedFlips(fixed, formula: .legacy)
        #expect(predicted.count == 1, "the fixed capture's log still shows what the legacy formula would have done")
    }

    @Test func theRecorderEmitsOnlyWhenTheScreenChanges() {
        let sim = CaptureSimulation(CaptureScript(name: "flip", formula: .legacy))
        let emitted = sim.emittedVsyncs
        for (a, b) in zip(emitted, emitted.dropFirst()) {
            #expect(sim.screens[a] != sim.screens[b])
            for k in (a + 1)..<b { #expect(sim.screens[k] == sim.screens[a]) }
        }
        // Static seconds before the tap: no frame between the list's launch and the tap.
        let tapVsync = sim.probed[0].appearsAtVsync
        #expect(!emitted.contains { $0 > 20 && $0 < tapVsync })
    }

    @Test func consoleLogHasPrefixesAndNoCounters() {
        let sim = CaptureSimulation(CaptureScript(name: "flip", formula: .legacy))
        let lines = ProbeLogWriter.console(sim).split(separator: "\n")
        #expect(lines.allSatisfy { $0.contains(" Tinnitus[48213:2117734] ") })
        #expect(lines.first!.hasPrefix("2026-08-20 "))
        #expect(!lines.contains { $0.contains("#0") })
        #expect(lines.filter { $0.contains("skew=") }.count == sim.probed.count)
        #expect(lines.filter { $0.contains("base skew(t-now)=") }.count == 15)
    }
}
