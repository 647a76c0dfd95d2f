import Testing
@testable import RecordingAnalysis

private let article = """
    base #01..#15  skew(t-now) = -0.00001 … -0.02717      ← all 15 frames negative
    armed  walkOrigin=808935265.34566
    #01  skew=-0.01543  elapsed=-0.01517 | old=0.99983 ←L | new=0.00000 →R
    #02  skew=-0.02723  elapsed=+0.03483 | old=0.00039 →R | new=0.00039 →R
    #03  skew=-0.01057  elapsed=+0.08483 | old=0.00094 →R | new=0.00094 →R
    """

@Suite struct ProbeLogTests {
    @Test func parsesTheArticlesLog() throws {
        let log = ProbeLog(text: article)
        #expect(log.evaluations.count == 3)
        #expect(log.walkOrigin == 808935265.34566)
        #expect(log.baseline == ProbeLog.Baseline(count: 15, negative: 15, closestToZero: -0.00001, farthestFromZero: -0.02717))
        #expect(log.problems.isEmpty)
        let first = try #require(log.evaluations.first)
        #expect(first.skew == -0.01543 && first.elapsed == -0.01517)
        #expect(first.oldFacing == .left && first.newFacing == .right)
        #expect(first.line == 3)
        // The mirrored state lived from #01's now to #02's now.
        let flips = log.predictedFlips(.old)
        #expect(flips.count == 1)
        #expect(abs(flips[0].durationMS - 61.80) < 0.01, "now(#02) - now(#01) = (0.03483 + 0.02723) - (-0.01517 + 0.01543)")
        #expect(abs((flips[0].startWall ?? 0) - (808935265.34566 - 0.01517 + 0.01543)) < 1e-6)
        #expect(log.predictedFlips(.new).isEmpty)
    }

    @Test func consolePrefixesAsciiArrowsAndOneBaselinePerLine() {
        let text = """
            2026-08-20 16:14:24.600536+0000 Tinnitus[48213:2117734] base skew(t-now)=-0.00052
            2026-08-20 16:14:24.650324+0000 Tinnitus[48213:2117734] base skew(t-now)=+0.00010
            2026-08-20 16:14:25.310000+0000 Tinnitus[48213:2117734] SoundRow tapped: rain
            2026-08-20 16:14:25.315000+0000 Tinnitus[48213:2117734] armed walkOrigin=808935265.34566
            2026-08-20 16:14:25.315260+0000 Tinnitus[48213:2117734] skew=-0.01543  elapsed=-0.01517 | old=0.99983 <-L | new=0.00000 ->R
            2026-08-20 16:14:25.377000+0000 Tinnitus[48213:2117734] skew=-0.02723  elapsed=+0.03483 | old=0.00039 ->R | new=0.00039 ->R
            """
        let log = ProbeLog(text: text)
        #expect(log.evaluations.count == 2)
        #expect(log.baseline.count == 2 && log.baseline.negative == 1)
        #expect(log.ignoredLines == 1)
        #expect(log.predictedFlips(.old).count == 1)
        #expect(log.evaluations[0].oldFacing == .left)
    }

    @Test func brokenProbeLinesAreReportedWithTheirLineNumbers() {
        let text = """
            #01  skew=nan  elapsed=-0.01517 | old=0.99983 ←L | new=0.00000 →R
            #02  skew=-0.02723  elapsed=+0.03483 | old=0.00039 →R
            #03  skew=-0.02723  elapsed=inf | old=0.00039 →R | new=0.00039 →R
            #04  skew=-99999  elapsed=+0.03483 | old=0.00039 →R | new=0.00039 →R
            #05  skew=-0.02723  elapsed=+0.03483 | old=1.5 →R | new=0.00039 →R
            #06  skew=-0.02723  elapsed=+0.03483 | old=0.00039 ?? | new=0.00039 →R
            #07  skew=-0.02723  elapsed=+0.03483 | old=0.00039 →R | new=0.00039 →R
            """
        let log = ProbeLog(text: text)
        #expect(log.evaluations.map(\.line) == [7])
        #expect(log.problems.map(\.line) == [1, 2, 3, 4, 5, 6])
    }

