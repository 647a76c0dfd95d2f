import Testing
@testable import RecordingAnalysis

/// The article's probe log: the legacy formula mirrors the snail for 61.8 ms from walkOrigin + 0.26 ms.
private let articleLog = ProbeLog(
    text: """
        armed  walkOrigin=808935265.34566
        #01  skew=-0.01543  elapsed=-0.01517 | old=0.99983 ←L | new=0.00000 →R
        #02  skew=-0.02723  elapsed=+0.03483 | old=0.00039 →R | new=0.00039 →R
        #03  skew=-0.01057  elapsed=+0.08483 | old=0.00094 →R | new=0.00094 →R
        """)

/// 300 frames at 60 fps, one slot each, the sprite mirrored in frames `mirrored`; `located: false`
/// is auto mode that found no mirror event (every facing assumed).
private func timeline(mirrored: ClosedRange<Int>?, transientSlots: Int64 = 30, located: Bool = true) -> OrientationTimeline {
    let runs = (0..<300).map { CFRMap.Run(source: $0, firstSlot: Int64($0), count: 1) }
    let map = CFRMap(rate: Rational(60, 1), originSlot: 0, runs: runs, dropped: [])
    let orientations = (0..<300).map {
        located
            ? FrameOrientation(index: $0, facing: mirrored?.contains($0) == true ? .mirrored : .canonical, measured: true, confidence: 0.9)
            : FrameOrientation(index: $0, facing: .canonical, measured: false)
    }
    return OrientationTimeline(
        orientations: orientations, map: map, placement: (0..<300).map { Int64($0) * 10 }, transientSlots: transientSlots)
}

@Suite struct CaptureFindingsTests {
    /// The wall time of frame 0 such that the legacy flip starts in frame 241.
    private let origin = WallTime(referenceSeconds: 808935265.34566 + 0.00026 - 241.0 / 60)

    @Test func aFlipThatTheLegacyFormulaPredictsReproducesTheBug() throws {
        let findings = CaptureFindings(
            timeline: timeline(mirrored: 241...244), log: articleLog,
            context: .init(expectation: .bug, transientMS: 500, wallOrigin: origin))
        #expect(findings.videoFlips.count == 1)
        #expect(abs(findings.videoFlips[0].startSeconds - 241.0 / 60) < 1e-9)
        #expect(abs(findings.videoFlips[0].durationMS - 4000.0 / 60) < 1e-9)
        #expect(findings.toleranceMS == 25)
        #expect(findings.crossCheck?.verdict == .matchesOld)
        #expect(findings.verdict.passed && findings.verdict.flipSeen)
        #expect(findings.wallClock?.source == .wallOrigin)
        let moment = try #require(findings.predictedMoments.first)
        #expect(moment.formula == .old && (moment.firstSlot...moment.lastSlot).contains(241))
    }

    @Test func theSameCaptureFailsAFixedBuildCheck() {
        let findings = CaptureFindings(
            timeline: timeline(mirrored: 241...244), log: articleLog,
            context: .init(expectation: .fixed, transientMS: 500))
        #expect(!findings.verdict.passed && !findings.verdict.undetermined)
        #expect(
            findings.verdict.summary(flipDescription: "one flip").hasPrefix(
                "FAIL (expected the fix): one flip; the log matches the legacy formula"))
    }

    @Test func aDamagedCaptureNeverPassesEvenWithoutFlips() {
        let findings = CaptureFindings(
            timeline: timeline(mirrored: nil), log: nil,
            context: .init(expectation: .fixed, transientMS: 500, damage: "cut after frame 6"))
        #expect(findings.crossCheck == nil && findings.wallClock == nil && findings.predictedMoments.isEmpty)
        #expect(!findings.verdict.passed)
        #expect(findings.verdict.summary(flipDescription: "").hasPrefix("FAIL (damaged capture): cut after frame 6"))
    }

    @Test func withoutAnyMappingNoMomentIsPlaced() {
        let findings = CaptureFindings(
            timeline: timeline(mirrored: nil), log: articleLog, context: .init(transientMS: 500, templateGiven: true))
        // The log predicts a flip the video does not show, there is no wall origin and no creation time.
        #expect(findings.wallClock == nil && findings.predictedMoments.isEmpty)
        #expect(findings.crossCheck?.verdict == .matchesNew)
        #expect(findings.verdict.passed)
    }

    /// Auto mode that never located the sprite saw no flip only because it saw no sprite: the bug's
    /// flip could be anywhere, so no check passes, and the log's verdict stays open.
    @Test func aSpriteNeverLocatedPassesNoCheck() throws {
        for expectation in [nil, CaptureVerdict.Expectation.fixed, .bug] {
            let alone = CaptureFindings(
                timeline: timeline(mirrored: nil, located: false), log: nil, context: .init(expectation: expectation, transientMS: 500))
            #expect(!alone.verdict.passed)
            #expect(alone.verdict.undetermined)
            let withLog = CaptureFindings(
                timeline: timeline(mirrored: nil, located: false), log: articleLog,
                context: .init(expectation: expectation, transientMS: 500, wallOrigin: origin))
            #expect(withLog.crossCheck?.verdict == .undetermined && withLog.crossCheck?.hiddenByUnknown == true)
            #expect(!withLog.verdict.passed)
            let moment = try #require(withLog.predictedMoments.first { $0.formula == .old })
            #expect(moment.seen.allSatisfy { $0.facing == .unknown })
        }
        let summary = CaptureFindings(
            timeline: timeline(mirrored: nil, located: false), log: nil, context: .init(expectation: .fixed, transientMS: 500)
        ).verdict.summary(flipDescription: "")
        #expect(summary.hasPrefix("UNDETERMINED: no transient mirror flip; no sprite was located"))
        // The same timeline measured, following a template, passes.
        #expect(
            CaptureFindings(
                timeline: timeline(mirrored: nil), log: nil, context: .init(expectation: .fixed, transientMS: 500, templateGiven: true)
            ).verdict.passed)
    }
}

