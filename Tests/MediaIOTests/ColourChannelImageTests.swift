import Foundation
import MediaIO
import RecordingAnalysis
import Testing
import TestSupport

/// The colour channel sees colour contrast that luma misses: a red box on a gray of the same luma
/// (150,20,20 has luma 59; the backdrop is 59 gray), the case of a red car on a dull sky. The direct
/// chroma path (planar 4:2:0 and 4:4:4, semi-planar NV12) and the libswscale path (RGB frames) are
/// checked.
@Suite struct ColourChannelImageTests {
    /// Mean of `image` over a rectangle.
    private func mean(_ image: GrayImage, x: Range<Int>, y: Range<Int>) -> Double {
        var sum = 0
        for row in y { for column in x { sum += Int(image[column, row]) } }
        return Double(sum) / Double(x.count * y.count)
    }

    /// Encodes the red box with `codec` in `pixelFormat` and reads its first frame at half size.
    private func firstFrame(codec: [String], pixelFormat: String) throws -> (luma: GrayImage, detector: GrayImage) {
        let dir = TestSupport.temporaryDirectory("channel")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("red.mkv").path
        try TestSupport.ffmpegRun(
            [
                "-f", "lavfi", "-i", "color=c=0x3B3B3B:size=128x96:rate=10", "-t", "0.3",
                "-vf", "drawbox=x=32:y=32:w=48:h=32:color=0x961414:t=fill", "-pix_fmt", pixelFormat
            ]
                + codec + [path])
        let reader = try RecordingReader(path: path)
        var images: (GrayImage, GrayImage)?
        try reader.decode { frame in
            if images == nil { images = (try frame.grayImage(width: 64, height: 48), try frame.colourChannelImage(width: 64, height: 48)) }
        }
        let found = try #require(images)
        return (found.0, found.1)
    }

    @Test(
        .enabled(if: TestSupport.ffmpeg != nil),
        arguments: [
            (["-c:v", "libx264", "-qp", "0"], "yuv420p"),
            (["-c:v", "libx264", "-qp", "0"], "yuv444p"),
            (["-c:v", "rawvideo"], "nv12"),
            (["-c:v", "png"], "rgb24")
        ])
    func colourContrastShowsWhereLumaIsFlat(codec: [String], pixelFormat: String) throws {
        let (luma, detector) = try firstFrame(codec: codec, pixelFormat: pixelFormat)
        // Inside the box (32-80 x 32-64 at full size, 16-40 x 16-32 here) and well outside it.
        let lumaInside = mean(luma, x: 19..<37, y: 19..<29), lumaOutside = mean(luma, x: 46..<60, y: 36..<46)
        let inside = mean(detector, x: 19..<37, y: 19..<29), outside = mean(detector, x: 46..<60, y: 36..<46)
        #expect(abs(lumaInside - lumaOutside) < 4, "luma \(lumaInside) vs \(lumaOutside)")
        // Gray is 0; the red box is its chroma distance from gray (|Cb−128| + |Cr−128| ≈ 87).
        #expect(outside < 3, "gray backdrop \(outside)")
        let expected = Double(ColourChannel.value(red: 150, green: 20, blue: 20))
        #expect(expected > 70)
        #expect(abs(inside - expected) < 8, "box \(inside), expected about \(expected)")
    }
}