    @Test func binaryJunkDoesNotCrash() {
        var bytes: [UInt8] = []
        var x: UInt32 = 12345
        for _ in 0..<20_000 {
            x = x &* 1103515245 &+ 12345
            bytes.append(UInt8(truncatingIfNeeded: x >> 16))
        }
        bytes += Array("skew=".utf8) + [0xff, 0xfe] + Array("elapsed=1 old=".utf8)
        let log = ProbeLog(text: String(decoding: bytes, as: UTF8.self))
        #expect(log.evaluations.isEmpty)
        #expect(!log.problems.isEmpty)
    }

    @Test func aLongRunIsATurnNotAFlip() {
        var text = "armed walkOrigin=100.0\n"
        for i in 0..<40 {
            let elapsed = Double(i) * 0.05
            let facing = i >= 10 && i < 30 ? "←L" : "→R"
            text += String(format: "skew=-0.00050  elapsed=%+.5f | old=0.10000 %@ | new=0.10000 %@\n", elapsed, facing, facing)
        }
        let log = ProbeLog(text: text)
        #expect(log.predictedFlips(.old).isEmpty, "a 1 s stretch facing left is a turn")
        #expect(log.predictedFlips(.old, transientMS: 2000).count == 1)
    }
}

@Suite struct BaselineSummaryTests {
    @Test func aSummaryLineThatStatesItsCountIsTakenAtItsWord() {
        let all = ProbeLog(text: "base #01..#15  skew(t-now) = -0.00001 … -0.02717      ← all 15 frames negative\n").baseline
        #expect(all.count == 15 && all.negative == 15 && !all.negativeIsLowerBound)
        let some = ProbeLog(text: "base #01..#15  skew(t-now) = 0.00020 … -0.04310      ← 13 of 15 frames negative\n").baseline
        #expect(some.count == 15 && some.negative == 13 && !some.negativeIsLowerBound)
    }

    @Test func aRangeAcrossZeroWithoutACountIsOnlyALowerBound() {
        let b = ProbeLog(text: "base #01..#15  skew(t-now) = 0.00020 … -0.04310\n").baseline
        #expect(b.negative == 1 && b.negativeIsLowerBound)
        let below = ProbeLog(text: "base #01..#15  skew(t-now) = -0.00020 … -0.04310\n").baseline
        #expect(below.negative == 15 && !below.negativeIsLowerBound)
    }
}

@Suite struct CrossCheckTests {
    let log = ProbeLog(text: article)

    @Test func theBugsVideoMatchesTheLegacyFormula() {
        let c = CrossCheck(video: [CrossCheck.VideoFlip(startSeconds: 4.017, durationMS: 66.7)], log: log, toleranceMS: 25)
        #expect(c.verdict == .matchesOld)
        let old = c.pairs.first { $0.formula == .old }
        #expect(old?.agrees == true)
        #expect(abs((old?.differenceMS ?? 0) - 4.9) < 0.01)
    }

    @Test func aCleanVideoMatchesTheClampedFormula() {
        #expect(CrossCheck(video: [], log: log, toleranceMS: 25).verdict == .matchesNew)
    }

    @Test func aLogWhoseFormulasAgreeIsUndetermined() {
        let same = ProbeLog(
            text: "skew=-0.001 elapsed=+0.1 | old=0.001 →R | new=0.001 →R\nskew=-0.001 elapsed=+0.15 | old=0.0017 →R | new=0.0017 →R\n")
        #expect(CrossCheck(video: [], log: same, toleranceMS: 25).verdict == .undetermined)
    }

