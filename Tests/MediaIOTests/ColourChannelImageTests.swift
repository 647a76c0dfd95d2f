import Foundation
import MediaIO
import RecordingAnalysis
import Testing
import TestSupport

/// The colour channel sees colour contrast that luma misses: a red box on a gray of the same luma
/// (150,20,20 has luma 59; the backdrop is 59 gray), the case of a red car on a dull sky. The direct
/// chroma path (planar 4:2:0 and 4:4:4, semi-planar NV12) and the path for RGB frames are checked.
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

/// The colour channel against its definition, computed here from the chroma planes the ffmpeg CLI
/// decodes: each output pixel takes the chroma sample nearest its centre, and the value is
/// min(127, |C − 128|) per plane, limited-range chroma first stretched by 255/224 and rounded.
@Suite struct ColourChannelDefinitionTests {
    @Test(
        .enabled(if: TestSupport.ffmpeg != nil),
        arguments: [
            ("yuv420p", "tv", 1, "rawvideo"), ("yuv420p", "pc", 1, "ffv1"), ("yuv420p", "tv", 2, "rawvideo"), ("yuv420p", "pc", 3, "ffv1"),
            ("yuv420p", "tv", 3, "ffv1"), ("yuv444p", "pc", 1, "ffv1"), ("yuv444p", "pc", 3, "ffv1"), ("nv12", "tv", 1, "rawvideo"),
            ("nv12", "tv", 2, "rawvideo"), ("nv12", "tv", 3, "rawvideo")
        ])
    func everyPixelIsTheNearestChromaSamplesDistanceFromGray(pixelFormat: String, range: String, factor: Int, codec: String) throws {
        let dir = TestSupport.temporaryDirectory("chroma")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _) = try Clips.testPattern(pixelFormat: pixelFormat, range: range, codec: codec, in: dir)
        let fw = 120, fh = 90
        // The planes as planar 8-bit chroma at their own resolution, whatever the layout.
        let planar = pixelFormat == "yuv444p" ? "yuv444p" : "yuv420p"
        let rawPath = dir.appendingPathComponent("planes.raw").path
        try TestSupport.ffmpegRun(["-i", path, "-f", "rawvideo", "-pix_fmt", planar, rawPath])
        let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rawPath)))
        let shift = planar == "yuv444p" ? 0 : 1
        let cw = (fw + (1 << shift) - 1) >> shift, ch = (fh + (1 << shift) - 1) >> shift
        let cb = Array(raw[(fw * fh)..<(fw * fh + cw * ch)]), cr = Array(raw[(fw * fh + cw * ch)..<(fw * fh + 2 * cw * ch)])
        func distance(_ c: UInt8) -> Int {
            let d = Double(abs(Int(c) - 128)) * (range == "tv" ? 255.0 / 224 : 1)
            return min(127, Int(d.rounded()))
        }
        let w = fw / factor, h = fh / factor
        var expected = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            let cy = ((2 * y + 1) * fh / (2 * h)) >> shift
            for x in 0..<w {
                let cx = ((2 * x + 1) * fw / (2 * w)) >> shift
                expected[y * w + x] = UInt8(distance(cb[cy * cw + cx]) + distance(cr[cy * cw + cx]))
            }
        }
        var got: GrayImage?
        try RecordingReader(path: path).decode { frame in got = try frame.colourChannelImage(width: w, height: h) }
        #expect(got?.pixels == expected)
        #expect(expected.contains { $0 > 100 } && expected.contains { $0 < 10 })
    }

    /// Deeper chroma and packed RGB, against the same definition: deeper samples rounded to 8 bits
    /// (v · 2⁸⁻ᵈ, half up) first; RGB through BT.601 full-range chroma in 16-bit fixed point
    /// (Cb = (32768 B − 11059 R − 21709 G) / 2¹⁶ + 128, Cr = (32768 R − 27439 G − 5329 B) / 2¹⁶ + 128,
    /// rounded), the pixel nearest each output pixel's centre.
    @Test(
        .enabled(if: TestSupport.ffmpeg != nil),
        arguments: [
            ("yuv420p10le", "tv", 1, "ffv1", "mkv"), ("yuv420p10le", "tv", 3, "ffv1", "mkv"), ("yuv444p12le", "pc", 2, "ffv1", "mkv"),
            ("rgb24", "pc", 1, "qtrle", "mov"), ("rgb24", "pc", 3, "qtrle", "mov"), ("bgra", "pc", 2, "ffv1", "mkv"),
            ("gbrp", "pc", 3, "ffv1", "mkv")
        ])
    func deeperAndRGBChromaFollowsTheSameDefinition(pixelFormat: String, range: String, factor: Int, codec: String, container: String)
        throws
    {
        let dir = TestSupport.temporaryDirectory("chroma-deep")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, raw) = try Clips.testPattern(pixelFormat: pixelFormat, range: range, codec: codec, container: container, in: dir)
        let fw = 120, fh = 90
        func distance(_ c: Int) -> Int {
            let d = Double(abs(c - 128)) * (range == "tv" ? 255.0 / 224 : 1)
            return min(127, Int(d.rounded()))
        }
        /// The 8-bit (Cb, Cr) of full-size pixel (x, y).
        func chroma(x: Int, y: Int) -> (Int, Int) {
            if ["rgb24", "bgra", "gbrp"].contains(pixelFormat) {
                let step = pixelFormat == "rgb24" ? 3 : 4, i = (y * fw + x) * step, p = y * fw + x
                let (r, g, b) =
                    pixelFormat == "gbrp"
                    ? (Int(raw[2 * fw * fh + p]), Int(raw[p]), Int(raw[fw * fh + p]))
                    : pixelFormat == "bgra"
                        ? (Int(raw[i + 2]), Int(raw[i + 1]), Int(raw[i])) : (Int(raw[i]), Int(raw[i + 1]), Int(raw[i + 2]))
                let cb = (32768 * b - 11059 * r - 21709 * g + (128 << 16) + 32768) >> 16
                let cr = (32768 * r - 27439 * g - 5329 * b + (128 << 16) + 32768) >> 16
                return (min(255, max(0, cb)), min(255, max(0, cr)))
            }
            let depth = pixelFormat.contains("p12") ? 12 : 10
            let shift = pixelFormat.hasPrefix("yuv420") ? 1 : 0
            let cw = (fw + (1 << shift) - 1) >> shift, ch = (fh + (1 << shift) - 1) >> shift
            func sample(plane: Int) -> Int {
                let i = 2 * (fw * fh + plane * cw * ch + (y >> shift) * cw + (x >> shift))
                let v = Int(raw[i]) | Int(raw[i + 1]) << 8
                return min(255, (v + (1 << (depth - 9))) >> (depth - 8))
            }
            return (sample(plane: 0), sample(plane: 1))
        }
        let w = fw / factor, h = fh / factor
        var expected = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let (cb, cr) = chroma(x: (2 * x + 1) * fw / (2 * w), y: (2 * y + 1) * fh / (2 * h))
                expected[y * w + x] = UInt8(distance(cb) + distance(cr))
            }
        }
        var got: GrayImage?
        try RecordingReader(path: path).decode { frame in got = try frame.colourChannelImage(width: w, height: h) }
        #expect(got?.pixels == expected)
        #expect(expected.contains { $0 > 100 } && expected.contains { $0 < 10 })
    }

    /// A one-frame FFV1 clip in `dir`: 512x4 yuv420p, luma gray, each chroma row with Cb running
    /// 0…255 and Cr 255…0, in `range` ("tv" or "pc").
    private func chromaRamp(range: String, in dir: URL) throws -> (path: String, cb: [UInt8], cr: [UInt8]) {
        let fw = 512, fh = 4
        let cb = (0..<256).map { UInt8($0) }, cr = (0..<256).map { UInt8(255 - $0) }
        let frame = [UInt8](repeating: 128, count: fw * fh) + cb + cb + cr + cr
        let rawPath = dir.appendingPathComponent("frame.yuv").path, path = dir.appendingPathComponent("clip.mkv").path
        try Data(frame).write(to: URL(fileURLWithPath: rawPath))
        try TestSupport.ffmpegRun([
            "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(fw)x\(fh)", "-color_range", range, "-i", rawPath,
            "-c:v", "ffv1", "-color_range", range, path
        ])
        return (path, cb, cr)
    }

    /// Every chroma value, in both ranges: a 512x4 frame whose Cb row runs 0…255 and Cr row 255…0.
    @Test(.enabled(if: TestSupport.ffmpeg != nil), arguments: ["tv", "pc"])
    func everyChromaValueHasItsDistance(range: String) throws {
        let dir = TestSupport.temporaryDirectory("chroma-values")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, cb, cr) = try chromaRamp(range: range, in: dir)
        func distance(_ c: UInt8) -> Int {
            let d = Double(abs(Int(c) - 128)) * (range == "tv" ? 255.0 / 224 : 1)
            return min(127, Int(d.rounded()))
        }
        let expected = (0..<256).map { UInt8(distance(cb[$0]) + distance(cr[$0])) }
        var got: GrayImage?
        try RecordingReader(path: path).decode { frame in got = try frame.colourChannelImage(width: 256, height: 2) }
        #expect(got.map { Array($0.pixels[0..<256]) } == expected)
        #expect(got.map { Array($0.pixels[256..<512]) } == expected)
    }

    /// Along a hue, every chroma pair of a row: the same 512x4 frame, Cb running 0…255 against Cr
    /// 255…0, read along an orange-brown axis (Cb down, Cr up) in both ranges, against
    /// `HueAxis.value` of each pair (stretched to full range first in the limited one). Orange-brown
    /// chroma lies above 128, blue-green below it.
    @Test(.enabled(if: TestSupport.ffmpeg != nil), arguments: ["tv", "pc"])
    func everyChromaPairHasItsValueAlongAHue(range: String) throws {
        let dir = TestSupport.temporaryDirectory("chroma-hue")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, cb, cr) = try chromaRamp(range: range, in: dir)
        let axis = try #require(ColourChannel.HueAxis(cb: -0.6, cr: 0.8))
        let stretch: Float = range == "tv" ? 255 / 224 : 1
        let expected = (0..<256).map { i in
            UInt8(axis.value(cb: 128 + stretch * (Float(cb[i]) - 128), cr: 128 + stretch * (Float(cr[i]) - 128)).rounded())
        }
        var got: GrayImage?
        try RecordingReader(path: path).decode { frame in got = try frame.colourChannelImage(width: 256, height: 2, along: axis) }
        let row = try #require(got.map { Array($0.pixels[0..<256]) })
        // The same sums in another order: at most one level apart from rounding.
        #expect(zip(row, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(row) vs \(expected)")
        #expect(got.map { Array($0.pixels[256..<512]) } == row)
        // Cb low and Cr high (orange-brown) reads well above gray, Cb high and Cr low well below.
        #expect(row[0] > 200 && row[255] < 56 && abs(Int(row[128]) - 128) <= 1)
    }
}
