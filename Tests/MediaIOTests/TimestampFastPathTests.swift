import Foundation
import Testing
import TestSupport

/// `timestamps` reads H.264 and HEVC without decoding (picture order from the slice headers); the
/// report must be exactly what decoding every frame gives, on every kind of clip.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct TimestampFastPathTests {
    /// The timestamps document without what only decoding can know (FFmpeg's decoder messages).
    private func document(_ path: String, decode: Bool) throws -> (body: NSDictionary, source: String?) {
        let r = try TestSupport.tool(["timestamps", path, "--json", "-"] + (decode ? ["--decode"] : []))
        #expect(r.status == 0 || r.status == 1, "\(path): \(r.stderr)")
        var json = try TestSupport.parseJSON(r.stdout)
        var timestamps = try #require(json["timestamps"] as? [String: Any])
        var integrity = try #require(timestamps["integrity"] as? [String: Any])
        let source = integrity.removeValue(forKey: "timing_source") as? String
        for key in ["ffmpeg_errors", "ffmpeg_messages"] { integrity.removeValue(forKey: key) }
        timestamps["integrity"] = integrity
        json["timestamps"] = timestamps
        return (json as NSDictionary, source)
    }

    @Test func withoutDecodingTheReportIsTheDecodedOne() throws {
        let dir = TestSupport.temporaryDirectory("fast-timestamps")
        defer { try? FileManager.default.removeItem(at: dir) }
        var clips = ["flip.mov", "fixed.mov", "nonmonotonic.mov", "flip-hevc.mov"].map {
            TestSupport.sampleMedia.appendingPathComponent($0).path
        }
        clips += try Clips.variableRate(in: dir)
        clips += [try Clips.editedPTS(in: dir), try Clips.simctlLikeTiming(in: dir), try Clips.h264WithBFrames(in: dir)]
        // An edit list that cuts the start: its leading pictures are decoded as references, never shown.
        let cut = dir.appendingPathComponent("cut.mov").path
        try TestSupport.ffmpegRun(["-ss", "0.5", "-i", clips[0], "-c", "copy", cut])
        clips.append(cut)
        for path in clips {
            let fast = try document(path, decode: false)
            let decoded = try document(path, decode: true)
            #expect(fast.source == "slice-headers", "\(path) took the \(fast.source ?? "?") path")
            #expect(decoded.source == "decoder")
            #expect(fast.body == decoded.body, "\((path as NSString).lastPathComponent): the fast report differs from the decoded one")
        }
        let text = try TestSupport.tool(["timestamps", clips[0]])
        #expect(text.stdout.contains("not decoded: put in output order by the picture order counts"), "\(text.stdout)")
    }
}
