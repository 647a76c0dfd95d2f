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
        #expect(map.seconds(ofSlot: 1) == 1.0 / 60.0)
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
        let r = try CFRResampler(frames: frames([0, 10, 40], dts: [0, 10, 40], duration: 10, tb: qt), timeBase: qt, rate: Rational(60, 1), hasBFrames: false)
        #expect(r.clock == .pts)
        #expect(r.map.slotMap == [0, 1, 1, 1, 2])
        #expect(r.warnings.isEmpty)
    }

    @Test func backwardsPTSWithMonotonicDTSUseDTS() throws {
        // Frame 2 is presented late: pts 30 after frame 3's 20; the dts kept the recorder's order.
        let f = frames([0, 10, 30, 20, 40], dts: [0, 10, 20, 30, 40], duration: 10, tb: qt)
        let r = try CFRResampler(frames: f, timeBase: qt, rate: Rational(60, 1), hasBFrames: false)
        #expect(r.clock == .dts)
        #expect(r.map.slotMap == [0, 1, 2, 3, 4])
        #expect(!r.warnings.isEmpty)
    }

    @Test func withBFramesFramesArePlacedInPTSOrder() throws {
        let f = frames([0, 20, 10, 30], dts: [-10, 0, 10, 20], duration: 10, tb: qt)
        let r = try CFRResampler(frames: f, timeBase: qt, rate: Rational(60, 1), hasBFrames: true)
        #expect(r.clock == .sortedPTS)
        #expect(r.map.slotMap == [0, 2, 1, 3])
    }

    @Test func duplicatePTSKeepTheLaterFrame() throws {
        let f = frames([0, 10, 10, 20], dts: nil, duration: 10, tb: qt)
        let r = try CFRResampler(frames: f, timeBase: qt, rate: Rational(60, 1), hasBFrames: true)
        #expect(r.map.slotMap == [0, 2, 3])
        #expect(r.map.dropped == [1])
    }

    @Test func endOfStreamGoesThroughMicroseconds() {
        #expect(CFRResampler.endOfStream(4790, duration: 10, timeBase: qt) == 4800)
        #expect(CFRResampler.endOfStream(1, duration: 1, timeBase: Rational(1, 90000)) == 2)
    }
}
