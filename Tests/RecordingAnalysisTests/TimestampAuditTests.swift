import Testing
@testable import RecordingAnalysis

private let tb600 = Rational(1, 600)

private func frames(_ pts: [Int64?], duration: Int64 = 10) -> [FrameTiming] {
    pts.enumerated().map { FrameTiming(index: $0.offset, pts: $0.element, duration: duration, isKey: $0.offset == 0, timeBase: tb600) }
}

private func packets(_ pts: [Int64?], dts: [Int64?]? = nil) -> [PacketTiming] {
    let d = dts ?? pts
    return zip(pts, d).map { PacketTiming(pts: $0.0, dts: $0.1) }
}

@Suite struct TimestampAuditTests {
    @Test func monotonicConstantRateIsClean() {
        let pts: [Int64] = (0..<30).map { Int64($0) * 10 }
        let audit = TimestampAudit(frames: frames(pts), packets: packets(pts), timeBase: tb600)
        #expect(audit.isClean)
        #expect(audit.nonMonotonic.isEmpty && audit.duplicates.isEmpty && audit.missingPTS.isEmpty)
        #expect(!audit.hasBFrames)
        #expect(!audit.isVariableFrameRate)
        #expect(audit.intervals == TimestampAudit.Intervals(min: 10, median: 10, max: 10))
        #expect(audit.gaps.isEmpty)
        #expect(audit.cutHazards.isEmpty)
    }

    @Test func backwardJumpIsReportedWithBothValues() {
        let pts: [Int64] = [0, 10, 20, 45, 40, 50, 60]
        let audit = TimestampAudit(frames: frames(pts), packets: packets(pts), timeBase: tb600)
        #expect(audit.nonMonotonic == [TimestampAudit.Backstep(index: 4, pts: 40, previousPTS: 45)])
        #expect(audit.duplicates.isEmpty)
        #expect(!audit.hasBFrames, "a backwards step in a stream without reordering is not B-frames")
        #expect(audit.cutHazards == [TimestampAudit.CutHazard(fromPTS: 40, toPTS: 45, startsAtIndex: 3, earlierFrames: [4])])
        #expect(!audit.isClean)
    }

    @Test func duplicatesAreSeparateFromBackwardSteps() {
        let pts: [Int64] = [0, 10, 20, 20, 30]
        let audit = TimestampAudit(frames: frames(pts), packets: packets(pts), timeBase: tb600)
        #expect(audit.duplicates == [TimestampAudit.Duplicate(index: 3, pts: 20)])
        #expect(audit.nonMonotonic.isEmpty)
    }

    @Test func missingPTSAreListedAndSkipped() {
        let audit = TimestampAudit(frames: frames([0, nil, 20, 30]), packets: packets([0, nil, 20, 30]), timeBase: tb600)
        #expect(audit.missingPTS == [1])
        #expect(audit.nonMonotonic.isEmpty)
        #expect(audit.originPTS == 0)
    }

    @Test func bFrameReorderingIsNotAnAnomaly() {
        // Decode order I P B B P B B, display order monotonic after decoding.
        let packetPTS: [Int64] = [0, 30, 10, 20, 60, 40, 50]
        let packetDTS: [Int64] = [-10, 0, 10, 20, 30, 40, 50]
        let outputPTS: [Int64] = [0, 10, 20, 30, 40, 50, 60]
        let audit = TimestampAudit(frames: frames(outputPTS), packets: packets(packetPTS, dts: packetDTS), timeBase: tb600)
        #expect(audit.hasBFrames)
        #expect(audit.isClean)
        #expect(audit.dtsNonMonotonic.isEmpty)
    }

    @Test func dtsGoingBackwardsIsAMuxingFault() {
        let audit = TimestampAudit(frames: frames([0, 10, 20]), packets: packets([0, 10, 20], dts: [0, 10, 5]), timeBase: tb600)
        #expect(audit.dtsNonMonotonic == [TimestampAudit.DTSBackstep(packetIndex: 2, dts: 5, previousDTS: 10)])
    }

    @Test func variableRateAndStaticScreenGap() {
        // 60 Hz vsync grid at 1/600: steps of 10 and 30 ticks, then a 2.55 s static screen.
        let pts: [Int64] = [0, 1530, 1540, 1570, 1600, 1630, 1660]
        let audit = TimestampAudit(frames: frames(pts), packets: packets(pts), timeBase: tb600)
        #expect(audit.isVariableFrameRate)
        #expect(audit.intervals == TimestampAudit.Intervals(min: 10, median: 30, max: 1530))
        #expect(audit.gaps == [TimestampAudit.Gap(startPTS: 0, length: 1530)])
        #expect(abs(audit.duration(audit.gaps[0].length) - 2.55) < 1e-9)
    }