@Suite struct EvidencePlanTests {
    @Test func aFlipStripRunsFromTwoSlotsBeforeToTwoAfterAndFramesTheMirroredOnes() throws {
        let plan = EvidencePlan(
            timeline: timeline(mirrored: 241...244), predictedMoments: [], wallClock: nil,
            spriteRect: PixelRect(x: 10, y: 20, width: 40, height: 30), width: 1170, height: 2532)
        let strip = try #require(plan.strips.first)
        #expect(plan.strips.count == 1 && strip.file == "flip-1.png")
        #expect(strip.slots == Array(239...246))
        #expect(strip.mirrored == [false, false, true, true, true, true, false, false])
        #expect(strip.caption.hasPrefix("Flip 1: slots 239–246 at 60 fps (3.983 s–4.117 s)"))
        // Eight 1170-pixel tiles do not fit 1600 pixels: each is scaled to fit, keeping the aspect ratio.
        let size = Filmstrip.tileSize(width: 1170, height: 2532, count: 8)
        #expect(strip.tileSize == EvidencePlan.TileSize(width: size.width, height: size.height))
        #expect(size.width * 8 < 1170 * 8)
        #expect(Set(plan.tileSizes.keys) == Set(239...246))
        #expect(plan.closeUp == PixelRect(x: -10, y: 5, width: 80, height: 60))
        #expect(plan.closeUpZoom == 2)
    }

    @Test func aLongFlipShowsItsFirstAndLastTwelveSlots() throws {
        let plan = EvidencePlan(
            timeline: timeline(mirrored: 100...159, transientSlots: 100), predictedMoments: [], wallClock: nil,
            spriteRect: nil, width: 390, height: 844)
        let strip = try #require(plan.strips.first)
        #expect(strip.slots == Array(98...109) + Array(150...161))
        #expect(strip.mirrored == Array(repeating: false, count: 2) + Array(repeating: true, count: 20) + Array(repeating: false, count: 2))
        #expect(plan.closeUp == nil)
    }

    @Test func everySlotOfAPredictedWindowIsShownInPartsOfThirty() throws {
        let origin = WallTime(referenceSeconds: 808935265.34566 + 0.00026 - 241.0 / 60)
        let t = timeline(mirrored: nil)
        let findings = CaptureFindings(
            timeline: t, log: articleLog, context: .init(transientMS: 500, creationTime: nil, firstFrameSeconds: 0))
        #expect(findings.predictedMoments.isEmpty)
        let mapping = try #require(
            WallClockMapping.best(
                wallOrigin: origin, crossCheck: findings.crossCheck, walkOrigin: articleLog.walkOrigin,
                slotSeconds: 1.0 / 60, creationTime: nil, firstFrameSeconds: 0))
        let moments = PredictedMoment.all(log: articleLog, mapping: mapping, timeline: t, transientMS: 500)
        let moment = try #require(moments.first)
        let plan = EvidencePlan(timeline: t, predictedMoments: moments, wallClock: mapping, spriteRect: nil, width: 390, height: 844)
        let window = Array(moment.firstSlot...moment.lastSlot)
        #expect(plan.strips.flatMap(\.slots) == window)
        #expect(plan.strips.allSatisfy { $0.slots.count <= EvidencePlan.windowTiles && $0.file.hasPrefix("predicted-old-1") })
        #expect(plan.strips.allSatisfy { !$0.mirrored.contains(true) })
    }
}
