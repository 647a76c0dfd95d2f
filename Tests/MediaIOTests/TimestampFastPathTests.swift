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
        clips += [
            try Clips.editedPTS(in: dir), try Clips.simctlLikeTiming(in: dir), try Clips.h264WithBFrames(in: dir),
            try Clips.h264SceneCuts(in: dir)
        ]
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

    /// ffprobe's key frames (the decoder's) against the container's sync samples and the tool's
    /// key frames without decoding, on a clip whose container flags more sync samples than the
    /// decoder marks key frames.
    @Test func keyFramesAreTheDecodersNotTheContainersSyncSamples() throws {
        let dir = TestSupport.temporaryDirectory("scene-cuts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Clips.h264SceneCuts(in: dir)
        let ffprobe = try #require(TestSupport.ffprobe)
        func probe(_ entries: String) throws -> [[Substring]] {
            let r = try TestSupport.run(
                ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", entries, "-of", "csv=p=0", path])
            return r.stdout.split(separator: "\n").map { $0.split(separator: ",") }.filter { !$0.isEmpty }
        }
        let syncSamples = try probe("packet=flags").filter { $0[0].hasPrefix("K") }.count
        let decoderKeys = try probe("frame=pts,key_frame").compactMap { f -> Int64? in f.count >= 2 && f[0] == "1" ? Int64(f[1]) : nil }
        #expect(syncSamples > decoderKeys.count, "the clip must flag a non-IDR picture a sync sample")
        let r = try TestSupport.tool(["timestamps", path, "--json", "-"])
        let frames = try #require((try TestSupport.parseJSON(r.stdout)["timestamps"] as? [String: Any])?["frames"] as? [[String: Any]])
        let toolKeys = frames.compactMap { f -> Int64? in (f["key"] as? Bool) == true ? (f["pts"] as? NSNumber)?.int64Value : nil }
        #expect(toolKeys == decoderKeys)
    }
}