    @Test func oneTickOfJitterIsNotVariableFrameRate() {
        // 60 fps in a 1/1000 time base alternates 16 and 17 ms.
        let pts: [Int64] = [0, 17, 33, 50, 67, 83, 100]
        let tb = Rational(1, 1000)
        let f = pts.enumerated().map { FrameTiming(index: $0.offset, pts: $0.element, duration: 0, isKey: false, timeBase: tb) }
        let audit = TimestampAudit(frames: f, packets: packets(pts), timeBase: tb)
        #expect(!audit.isVariableFrameRate)
    }

    @Test func secondsAreRelativeToTheFirstDecodedFrame() {
        let audit = TimestampAudit(frames: frames([600, 610]), packets: packets([600, 610]), timeBase: tb600)
        #expect(audit.seconds(610) == 10.0 / 600.0)
        #expect(audit.seconds(600) == 0)
    }

    @Test func cutHazardCoversARunOfLateFrames() {
        // Frame 2 is presented late: frames 3 and 4 have smaller pts.
        let pts: [Int64] = [0, 10, 50, 20, 30, 60]
        let audit = TimestampAudit(frames: frames(pts), packets: packets(pts), timeBase: tb600)
        #expect(audit.nonMonotonic.map(\.index) == [3])
        #expect(audit.cutHazards == [TimestampAudit.CutHazard(fromPTS: 20, toPTS: 50, startsAtIndex: 2, earlierFrames: [3, 4])])
    }
}

@Suite struct RationalTests {
    @Test func rescaleRoundsHalfAwayFromZeroLikeAVRescaleQ() {
        // 1/600 → 1/60: 5 ticks is exactly half a slot.
        #expect(rescale(5, from: Rational(1, 600), to: Rational(1, 60)) == 1)
        #expect(rescale(4, from: Rational(1, 600), to: Rational(1, 60)) == 0)
        #expect(rescale(-5, from: Rational(1, 600), to: Rational(1, 60)) == -1)
        #expect(rescale(15, from: Rational(1, 600), to: Rational(1, 60)) == 2)
        #expect(rescale(14, from: Rational(1, 600), to: Rational(1, 60), rounding: .down) == 1)
        #expect(rescale(11, from: Rational(1, 600), to: Rational(1, 60), rounding: .up) == 2)
        // 30000/1001 fps: frame 1001 of a 1/30000 clock is slot 1 exactly.
        #expect(rescale(1001, from: Rational(1, 30000), to: Rational(1001, 30000)) == 1)
    }

    @Test func rescaleDoesNotOverflowOrTrap() {
        #expect(rescale(Int64.max, from: Rational(1, 1), to: Rational(1, 1_000_000)) == Int64.max)
        #expect(rescale(Int64.min, from: Rational(1, 1), to: Rational(1, 1_000_000)) == Int64.min)
        #expect(rescale(Int64.max, from: Rational(1, 600), to: Rational(1, 600)) == Int64.max)
    }

    @Test func parsesRatesAndRefusesNonsense() {
        #expect(Rational(parsing: "60") == Rational(60, 1))
        #expect(Rational(parsing: "30000/1001") == Rational(30000, 1001))
        for bad in ["0", "-60", "60/0", "abc", "", "1/2/3", "29.97", "0/0"] {
            #expect(Rational(parsing: bad) == nil, "\(bad)")
        }
    }
}

@Suite struct QuickTimeBoxScanTests {
    private func box(_ type: String, _ payload: Int) -> [UInt8] {
        let size = UInt32(8 + payload)
        return [UInt8(size >> 24), UInt8((size >> 16) & 0xff), UInt8((size >> 8) & 0xff), UInt8(size & 0xff)]
            + Array(type.utf8) + [UInt8](repeating: 0, count: payload)
    }

    private func diagnose(_ bytes: [UInt8]) -> QuickTimeBoxScan.Diagnosis {
        QuickTimeBoxScan.diagnose(size: Int64(bytes.count)) { offset, count in
            let start = Int(offset)
            guard start < bytes.count else { return [] }
            return Array(bytes[start..<min(bytes.count, start + count)])
        }
    }

    @Test func recognisesAMissingIndex() {
        #expect(diagnose(box("ftyp", 12) + box("wide", 0) + box("mdat", 100)) == .missingIndex)
        #expect(diagnose(box("ftyp", 12) + box("mdat", 100) + box("moov", 20)) == .indexed)
        #expect(diagnose([]) == .empty)
        #expect(diagnose(Array("#EXTM3U\nfile.ts\n".utf8)) == .notQuickTime)
    }

    @Test func survivesJunkSizes() {
        var bytes = box("ftyp", 12)
        bytes += [0, 0, 0, 1] + Array("mdat".utf8) + [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        #expect(diagnose(bytes) == .missingIndex)
        #expect(diagnose([0, 0, 0, 3] + Array("ftyp".utf8)) == .missingIndex)
    }
}