    @Test func aPredictedFlipWhereTheVideosFacingIsUnknownLeavesTheAnswerOpen() {
        // The sprite was hidden (behind a page sliding over it) for 3.5 s: the legacy formula's 61.8 ms
        // flip may be in there, so the clean rest of the video does not show that the fix ran.
        let hidden = CrossCheck(
            video: [], unknown: [CrossCheck.UnknownStretch(startSeconds: 0.417, durationMS: 3483.3)], log: log, toleranceMS: 25)
        #expect(hidden.verdict == .undetermined)
        #expect(hidden.hiddenByUnknown)
        #expect(hidden.pairs.first { $0.formula == .old }?.hidden == true)
        #expect(CaptureVerdict(flips: [], crossCheck: hidden, expectation: .fixed).exitCode == 1)
        // 30 ms of unknown facing cannot hold a 61.8 ms flip (25 ms tolerance).
        let short = CrossCheck(
            video: [], unknown: [CrossCheck.UnknownStretch(startSeconds: 4.0, durationMS: 30)], log: log, toleranceMS: 25)
        #expect(short.verdict == .matchesNew)
        #expect(!short.hiddenByUnknown)
    }

    @Test func onceTheClocksAreAlignedOnlyUnknownFramesAtThePredictedMomentCanHideAFlip() {
        // The legacy formula flips twice, 5 s apart; the video shows the first at 4.0 s.
        var text = "armed  walkOrigin=800000000.00000\n"
        for i in 0..<130 {
            let elapsed = -0.015 + 0.05 * Double(i)
            let facing = i == 0 || i == 100 ? "←L" : "→R"
            text += String(format: "skew=-0.01000  elapsed=%+.5f | old=0.50000 %@ | new=0.10000 →R\n", elapsed, facing)
        }
        let twice = ProbeLog(text: text)
        #expect(twice.predictedFlips(.old).count == 2)
        let seen = [CrossCheck.VideoFlip(startSeconds: 4.0, durationMS: 50)]
        let elsewhere = CrossCheck(
            video: seen, unknown: [CrossCheck.UnknownStretch(startSeconds: 6.0, durationMS: 500)], log: twice, toleranceMS: 25)
        #expect(elsewhere.verdict == .inconsistent)
        #expect(elsewhere.pairs.allSatisfy { !$0.hidden })
        let there = CrossCheck(
            video: seen, unknown: [CrossCheck.UnknownStretch(startSeconds: 8.9, durationMS: 400)], log: twice, toleranceMS: 25)
        #expect(there.verdict == .matchesOld, "the first flip rules the clamped formula out; the second may be in the unknown frames")
        #expect(!there.hiddenByUnknown)
    }

    @Test func aDurationMismatchIsInconsistentAndNamed() {
        let c = CrossCheck(video: [CrossCheck.VideoFlip(startSeconds: 4.017, durationMS: 250)], log: log, toleranceMS: 25)
        #expect(c.verdict == .inconsistent)
        #expect(c.disagreements.contains { $0.contains("old: video 250.0 ms vs log 61.8 ms") })
    }
}

@Suite struct CaptureVerdictTests {
    let flip = OrientationTimeline.Flip(startSlot: 241, slots: 4, facing: .mirrored, sourceFrames: [7], sourceDuration: 40)

    @Test func expectations() {
        let log = ProbeLog(text: article)
        let bug = CrossCheck(video: [CrossCheck.VideoFlip(startSeconds: 4.017, durationMS: 66.7)], log: log, toleranceMS: 25)
        let fixed = CrossCheck(video: [], log: log, toleranceMS: 25)
        #expect(CaptureVerdict(flips: [flip], crossCheck: bug, expectation: nil).exitCode == 1)
        #expect(CaptureVerdict(flips: [flip], crossCheck: bug, expectation: .bug).exitCode == 0)
        #expect(CaptureVerdict(flips: [flip], crossCheck: bug, expectation: .fixed).exitCode == 1)
        #expect(CaptureVerdict(flips: [], crossCheck: fixed, expectation: nil).exitCode == 0)
        #expect(CaptureVerdict(flips: [], crossCheck: fixed, expectation: .fixed).exitCode == 0)
        #expect(CaptureVerdict(flips: [], crossCheck: fixed, expectation: .bug).exitCode == 1)
        #expect(CaptureVerdict(flips: [], crossCheck: nil, expectation: nil).exitCode == 0)
    }
}

