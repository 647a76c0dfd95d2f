import Testing
@testable import RecordingAnalysis

/// A turn in the video that the probe log's sprite does not make means the video follows another
/// sprite: the log's answer is not taken, and no check passes on it.
@Suite struct UnloggedTurnsTests {
    static let walkOrigin = 808935265.0
    /// The first frame's wall time: evaluation `elapsed = e` (skew 0) ran at recording time 0.5 + e.
    static let wallOrigin = WallTime(referenceSeconds: walkOrigin - 0.5)

    /// Evaluations every 0.1 s from elapsed 0 to 4; both formulas face right, and left from
    /// `turnAt` on when given.
    static func log(turnAt: Double? = nil) -> ProbeLog {
        var lines = ["armed  walkOrigin=\(walkOrigin)"]
        for k in 0...40 {
            let e = Double(k) / 10
            let arrow = turnAt.map { e >= $0 } == true ? "←L" : "→R"
            lines.append(String(format: "#%02d  skew=+0.00000  elapsed=%+.5f | old=0.10000 %@ | new=0.10000 %@", k + 1, e, arrow, arrow))
        }
        return ProbeLog(text: lines.joined(separator: "\n"))
    }

    /// 300 frames at 60 fps; the sprite turns for good at frame `turn`.
    static func timeline(turn: Int) -> OrientationTimeline {
        let runs = (0..<300).map { CFRMap.Run(source: $0, firstSlot: Int64($0), count: 1) }
        let map = CFRMap(rate: Rational(60, 1), originSlot: 0, runs: runs, dropped: [])
        let orientations = (0..<300).map {
            FrameOrientation(index: $0, facing: $0 >= turn ? .mirrored : .canonical, measured: true, confidence: 0.9)
        }
        return OrientationTimeline(orientations: orientations, map: map, placement: (0..<300).map { Int64($0) * 10 }, transientSlots: 30)
    }

    func findings(turn: Int, logTurnAt: Double?) -> CaptureFindings {
        CaptureFindings(
            timeline: Self.timeline(turn: turn), log: Self.log(turnAt: logTurnAt),
            context: .init(expectation: .fixed, transientMS: 500, wallOrigin: Self.wallOrigin))
    }

    @Test func aTurnTheLogDoesNotMakeLeavesTheAnswerOpen() {
        // The video turns at 2.5 s; the log, written from 0.5 s to 4.5 s, never turns.
        let f = findings(turn: 150, logTurnAt: nil)
        #expect(f.timeline.turns.count == 1)
        #expect(f.unloggedTurns.map(\.slot) == [150])
        #expect(!f.verdict.passed && f.verdict.undetermined)
        #expect(
            f.verdict.uncertainty?.contains("turns at 2.500 s where the probe log's sprite does not turn") == true,
            "\(f.verdict.uncertainty ?? "")")
    }

    @Test func aTurnTheLogMakesToo() {
        // Both formulas turn at elapsed 2.0 = 2.5 s on the recording.
        let f = findings(turn: 150, logTurnAt: 2.0)
        #expect(f.unloggedTurns.isEmpty)
        #expect(f.spriteIdentity == .log)
        #expect(f.verdict.passed, "\(f.verdict.uncertainty ?? "")")
    }

    @Test func aTurnTheLogMakesElsewhere() {
        // The log turns at 4.0 s on the recording, the video at 2.5 s.
        #expect(findings(turn: 150, logTurnAt: 3.5).unloggedTurns.map(\.slot) == [150])
    }

    @Test func aTurnBeforeTheLogBeginsIsNotHeldAgainstIt() {
        // At 0.3 s, before the first evaluation (0.5 s): the log cannot say either way, so it
        // neither contradicts the sprite in view nor ties it to the probe's.
        let f = findings(turn: 18, logTurnAt: nil)
        #expect(f.unloggedTurns.isEmpty)
        #expect(f.spriteIdentity == .firstMirrorEvent)
        #expect(!f.verdict.passed && f.verdict.undetermined)
    }

    @Test func withoutAMappingNothingIsCompared() {
        let f = CaptureFindings(timeline: Self.timeline(turn: 150), log: Self.log(), context: .init(expectation: .fixed, transientMS: 500))
        #expect(f.wallClock == nil && f.unloggedTurns.isEmpty)
    }
}
