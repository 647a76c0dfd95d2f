import Testing

@testable import RecordingAnalysis

@Suite struct LeaningFramesTests {
    /// Frames read canonical with the given (canonical, mirrored) scores, indices from 0.
    private func frames(_ scores: [(Float, Float)]) -> [FrameOrientation] {
        scores.enumerated().map { i, s in
            FrameOrientation(index: i, facing: .canonical, canonicalScore: s.0, mirroredScore: s.1, measured: true, confidence: 0.6)
        }
    }

    @Test func aFrameThatLeansTowardTheOtherOrientationIsUnknown() {
        // The dim drop of accuracy case 176 around its one-frame flip (#20): neighbours 0.88/0.62,
        // the flipped frame 0.83/0.71.
        let marked = LeaningFrames.marked(frames([(0.885, 0.627), (0.877, 0.617), (0.828, 0.705), (0.891, 0.575), (0.896, 0.607)]))
        #expect(marked.map(\.facing) == [.canonical, .canonical, .unknown, .canonical, .canonical])
        #expect(marked[2].reason == .ambiguous)
        // Its scores stay, as evidence.
        #expect(marked[2].canonicalScore == 0.828 && marked[2].mirroredScore == 0.705)
    }

    @Test func ordinaryVariationAndRealChangesAreLeftAsRead() {
        // A weaker frame whose other score did not rise (the sprite fainter, not mirrored).
        let fainter = frames([(0.88, 0.60), (0.88, 0.61), (0.74, 0.58), (0.88, 0.60), (0.88, 0.60)])
        #expect(LeaningFrames.marked(fainter) == fainter)
        // A margin that falls by less than half.
        let mild = frames([(0.88, 0.60), (0.88, 0.60), (0.84, 0.66), (0.88, 0.60), (0.88, 0.60)])
        #expect(LeaningFrames.marked(mild) == mild)
        // The other orientation scoring far higher while the chosen one holds (auto mode's appearance
        // in SampleMedia's flip.mov, #8–#11: 0.98 against 0.76, 0.00, 0.74, −0.05).
        let held = frames([(0.981, 0.764), (0.98, 0.004), (0.977, 0.741), (0.979, -0.045), (0.97, 0.2)])
        #expect(LeaningFrames.marked(held) == held)
        // A frame read the other way (a flip) or next to one is not a lean: flips are the timeline's.
        var flip = frames([(0.88, 0.60), (0.88, 0.60), (0.70, 0.86), (0.80, 0.75), (0.88, 0.60)])
        flip[2].facing = .mirrored
        #expect(LeaningFrames.marked(flip) == flip)
        // The first and last frames have one neighbour only.
        let ends = frames([(0.80, 0.75), (0.88, 0.60), (0.80, 0.75)])
        #expect(LeaningFrames.marked(ends) == ends)
    }
}
