import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import TestSupport

/// Frames a prefetch decoded beside another pass are the frames a whole decode gives, and ffmpeg's;
/// when it cannot give them exactly it gives nothing, and never hangs.
@Suite(.enabled(if: TestSupport.ffmpeg != nil)) struct FramePrefetchTests {
    /// A budget no test process reaches: tests running beside each other share one process's memory.
    static let anyMemory = 1 << 40

    static func pixels(_ index: Int, _ frame: VideoFrame) throws -> [UInt8] { try frame.rgbImage().pixels }

    /// 4 s at 30 fps, a key frame every 15 frames.
    static func clip(_ name: String, _ arguments: [String], in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try TestSupport.ffmpegRun(["-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30", "-t", "4"] + arguments + [path])
        return path
    }

    static let codecs: [[String]] = [
        ["-c:v", "libx264", "-g", "15", "-bf", "3", "-pix_fmt", "yuv420p"],
        ["-c:v", "libx265", "-x265-params", "keyint=15:min-keyint=15:bframes=3:open-gop=1:log-level=error", "-pix_fmt", "yuv420p"]
    ].filter { TestSupport.ffmpegHasEncoder($0[1]) }

    @Test(arguments: FramePrefetchTests.codecs)
    func framesAfterTheStartPointAreTheWholeDecodesAndFFmpegs(_ codec: [String]) throws {
        let dir = TestSupport.temporaryDirectory("prefetch")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.clip(codec[1] + ".mov", codec, in: dir)
        let scan = try TimingScan(path: path)
        let needed: Set<Int> = [52, 53, 60, 61, 88, 119]
        for startPoint in [0, 7, 50] {
            let prefetch = FramePrefetch(path: path, residentBudget: Self.anyMemory)
            prefetch.start(before: startPoint)
            // Let it reach its start point first sometimes, as it does beside a long pass.
            if startPoint == 50 { Thread.sleep(forTimeInterval: 0.5) }
            let prefetched = try #require(prefetch.frames(needed, timings: scan, make: Self.pixels), "start \(startPoint): nothing")
            prefetch.cancel()
            let whole = try FrameExtraction.rgbImages(path: path, sources: needed, make: Self.pixels)
            #expect(Set(prefetched.keys) == needed)
            for index in needed.sorted() {
                #expect(
                    prefetched[index] == whole[index], "\(codec[1]), start \(startPoint): frame #\(index) differs from the whole decode's")
            }
        }
        let prefetch = FramePrefetch(path: path, residentBudget: Self.anyMemory)
        prefetch.start(before: 40)
        let theirs = try FFmpegOracle.frameRGB(path, index: 60, in: dir)
        let sameAsFFmpeg = prefetch.frames([60], timings: scan, make: Self.pixels)?[60] == theirs
        #expect(sameAsFFmpeg, "frame #60 differs from ffmpeg's")
    }

    @Test func whatItCannotGiveExactlyItDoesNotGive() throws {
        let dir = TestSupport.temporaryDirectory("prefetch-refused")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.clip("a.mp4", ["-c:v", "libx264", "-g", "15", "-pix_fmt", "yuv420p"], in: dir)
        let scan = try TimingScan(path: path)

        // Never started: nothing to give.
        #expect(FramePrefetch(path: path, residentBudget: Self.anyMemory).frames([5], timings: scan, make: Self.pixels) == nil)
        // Asked for a frame before the one it was started toward: that frame went by undecoded.
        let late = FramePrefetch(path: path, residentBudget: Self.anyMemory)
        late.start(before: 60)
        #expect(late.frames([59, 70], timings: scan, make: Self.pixels) == nil)
        // The timings of another recording: its frames would be named wrongly.
        let other = try Self.clip("b.mp4", ["-c:v", "libx264", "-g", "10", "-pix_fmt", "yuv420p", "-r", "25"], in: dir)
        let mismatched = FramePrefetch(path: path, residentBudget: Self.anyMemory)
        mismatched.start(before: 30)
        #expect(mismatched.frames([40], timings: try TimingScan(path: other), make: Self.pixels) == nil)
        // A frame past the end never comes out.
        let pastEnd = FramePrefetch(path: path, residentBudget: Self.anyMemory)
        pastEnd.start(before: 100)
        #expect(pastEnd.frames([110, 500], timings: scan, make: Self.pixels) == nil)
        // Cancelled while decoding, or never asked: the thread ends and nothing waits on it.
        let cancelled = FramePrefetch(path: path, residentBudget: Self.anyMemory)
        cancelled.start(before: 115)
        cancelled.cancel()
        #expect(cancelled.frames([116], timings: scan, make: Self.pixels) == nil)
        // Where its decoder would take the process past its memory budget, it does not decode.
        let overBudget = FramePrefetch(path: path, residentBudget: 1 << 20)
        overBudget.start(before: 30)
        #expect(overBudget.frames([40], timings: scan, make: Self.pixels) == nil)
        let withinBudget = FramePrefetch(path: path, residentBudget: Self.anyMemory)
        withinBudget.start(before: 30)
        #expect(withinBudget.frames([40], timings: scan, make: Self.pixels) != nil || ResidentMemory.bytes == nil)
        // A recording without slice headers to plan from (VP9) is not prefetched.
        if TestSupport.ffmpegHasEncoder("libvpx-vp9") {
            let webm = try Self.clip("c.webm", ["-c:v", "libvpx-vp9", "-g", "15", "-b:v", "300k", "-deadline", "realtime"], in: dir)
            let vp9 = FramePrefetch(path: webm, residentBudget: Self.anyMemory)
            vp9.start(before: 20)
            #expect(vp9.frames([30], timings: try TimingScan(path: webm), make: Self.pixels) == nil)
        }
    }
}
