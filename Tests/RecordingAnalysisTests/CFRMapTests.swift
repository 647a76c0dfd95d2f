import Testing
@testable import RecordingAnalysis

private func inputs(_ pts: [Int64?]) -> [CFRMap.Input] {
    pts.enumerated().map { CFRMap.Input(source: $0.offset, pts: $0.element) }
}

private func frames(_ pts: [Int64?], dts: [Int64?]? = nil, duration: Int64, tb: Rational) -> [FrameTiming] {
    pts.enumerated().map { i, p in
        FrameTiming(index: i, pts: p, dts: dts?[i], duration: duration, isKey: i == 0, timeBase: tb)
    }
}

@Suite struct CFRMapTests {
    let ms = Rational(1, 1000)
    let qt = Rational(1, 600)
    let r60 = Rational(60, 1)

    @Test func exactRateMapsOneToOne() throws {
        let map = try CFRMap.fpsFilter(inputs([0, 10, 20, 30, 40, 50]), timeBase: qt, rate: r60, endPTS: 60)
        #expect(map.slotMap == [0, 1, 2, 3, 4, 5])
        #expect(map.duplicated == 0 && map.dropped.isEmpty && map.originSlot == 0)
    }

    @Test func halfSlotsRoundAwayFromZero() throws {
        // 25 ms is exactly 1.5 slots at 60 fps: it rounds to slot 2; 42 ms = 2.52 → 3; end 59 ms = 3.54 → 4.
        let map = try CFRMap.fpsFilter(inputs([0, 25, 42]), timeBase: ms, rate: r60, endPTS: 59)
        #expect(map.slotMap == [0, 0, 1, 2])
        #expect(map.duplicated == 1)
        // A negative half slot rounds away from zero too: -25 ms → slot -2.
        let negative = try CFRMap.fpsFilter(inputs([-25, 0]), timeBase: ms, rate: r60, endPTS: 17)
        #expect(negative.originSlot == -2)
        #expect(negative.slotMap == [0, 0, 1])
    }

    @Test func aStaticScreenRepeatsOneFrameForSeconds() throws {
        let map = try CFRMap.fpsFilter(inputs([0, 3000]), timeBase: qt, rate: r60, endPTS: 3010)
        #expect(map.slotCount == 301)
        #expect(map.runs == [CFRMap.Run(source: 0, firstSlot: 0, count: 300), CFRMap.Run(source: 1, firstSlot: 300, count: 1)])
        #expect(map.duplicated == 299)
        #expect(map.source(atSlot: 299) == 0 && map.source(atSlot: 300) == 1 && map.source(atSlot: 301) == nil)
    }

    @Test func onlyTheLastOfSeveralFramesInOneSlotSurvives() throws {
        let map = try CFRMap.fpsFilter(inputs([0, 4, 8, 20]), timeBase: ms, rate: r60, endPTS: 37)
        #expect(map.slotMap == [2, 3])
        #expect(map.dropped == [0, 1])
    }

    @Test func theGridStartsAtTheFirstFramesSlot() throws {
        let map = try CFRMap.fpsFilter(inputs([300, 310]), timeBase: qt, rate: r60, endPTS: 320)
        #expect(map.originSlot == 30)
        #expect(map.slotMap == [0, 1])
        // Slot times are on the recording clock, where the first frame is at 0.5 s.
        #expect(abs(map.seconds(ofSlot: 1) - 31.0 / 60.0) < 1e-12)
        #expect(map.slot(at: TimeArgument(parsing: "0.52")!) == 1)
    }

    @Test func initialFramesWithoutPTSAreDiscarded() throws {
        let map = try CFRMap.fpsFilter(inputs([nil, 0, 10]), timeBase: qt, rate: r60, endPTS: 20)
        #expect(map.slotMap == [1, 2])
        #expect(map.dropped == [0])
    }

    @Test func theLastFrameWithoutDurationGetsNoSlot() throws {
        let map = try CFRMap.fpsFilter(inputs([0, 10]), timeBase: qt, rate: r60, endPTS: nil)
        #expect(map.slotMap == [0])
        #expect(map.dropped == [1])
    }

