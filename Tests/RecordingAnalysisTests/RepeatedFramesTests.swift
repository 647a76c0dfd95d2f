import Testing
import RecordingAnalysis

@Suite struct RepeatedFramesTests {
    /// Frames 0, 3 and 4 show new pictures; 1, 2 and 5 repeat the one before.
    private func recorded() -> (RepeatedFrames, [Int?]) {
        var repeats = RepeatedFrames()
        let numbers = [false, true, true, false, false, true].map { repeats.record(repeatsPrevious: $0) }
        return (repeats, numbers)
    }

    @Test func picturesAreNumberedInOrderAndRepeatsGetNone() {
        let (repeats, numbers) = recorded()
        #expect(numbers == [0, nil, nil, 1, 2, nil])
        #expect(repeats.pictureCount == 3 && repeats.repeatCount == 3 && repeats.frameCount == 6)
        #expect((0..<6).map { repeats.picture(ofFrame: $0) } == [0, 0, 0, 1, 2, 2])
        #expect((0..<3).map { repeats.firstFrame(ofPicture: $0) } == [0, 3, 4])
    }

    @Test func theFirstFrameIsAlwaysAPicture() {
        var repeats = RepeatedFrames()
        #expect(repeats.record(repeatsPrevious: true) == 0)
    }

    @Test func eachRepeatTakesItsPicturesReadingWithItsOwnIndex() {
        let (repeats, _) = recorded()
        let box = PixelRect(x: 1, y: 2, width: 3, height: 4)
        let readings = [
            FrameOrientation(index: 0, facing: .canonical, position: box, measured: true, confidence: 0.9),
            FrameOrientation(index: 1, facing: .mirrored, position: box, measured: true, confidence: 0.8),
            FrameOrientation(index: 2, facing: .unknown, measured: true, reason: .lost)
        ]
        let frames = repeats.expanded(readings)
        #expect(frames.map(\.index) == [0, 1, 2, 3, 4, 5])
        #expect(frames.map(\.facing) == [.canonical, .canonical, .canonical, .mirrored, .unknown, .unknown])
        #expect(frames.map(\.unchangedFromPrevious) == [false, true, true, false, false, false])
        #expect(frames[5].reason == .lost && frames[2].confidence == 0.9)
    }

    @Test func eachPictureTakesTheReadingOfItsFirstFrame() {
        let (repeats, _) = recorded()
        let facings: [SpriteFacing] = [.canonical, .mirrored, .mirrored, .unknown, .mirrored, .canonical]
        let frames = facings.enumerated().map { FrameOrientation(index: $0.offset, facing: $0.element, measured: true) }
        let pictures = repeats.readingsOfPictures(frames)
        #expect(pictures.map(\.index) == [0, 1, 2])
        #expect(pictures.map(\.facing) == [.canonical, .unknown, .mirrored])
        // Readings of frames beyond those recorded are no picture's.
        #expect(repeats.readingsOfPictures([FrameOrientation(index: 6, facing: .canonical, measured: true)]).isEmpty)
    }

    @Test func withoutRepeatsTheReadingsAreTheFrames() {
        var repeats = RepeatedFrames()
        for _ in 0..<3 { _ = repeats.record(repeatsPrevious: false) }
        let readings = (0..<3).map { FrameOrientation(index: $0, facing: .canonical, measured: false) }
        #expect(repeats.expanded(readings) == readings)
    }
}
