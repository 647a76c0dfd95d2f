import Testing
@testable import RecordingAnalysis

/// Without a flip, a check passes only when something ties the sprite in view to the sprite under
/// test: auto mode's first mirrored object may be a second sprite that turns for real.
@Suite struct SpriteIdentityTests {
    typealias Scene = UnloggedTurnsTests

    @Test func autoModeWithoutALogPassesNothingOnATurnAlone() {
        for expectation in [nil, CaptureVerdict.Expectation.fixed] {
            let f = CaptureFindings(
                timeline: Scene.timeline(turn: 150), log: nil, context: .init(expectation: expectation, transientMS: 500))
            #expect(f.spriteIdentity == .firstMirrorEvent)
            #expect(!f.verdict.passed && f.verdict.undetermined)
            #expect(
                f.verdict.uncertainty?.contains("auto mode followed the first thing it saw mirror in place (it turns at 2.500 s)") == true)
        }
        // A reproduction whose flip was not seen is not failed either: the flip may be the other sprite's.
        let bug = CaptureFindings(timeline: Scene.timeline(turn: 150), log: nil, context: .init(expectation: .bug, transientMS: 500))
        #expect(!bug.verdict.passed && bug.verdict.undetermined)
    }

    @Test func aTemplateNamesTheSprite() {
        let f = CaptureFindings(
            timeline: Scene.timeline(turn: 150), log: nil, context: .init(expectation: .fixed, transientMS: 500, templateGiven: true))
        #expect(f.spriteIdentity == .template)
        #expect(f.verdict.passed, "\(f.verdict.uncertainty ?? "")")
    }

    @Test func aLogWhoseSpriteMakesTheTurnConfirmsIt() {
        let confirmed = CaptureFindings(
            timeline: Scene.timeline(turn: 150), log: Scene.log(turnAt: 2.0),
            context: .init(expectation: .fixed, transientMS: 500, wallOrigin: Scene.wallOrigin))
        #expect(confirmed.spriteIdentity == .log && confirmed.verdict.passed)
        // The same log without a wall-clock mapping cannot place the turn: nothing is confirmed.
        let unplaced = CaptureFindings(
            timeline: Scene.timeline(turn: 150), log: Scene.log(turnAt: 2.0), context: .init(expectation: .fixed, transientMS: 500))
        #expect(unplaced.wallClock == nil && unplaced.spriteIdentity == .firstMirrorEvent && !unplaced.verdict.passed)
    }

    @Test func aFlipIsEvidenceWhateverTheSprite() {
        // Frames 100–103 mirrored: a flip in auto mode without a log still fails the capture.
        let runs = (0..<300).map { CFRMap.Run(source: $0, firstSlot: Int64($0), count: 1) }
        let map = CFRMap(rate: Rational(60, 1), originSlot: 0, runs: runs, dropped: [])
        let orientations = (0..<300).map {
            FrameOrientation(index: $0, facing: (100..<104).contains($0) ? .mirrored : .canonical, measured: true, confidence: 0.9)
        }
        let timeline = OrientationTimeline(
            orientations: orientations, map: map, placement: (0..<300).map { Int64($0) * 10 }, transientSlots: 30)
        let f = CaptureFindings(timeline: timeline, log: nil, context: .init(expectation: .bug, transientMS: 500))
        #expect(f.spriteIdentity == .firstMirrorEvent)
        #expect(f.verdict.passed && f.verdict.flipSeen && !f.verdict.undetermined)
    }
}