    @Test func rationalRates() throws {
        // 30000/1001: a frame every 1001 ticks of 1/30000 lands on consecutive slots.
        let tb = Rational(1, 30000)
        let map = try CFRMap.fpsFilter(inputs([0, 1001, 2002, 4004]), timeBase: tb, rate: Rational(30000, 1001), endPTS: 5005)
        #expect(map.slotMap == [0, 1, 2, 2, 3])
    }

    @Test func absurdGapsAreRefusedNotAllocated() {
        #expect(throws: CFRMap.Failure.self) {
            try CFRMap.fpsFilter(inputs([0, Int64.max / 4]), timeBase: ms, rate: r60, endPTS: nil)
        }
        #expect(throws: CFRMap.Failure.noTimestamps) {
            try CFRMap.fpsFilter(inputs([nil, nil]), timeBase: ms, rate: r60, endPTS: nil)
        }
    }
}

@Suite struct CFRResamplerTests {
    let qt = Rational(1, 600)

    @Test func monotonicPTSUseThePTSClock() throws {
        let r = try CFRResampler(
            frames: frames([0, 10, 40], dts: [0, 10, 40], duration: 10, tb: qt), stream: .init(timeBase: qt), rate: Rational(60, 1),
            hasBFrames: false)
        #expect(r.clock == .pts)
        #expect(r.map.slotMap == [0, 1, 1, 1, 2])
        #expect(r.warnings.isEmpty)
    }

    @Test func backwardsPTSWithMonotonicDTSUseDTS() throws {
        // Frame 2 is presented late: pts 30 after frame 3's 20; the dts kept the recorder's order.
        let f = frames([0, 10, 30, 20, 40], dts: [0, 10, 20, 30, 40], duration: 10, tb: qt)
        let r = try CFRResampler(frames: f, stream: .init(timeBase: qt), rate: Rational(60, 1), hasBFrames: false)
        #expect(r.clock == .dts)
        #expect(r.map.slotMap == [0, 1, 2, 3, 4])
        #expect(!r.warnings.isEmpty)
    }

    @Test func withBFramesFramesArePlacedInPTSOrder() throws {
        let f = frames([0, 20, 10, 30], dts: [-10, 0, 10, 20], duration: 10, tb: qt)
        let r = try CFRResampler(frames: f, stream: .init(timeBase: qt), rate: Rational(60, 1), hasBFrames: true)
        #expect(r.clock == .sortedPTS)
        #expect(r.map.slotMap == [0, 2, 1, 3])
    }

    @Test func duplicatePTSKeepTheLaterFrame() throws {
        let f = frames([0, 10, 10, 20], dts: nil, duration: 10, tb: qt)
        let r = try CFRResampler(frames: f, stream: .init(timeBase: qt), rate: Rational(60, 1), hasBFrames: true)
        #expect(r.map.slotMap == [0, 2, 3])
        #expect(r.map.dropped == [1])
    }

    @Test func endOfStreamGoesThroughMicroseconds() {
        #expect(CFRResampler.endOfStream(4790, duration: 10, timeBase: qt) == 4800)
        #expect(CFRResampler.endOfStream(1, duration: 1, timeBase: Rational(1, 90000)) == 2)
    }
}

/// `-fps_mode cfr -r R` worked by hand from fftools/ffmpeg.c's `do_video_out` (FFmpeg 5.1).
@Suite struct FPSModeCFRTests {
    let qt = Rational(1, 600)
    let r60 = Rational(60, 1)

    private func inputs(_ pts: [Int64?], duration: Int64) -> [CFRMap.TimedInput] {
        pts.enumerated().map { CFRMap.TimedInput(source: $0.offset, pts: $0.element, duration: duration) }
    }