@Suite struct ProbeLogHostileTests {
    private let evaluation = "skew=-0.00050 elapsed=-0.01520 | old=0.99983 ←L | new=0.00000 →R"

    @Test func millionsOfBlankLinesAreSkippedAndCountedAsLines() {
        let log = ProbeLog(text: String(repeating: "\n", count: 2_000_000) + evaluation + "\r\n\r" + evaluation)
        #expect(log.evaluations.map(\.line) == [2_000_001, 2_000_003])
        #expect(log.ignoredLines == 0)
    }

    @Test func malformedLinesBeyondTheCapAreCountedNotKept() {
        let bad = String(repeating: "skew=nonsense\n", count: ProbeLog.maximumProblems + 500)
        let log = ProbeLog(text: bad + evaluation)
        #expect(log.problems.count == ProbeLog.maximumProblems)
        #expect(log.ignoredLines == 500)
        #expect(log.evaluations.count == 1)
    }

    @Test func aDamagedCaptureNeverPasses() {
        let verdict = CaptureVerdict(
            flips: [], crossCheck: nil, expectation: .fixed, damage: "the index promises 87 frames but the file delivered 7")
        #expect(!verdict.passed && verdict.exitCode == 1)
        #expect(verdict.summary(flipDescription: "").hasPrefix("FAIL (damaged capture): the index promises 87 frames"))
    }
}

@Suite struct LogRecordTests {
    @Test func timestampsAreSecondsSinceTheReferenceDate() throws {
        let (t, zoned, rest) = try #require(LogRecord.timestamp("2026-08-20 16:14:24.600388+0000 x"))
        #expect(abs(t - 808_935_264.600388) < 1e-6 && zoned && rest == " x")
        let (u, _, _) = try #require(LogRecord.timestamp("2026-08-20 18:14:24+0100"))
        #expect(u == 808_938_864.0)
        let (_, local, _) = try #require(LogRecord.timestamp("2026-08-20 16:14:24.600 Df"))
        #expect(!local)
        #expect(LogRecord.timestamp("#01  skew=-0.01546") == nil)
    }

    @Test func eachTextStyleIsRecognised() {
        let lines: [(String, LogRecord.Style, String?)] = [
            ("#01  skew=-0.01546  elapsed=-0.01520", .plain, nil),
            ("2026-08-20 16:14:24.600388+0000 Tinnitus[48213:2117734] #01  skew=-0.01546", .xcodeConsole, "Tinnitus"),
            (
                "2026-08-20 16:14:24.600388+0000 0x2050e6   Default     0x0   48213  0    Tinnitus: [a.b:C] #01  skew=-0.01546",
                .logDefault, "Tinnitus"
            ),
            ("2026-08-20 16:14:24.600 Df Tinnitus[48213:2050e6] [a.b:C] #01  skew=-0.01546", .logCompact, "Tinnitus"),
            ("2026-08-20 16:14:24.600388+0000  localhost Tinnitus[48213]: (Lib) [a.b:C] #01  skew=-0.01546", .logSyslog, "Tinnitus")
        ]
        for (text, style, process) in lines {
            let (record, found) = LogRecord.parse(Substring(text), line: 1)
            #expect(found == style, "\(text)")
            #expect(record.process == process)
            #expect(record.message.hasPrefix("#01  skew="), "\(record.message)")
            if style != .plain && style != .xcodeConsole { #expect(record.source == "a.b:C") }
        }
    }
}
