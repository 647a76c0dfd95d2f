import Testing
@testable import RecordingAnalysis

/// The display refresh rate read from frame times, against rates the frames were made at.
@Suite struct RefreshRateTests {
    private func detect(_ ticks: [Int64], _ timeBase: Rational) -> Int? { RefreshRate.detect(pts: ticks, timeBase: timeBase) }

    @Test func changeDrivenSixtyHertzInQuickTimeTicks() {
        // The simulator emits on vsyncs only when the screen changed: intervals of 1, 3, 2, 40 vsyncs.
        let vsyncs: [Int64] = [0, 1, 4, 6, 46, 47, 48, 51, 54, 57]
        #expect(detect(vsyncs.map { $0 * 10 }, Rational(1, 600)) == 60)
    }

    @Test func oneTwentyHertzNeedsItsOwnPeriod() {
        let refreshes: [Int64] = [0, 1, 2, 5, 6, 9, 10, 11, 30]
        #expect(detect(refreshes.map { $0 * 10 }, Rational(1, 1200)) == 120)
    }

    @Test func constantSixtyInMillisecondsAlternating16And17() {
        let ms = (0..<60).map { Int64((Double($0) * 1000 / 60).rounded()) }
        #expect(detect(ms, Rational(1, 1000)) == 60)
    }

    @Test func twentyFiveIsNotTwentyFour() {
        #expect(detect((0..<50).map { Int64($0) * 40 }, Rational(1, 1000)) == 25)
    }

    @Test func jitteredCaptureTimesFallBackToTheBusyInterval() {
        // Android-style: stamped when captured, around 16.7 ms apart with a millisecond of jitter.
        var t: Int64 = 0
        var ticks: [Int64] = []
        for i in 0..<100 {
            ticks.append(t)
            t += 1500 + Int64((i * 37) % 7 - 3) * 30
        }
        #expect(detect(ticks, Rational(1, 90000)) == 60)
    }

    @Test func tooFewOrFitlessFramesAreNotGuessed() {
        #expect(detect([0, 10, 20], Rational(1, 600)) == nil)
        #expect(detect([0, 7, 19, 23, 41, 53, 61, 79, 83, 97], Rational(1, 1000)) == nil)
    }
}
