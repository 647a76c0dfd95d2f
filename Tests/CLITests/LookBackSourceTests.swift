import Foundation
import Testing
import MediaIO
import TestSupport
@testable import AnalyzeRecordingCLI
@testable import RecordingAnalysis

/// Auto mode's look-back reads the frames before its track from the whole gray images the first pass
/// set aside instead of decoding them again; what it reads must be what decoding gives, frame for
/// frame.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct LookBackSourceTests {
    /// The binary with a temporary directory (the spill) and with none (it cannot make one, and
    /// decodes): the same report, on the samples whose first flip starts a track (H.264 and HEVC)
    /// and on the turning walk.
    @Test(arguments: ["flip.mov", "flip-hevc.mov", "turns.mov"])
    func aReportIsTheSameWithAndWithoutTheSpill(_ name: String) throws {
        let dir = TestSupport.temporaryDirectory("spill-dir")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = TestSupport.sampleMedia.appendingPathComponent(name).path
        func report(tmp: String) throws -> String {
            let r = try TestSupport.run(TestSupport.toolPath, ["orientation", path, "--json", "-"], environment: ["TMPDIR": tmp])
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
            return r.stdout
        }
        let spilled = try report(tmp: dir.path), decoded = try report(tmp: dir.appendingPathComponent("absent").path)
        #expect(spilled.contains("\"measured\":true"))
        #expect(spilled == decoded)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(left.isEmpty, "nothing left in the temporary directory")
    }

    /// In process, where the way each reading went is visible: the flip sample's first 16 frames at
    /// half size (its first event is at frame 7; small, so the debug build's detector is quick).
    @Test func theLookBackReadsTheSpillAndGetsWhatDecodingGets() throws {
        let dir = TestSupport.temporaryDirectory("look-back")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("flip-half.mov").path
        try TestSupport.ffmpegRun([
            "-i", TestSupport.sampleMedia.appendingPathComponent("flip.mov").path, "-frames:v", "16", "-vf", "scale=196:422",
            "-fps_mode", "passthrough", "-c:v", "libx264", "-crf", "16", path
        ])
        func analysis(spillBudget: Int) throws -> CaptureAnalysis {
            try CaptureAnalysis(
                recording: path, rate: nil, rule: GridRule(), templatePath: nil, roi: nil, transientMS: 250, spillBudget: spillBudget)
        }
        let setAside = try analysis(spillBudget: CaptureAnalysis.spillBudget), decoded = try analysis(spillBudget: 0)
        #expect(setAside.lookBackReads == [.setAside(frames: 6)])
        #expect(decoded.lookBackReads == [.decoded(frames: 6)])
        #expect(setAside.detection.orientations == decoded.detection.orientations)
        #expect(setAside.detection.orientations.prefix(6).allSatisfy { $0.measured }, "the look-back measured those frames")

        // The first pass feeds auto mode's detector on a thread of its own until it has a track
        // (`DetectorFeedThread`): the same orientations as feeding it where the frames are decoded,
        // each with the region it asks for, then reading the frames before the track again.
        var plain = MirrorDetector(MirrorDetector.Configuration(template: nil, roi: nil))
        var repeats = RepeatedFrames()
        try RecordingReader(path: path, options: DecodeOptions(skipLoopFilter: true)).decode { frame in
            guard repeats.record(repeatsPrevious: frame.repeatsPrevious) != nil else { return }
            let gray = try frame.grayImage(width: 196, height: 422, region: plain.regionForNextFrame)
            try plain.feed(
                index: plain.orientations.count, image: gray,
                colourFrame: { ColourChannel.Views(distance: try frame.colourChannelImage(width: 196, height: 422)) },
                fullFrame: { try frame.grayImage(width: 196, height: 422) })
        }
        var source = LookBackSource(recording: path, width: 196, height: 422, fullDecode: false, spill: nil)
        try CaptureAnalysis.lookBack(&plain, from: &source, repeats: repeats)
        #expect(plain.orientations == setAside.detection.orientations)
        #expect(plain.firstEvent?.index == setAside.detection.firstEventFrame)
    }
}
