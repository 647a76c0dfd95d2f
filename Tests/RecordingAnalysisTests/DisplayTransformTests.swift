import Testing

@testable import RecordingAnalysis

/// The display matrix read as the ffmpeg CLI 5.1 reads it, and the pixels moved as its transpose,
/// hflip and vflip filters move them.
@Suite struct DisplayTransformTests {
    private static let one: Int32 = 0x1_0000
    private func matrix(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) -> [Int32] { [a, b, 0, c, d, 0, 0, 0, 0x4000_0000] }

    @Test func theMatrixPicksTheFilterFFmpegInserts() {
        let one = Self.one
        #expect(DisplayTransform(displayMatrix: nil) == .identity)
        #expect(DisplayTransform(displayMatrix: [1, 2]) == .identity)
        #expect(DisplayTransform(displayMatrix: matrix(one, 0, 0, one)) == .identity)
        #expect(DisplayTransform(displayMatrix: matrix(-one, 0, 0, one)) == .horizontalFlip)
        #expect(DisplayTransform(displayMatrix: matrix(one, 0, 0, -one)) == .verticalFlip)
        #expect(DisplayTransform(displayMatrix: matrix(-one, 0, 0, -one)) == .halfTurn)
        // What the mov demuxer makes of `rotate=90` metadata and ffprobe calls rotation -90.
        #expect(DisplayTransform(displayMatrix: matrix(0, one, -one, 0)) == .clockwise)
        #expect(DisplayTransform(displayMatrix: matrix(0, -one, one, 0)) == .counterclockwise)
        #expect(DisplayTransform(displayMatrix: matrix(0, one, one, 0)) == .transpose)
        #expect(DisplayTransform(displayMatrix: matrix(0, -one, -one, 0)) == .antiTranspose)
        // 30°: cos and sin in 16.16.
        let turned = DisplayTransform(displayMatrix: matrix(56756, 32768, -32768, 56756))
        #expect(turned == .unsupported(degrees: 30))
        #expect(!turned.changesFrames && turned.summary?.contains("does not apply") == true)
        // Degenerate: no rotation to be read, shown as stored.
        #expect(DisplayTransform(displayMatrix: matrix(0, 0, 0, 0)) == .identity)
    }

    @Test func rotationDegreesWrapsAsGetRotationDoes() {
        let one = Self.one
        #expect(DisplayTransform.rotationDegrees(displayMatrix: matrix(one, 0, 0, one)) == 0)
        #expect(DisplayTransform.rotationDegrees(displayMatrix: matrix(0, one, -one, 0)) == 90)
        #expect(DisplayTransform.rotationDegrees(displayMatrix: matrix(0, -one, one, 0)) == 270)
        #expect(DisplayTransform.rotationDegrees(displayMatrix: matrix(-one, 0, 0, -one)) == 180)
        #expect(DisplayTransform.rotationDegrees(displayMatrix: matrix(0, 0, 0, 0)).isNaN)
    }

    /// A 3x2 image 0 1 2 / 3 4 5, shown each way, written out by hand.
    @Test func pixelsMoveAsFFmpegsFiltersMoveThem() {
        let image = GrayImage(width: 3, height: 2, pixels: [0, 1, 2, 3, 4, 5])
        let expected: [(DisplayTransform, Int, [UInt8])] = [
            (.identity, 3, [0, 1, 2, 3, 4, 5]),
            (.horizontalFlip, 3, [2, 1, 0, 5, 4, 3]),
            (.verticalFlip, 3, [3, 4, 5, 0, 1, 2]),
            (.halfTurn, 3, [5, 4, 3, 2, 1, 0]),
            (.clockwise, 2, [3, 0, 4, 1, 5, 2]),
            (.counterclockwise, 2, [2, 5, 1, 4, 0, 3]),
            (.transpose, 2, [0, 3, 1, 4, 2, 5]),
            (.antiTranspose, 2, [5, 2, 4, 1, 3, 0])
        ]
        for (transform, width, pixels) in expected {
            let shown = transform.shown(image)
            #expect(shown.width == width && shown.height == 6 / width, "\(transform)")
            #expect(shown.pixels == pixels, "\(transform)")
            let rgb = transform.shown(RGBImage(width: 3, height: 2, pixels: image.pixels.flatMap { [$0, $0 &+ 100, $0 &+ 200] }))
            #expect(rgb.pixels == pixels.flatMap { [$0, $0 &+ 100, $0 &+ 200] }, "\(transform)")
        }
    }

    /// A region of the shown frame maps to the stored pixels it shows.
    @Test func aShownRegionCoversTheStoredPixelsItShows() {
        let stored = GrayImage(width: 7, height: 5, pixels: (0..<35).map { UInt8($0) })
        for transform in [
            DisplayTransform.horizontalFlip, .verticalFlip, .halfTurn, .clockwise, .counterclockwise, .transpose, .antiTranspose
        ] {
            let shown = transform.shown(stored)
            let region = PixelRect(x: 1, y: 2, width: 2, height: 3)
            let back = transform.storedRect(region, width: 7, height: 5)
            var inRegion: [UInt8] = [], inBack: [UInt8] = []
            for y in region.y..<(region.y + region.height) {
                for x in region.x..<(region.x + region.width) where x < shown.width && y < shown.height {
                    inRegion.append(shown.pixels[y * shown.width + x])
                }
            }
            for y in back.y..<(back.y + back.height) { for x in back.x..<(back.x + back.width) { inBack.append(stored.pixels[y * 7 + x]) } }
            #expect(inRegion.sorted() == inBack.sorted(), "\(transform)")
        }
    }
}
