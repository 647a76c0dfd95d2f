import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import TestSupport

/// Frames extracted after a seek are the frames a decode from the first packet gives, and ffmpeg's:
/// on closed and open groups of pictures, with B-frames, in QuickTime, MP4 and WebM.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct FrameSeekTests {
    struct Clip: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        var testDescription: String { name }
    }

    /// 4 s at 30 fps with a key frame every 15 frames, so frames late in the clip are three or more
    /// groups of pictures in.
    static let allClips: [Clip] = [
        Clip(name: "h264-bframes.mp4", arguments: ["-c:v", "libx264", "-g", "15", "-bf", "3", "-pix_fmt", "yuv420p"]),
        Clip(
            name: "h264-open-gop.mov",
            arguments: ["-c:v", "libx264", "-g", "15", "-bf", "3", "-x264-params", "open-gop=1", "-pix_fmt", "yuv420p"]),
        Clip(
            name: "hevc-open-gop.mov",
            arguments: [
                "-c:v", "libx265", "-x265-params", "keyint=15:min-keyint=15:bframes=3:open-gop=1:log-level=error",
                "-pix_fmt", "yuv420p", "-tag:v", "hvc1"
            ]),
        Clip(name: "vp9.webm", arguments: ["-c:v", "libvpx-vp9", "-g", "15", "-b:v", "300k", "-deadline", "realtime"])
    ]

    static var clips: [Clip] {
        allClips.filter { clip in
            let encoder = clip.arguments[clip.arguments.firstIndex(of: "-c:v")! + 1]
            return TestSupport.ffmpegHasEncoder(encoder)
        }
    }

    @Test(arguments: FrameSeekTests.clips)
    func framesAfterASeekAreTheWholeDecodesAndFFmpegs(_ clip: Clip) throws {
        let dir = TestSupport.temporaryDirectory("seek")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(clip.name).path
        try TestSupport.ffmpegRun(["-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30", "-t", "4"] + clip.arguments + [path])
        let scan = try TimingScan(path: path)
        #expect(scan.frames.count == 120)
        let needed: Set<Int> = [59, 60, 61, 62, 88, 89, 90, 119]
        let point = try #require(SeekPoint.plan(packets: scan.packets, frames: scan.frames, needed: needed), "no seek planned")
        #expect(point.packetIndex > 0)
        let pixels: (Int, VideoFrame) throws -> [UInt8] = { _, frame in try frame.rgbImage().pixels }
        let afterSeek = try #require(
            try FrameExtraction.rgbImages(path: path, sources: needed, after: point, packets: scan.packets, make: pixels),
            "the seek was not trusted")
        let whole = try FrameExtraction.rgbImages(path: path, sources: needed, make: pixels)
        #expect(Set(afterSeek.keys) == needed)
        for index in needed.sorted() {
            #expect(afterSeek[index] == whole[index], "\(clip.name): frame #\(index) after the seek differs from the whole decode's")
        }
        let theirs = try FFmpegOracle.frameRGB(path, index: 90, in: dir)
        #expect(afterSeek[90] == theirs, "\(clip.name): frame #90 differs from ffmpeg's")
    }

    @Test func aFrameInTheFirstTwoGroupsIsDecodedFromTheStart() throws {
        let dir = TestSupport.temporaryDirectory("seek-early")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("early.mp4").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30", "-t", "2", "-c:v", "libx264", "-g", "15", "-pix_fmt", "yuv420p", path
        ])
        let scan = try TimingScan(path: path)
        #expect(SeekPoint.plan(packets: scan.packets, frames: scan.frames, needed: [10]) == nil)
        let second = try #require(SeekPoint.plan(packets: scan.packets, frames: scan.frames, needed: [20]))
        #expect(second.packetIndex == 0 && second.groupPacketIndex == 15)
        let pixels: (Int, VideoFrame) throws -> [UInt8] = { _, frame in try frame.rgbImage().pixels }
        let fromStart = try #require(
            try FrameExtraction.rgbImages(path: path, sources: [20, 21], after: second, packets: scan.packets, make: pixels))
        let whole = try FrameExtraction.rgbImages(path: path, sources: [20, 21], make: pixels)
        #expect(fromStart[20] == whole[20] && fromStart[21] == whole[21])
        #expect(SeekPoint.plan(packets: scan.packets, frames: scan.frames, needed: [31])?.packetIndex == 15)
        #expect(SeekPoint.plan(packets: scan.packets, frames: scan.frames, needed: [31])?.groupPacketIndex == 30)
    }

    /// Pictures no other one refers to, left undecoded (as the warm-up before a seek's chosen group
    /// does): fewer frames come out, and each that does is the whole decode's frame with its pts.
    @Test(arguments: FrameSeekTests.clips.filter { $0.name.contains("bframes") || $0.name.contains("hevc") })
    func picturesLeftUndecodedLeaveTheOthersAsTheyWere(_ clip: Clip) throws {
        let dir = TestSupport.temporaryDirectory("seek-nonref")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(clip.name).path
        try TestSupport.ffmpegRun(["-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30", "-t", "2"] + clip.arguments + [path])
        var whole: [Int64: [UInt8]] = [:], skipping: [Int64: [UInt8]] = [:]
        try RecordingReader(path: path).decode { frame in whole[frame.pts ?? -1] = try frame.rgbImage().pixels }
        try RecordingReader(path: path).decode(skipsUnreferenced: { _ in true }) { frame in
            skipping[frame.pts ?? -1] = try frame.rgbImage().pixels
        }
        #expect(whole.count == 60)
        #expect(skipping.count < 45, "\(clip.name): \(skipping.count) of 60 pictures decoded")
        #expect(skipping.count > 4)
        for (pts, pixels) in skipping { #expect(whole[pts] == pixels, "\(clip.name): the picture at pts \(pts) differs") }
    }

    @Test func duplicatedAndBackwardPTSAreNamedByTheirPlace() throws {
        let dir = TestSupport.temporaryDirectory("seek-edited")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("plain.mov").path
        let path = dir.appendingPathComponent("edited.mov").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30", "-t", "4", "-c:v", "libx264", "-g", "15", "-bf", "0",
            "-pix_fmt", "yuv420p", "-video_track_timescale", "600", source
        ])
        // Frame 70 is presented after frame 71; frame 80 shares frame 81's pts: simctl's timing trap.
        try TestSupport.ffmpegRun([
            "-i", source, "-c", "copy", "-video_track_timescale", "600",
            "-bsf:v", "setts=pts=if(eq(N\\,70)\\,PTS+30\\,if(eq(N\\,80)\\,PTS+20\\,PTS))", path
        ])
        let scan = try TimingScan(path: path)
        #expect(scan.audit.duplicates.count == 1 && scan.audit.nonMonotonic.count == 1)
        let needed: Set<Int> = [69, 70, 71, 80, 81]
        let point = try #require(SeekPoint.plan(packets: scan.packets, frames: scan.frames, needed: needed))
        let pixels: (Int, VideoFrame) throws -> [UInt8] = { _, frame in try frame.rgbImage().pixels }
        let afterSeek = try #require(
            try FrameExtraction.rgbImages(path: path, sources: needed, after: point, packets: scan.packets, make: pixels))
        let whole = try FrameExtraction.rgbImages(path: path, sources: needed, make: pixels)
        for index in needed.sorted() { #expect(afterSeek[index] == whole[index], "frame #\(index)") }
        #expect(afterSeek[80] != afterSeek[81], "the two frames with one pts are two pictures")
    }
}