    @Test func aGapRepeatsThePreviousFrameAndTheGridStartsAtZero() throws {
        // 30 fps frames (20 ticks = 2 slots each), the first at 0.1 s (slot 6), frame 2 missing.
        let map = try CFRMap.fpsModeCFR(
            inputs([60, 80, 120], duration: 20), timeBase: qt, rate: r60,
            streamFrameRate: Rational(30, 1), hasStartTime: true)
        #expect(map.originSlot == 0)
        // Frame 0: delta0 = 6, delta = 8 -> 8 slots, of which llrintf(5.4) = 5 repeat the previous
        // frame; there is none yet, so frame 0 fills them. Frame 1: delta0 = 0 -> 2 slots.
        // Frame 2: delta0 = 2 -> 4 slots, llrintf(1.4) = 1 repeats frame 1. At the end the last frame
        // is repeated the median of the last three repeat counts (5, 0, 1): once more.
        #expect(map.slotMap == [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2])
        #expect(map.dropped.isEmpty)
    }

    @Test func framesCloserThanASlotAreDropped() throws {
        // 10 ms apart at 60 fps: the second frame of each pair arrives before the next slot.
        let map = try CFRMap.fpsModeCFR(
            inputs([0, 6, 20, 26], duration: 6), timeBase: qt, rate: r60,
            streamFrameRate: Rational(100, 1), hasStartTime: true)
        // lrintf(0.6) = 1 slot for each frame; delta stays above -1.1, so none is dropped outright,
        // but each one shows in exactly one slot: no repeat, no gap.
        #expect(map.slotMap == [0, 1, 2, 3])
        let late = try CFRMap.fpsModeCFR(
            inputs([0, 1, 2, 3, 40], duration: 1), timeBase: qt, rate: r60,
            streamFrameRate: Rational(60, 1), hasStartTime: true)
        // One slot per frame by default (the stream's 60 fps). Frame 2 is 0.8 slots behind the output
        // clock and still shown; frame 3 is 1.7 behind (past -1.1) and dropped; frame 4 fills the gap.
        #expect(late.slotMap == [0, 1, 2, 4, 4])
        #expect(late.dropped == [3])
    }

    @Test func noTimestampAtAllIsAFailure() {
        #expect(throws: CFRMap.Failure.noTimestamps) {
            try CFRMap.fpsModeCFR(inputs([nil, nil], duration: 10), timeBase: qt, rate: r60, streamFrameRate: nil, hasStartTime: false)
        }
    }
}

@Suite struct GridComparisonTests {
    @Test func differencesAreRunsOnTheAbsoluteClock() {
        let ours = CFRMap(
            rate: Rational(60, 1), originSlot: 10,
            runs: [.init(source: 0, firstSlot: 0, count: 3), .init(source: 1, firstSlot: 3, count: 2)], dropped: [])
        let theirs = CFRMap(
            rate: Rational(60, 1), originSlot: 11,
            runs: [.init(source: 0, firstSlot: 0, count: 4), .init(source: 1, firstSlot: 4, count: 2)], dropped: [])
        let c = GridComparison(ours: ours, theirs: theirs)
        // Absolute slots: ours 10-12 #0, 13-14 #1; theirs 11-14 #0, 15-16 #1.
        #expect(
            c.differences == [
                .init(absoluteSlot: 10, count: 1, ours: 0, theirs: nil),
                .init(absoluteSlot: 13, count: 2, ours: 1, theirs: 0),
                .init(absoluteSlot: 15, count: 2, ours: nil, theirs: 1)
            ])
        #expect(c.differingSlots == 5)
        #expect(GridComparison(ours: ours, theirs: ours).identical)
    }

    @Test func theDefaultOriginIsTheContainerStartRoundedToTicks() {
        let rule = GridRule()
        #expect(rule.zeroTicks(containerStartMicroseconds: 26_000, timeBase: Rational(1, 1000)) == 26)
        #expect(rule.zeroTicks(containerStartMicroseconds: 25_000, timeBase: Rational(1, 600)) == 15)
        #expect(GridRule(origin: .absolute).zeroTicks(containerStartMicroseconds: 26_000, timeBase: Rational(1, 1000)) == 0)
        #expect(rule.ffmpegCommand(rate: Rational(30000, 1001)) == "ffmpeg -i REC -vf fps=30000/1001")
        #expect(
            GridRule(method: .fpsModeCFR, origin: .absolute).ffmpegCommand(rate: Rational(60, 1))
                == "ffmpeg -copyts -i REC -fps_mode cfr -r 60")
    }
}
