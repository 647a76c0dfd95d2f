import Testing

@testable import RecordingAnalysis

@Suite struct UnchangedFramesTests {
    private func reading(_ index: Int, _ facing: SpriteFacing, unchanged: Bool = false) -> FrameOrientation {
        var o = FrameOrientation(
            index: index, facing: facing, position: PixelRect(x: 0, y: 0, width: 4, height: 4), measured: true, confidence: 0.9)
        o.unchangedFromPrevious = unchanged
        return o
    }

    @Test func aChangeOfFacingAcrossAnUnchangedFrameLeavesBothUnknown() {
        let marked = UnchangedFrames.marked([
            reading(0, .mirrored), reading(1, .mirrored, unchanged: true), reading(2, .canonical, unchanged: true),
            reading(3, .mirrored)
        ])
        #expect(marked.map(\.facing) == [.mirrored, .unknown, .unknown, .mirrored])
        #expect(marked[1].reason == .ambiguous && marked[2].reason == .ambiguous)
    }

    @Test func aChangeOfFacingWherePixelsChangedIsKept() {
        let frames = [reading(0, .canonical), reading(1, .mirrored), reading(2, .mirrored, unchanged: true), reading(3, .canonical)]
        #expect(UnchangedFrames.marked(frames) == frames)
    }

    @Test func unchangedMeansUnderOneGrayLevelOnAverageOverTheBox() {
        var a = GrayImage(width: 8, height: 8), b = GrayImage(width: 8, height: 8)
        for i in a.pixels.indices { a.pixels[i] = UInt8(i % 200) }
        b.pixels = a.pixels
        let box = PixelRect(x: 2, y: 2, width: 4, height: 4)
        #expect(UnchangedFrames.isUnchanged(b, from: a, in: box))
        // 15 of the box's 16 pixels one level up: a mean of 0.94.
        for y in 2..<6 { for x in 2..<6 where !(x == 2 && y == 2) { b[x, y] &+= 1 } }
        #expect(UnchangedFrames.isUnchanged(b, from: a, in: box))
        b[2, 2] &+= 1
        #expect(!UnchangedFrames.isUnchanged(b, from: a, in: box))
        // Outside the box nothing counts; a box outside the image is never unchanged.
        b.pixels = a.pixels
        b[0, 0] = 255
        #expect(UnchangedFrames.isUnchanged(b, from: a, in: box))
        #expect(!UnchangedFrames.isUnchanged(b, from: a, in: PixelRect(x: 20, y: 20, width: 4, height: 4)))
    }
}
