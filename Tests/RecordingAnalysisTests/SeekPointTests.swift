import Testing
import RecordingAnalysis

/// Where decoding starts for chosen frames: one group of pictures before theirs, and only where the
/// frames' pts name them.
@Suite struct SeekPointTests {
    static let timeBase = Rational(1, 30)

    /// Packets in decode order of I P B B | I P B B | …: each group's key packet, then a P two frames
    /// on, then the two B-frames before it. Frames in output order are the pts 0, 1, 2, …
    static func groups(_ count: Int) -> (packets: [PacketTiming], frames: [FrameTiming]) {
        var packets: [PacketTiming] = []
        for g in 0..<count {
            let base = Int64(4 * g)
            for (offset, pts) in [base, base + 3, base + 1, base + 2].enumerated() {
                packets.append(PacketTiming(pts: pts, dts: base + Int64(offset) - 1, duration: 1, isKey: pts == base))
            }
        }
        let frames = (0..<(4 * count)).map { FrameTiming(index: $0, pts: Int64($0), duration: 1, isKey: $0 % 4 == 0, timeBase: timeBase) }
        return (packets, frames)
    }

    @Test func startsOneGroupBeforeTheEarliestChosenFrame() {
        let (packets, frames) = Self.groups(5)
        // Frame 13 is in the group whose key packet is packet 12; the group before starts at packet 8.
        let point = SeekPoint.plan(packets: packets, frames: frames, needed: [13, 19])
        #expect(point?.packetIndex == 8)
        #expect(point?.pts == 8)
        #expect(point?.seekTimestamp == 8)
        #expect(point?.firstFrame == 8 && point?.strictFrom == 12)
    }

    @Test func framesInTheFirstTwoGroupsAreDecodedFromTheStart() {
        let (packets, frames) = Self.groups(5)
        // The second group: from the first packet, with the group's key packet named.
        let second = SeekPoint.plan(packets: packets, frames: frames, needed: [7])
        #expect(second?.packetIndex == 0 && second?.firstFrame == 0)
        #expect(second?.strictFrom == 4 && second?.groupPacketIndex == 4)
        #expect(SeekPoint.plan(packets: packets, frames: frames, needed: [2, 19]) == nil)
        #expect(SeekPoint.plan(packets: packets, frames: frames, needed: []) == nil)
        #expect(SeekPoint.plan(packets: packets, frames: frames, needed: [20]) == nil)
    }

    @Test func timingsThatCannotBeCheckedAreNotSeeked() {
        let (packets, frames) = Self.groups(5)
        var unnamed = frames
        unnamed[3].pts = nil
        #expect(SeekPoint.plan(packets: packets, frames: unnamed, needed: [17]) == nil)
        var corrupt = packets
        corrupt[5].isCorrupt = true
        #expect(SeekPoint.plan(packets: corrupt, frames: frames, needed: [17]) == nil)
        // A packet that is not one of the frames (two frames in one packet, or a hidden one).
        #expect(SeekPoint.plan(packets: packets + [PacketTiming(pts: 99, dts: 98)], frames: frames, needed: [17]) == nil)
    }

    @Test func aDiscardedPacketIsNeitherAFrameNorAStart() {
        var (packets, frames) = Self.groups(5)
        // Outside the edit list: decoded, never shown; the frames are those of the other packets.
        packets.insert(PacketTiming(pts: -1, dts: -2, duration: 1, isKey: true, isDiscarded: true), at: 0)
        #expect(SeekPoint.plan(packets: packets, frames: frames, needed: [13])?.packetIndex == 9)
    }

    @Test func namesFramesFromTheKeyPacketItLandedOnIfNotLater() throws {
        let (packets, frames) = Self.groups(5)
        let point = try #require(SeekPoint.plan(packets: packets, frames: frames, needed: [13]))
        var exact = try #require(point.frameNames(landingOn: packets[8], of: packets))
        #expect(exact.index(ofNextFramePTS: 8) == 8)
        var earlier = try #require(point.frameNames(landingOn: packets[4], of: packets), "an earlier key packet only decodes more")
        #expect(earlier.index(ofNextFramePTS: 4) == 4)
        #expect(point.frameNames(landingOn: packets[12], of: packets) == nil, "a later key packet skips frames the group needs")
        #expect(point.frameNames(landingOn: packets[9], of: packets) == nil, "not a key packet")
        #expect(point.frameNames(landingOn: PacketTiming(pts: 50, dts: 50, isKey: true), of: packets) == nil, "not one of the recording's")
    }

    @Test func namesFramesByPlaceAndChecksTheirPTS() throws {
        var (packets, frames) = Self.groups(5)
        // simctl's trap: a frame shares the next one's pts, another is presented after its successor.
        frames[14].pts = 15
        packets[12 + 3].pts = 15
        frames[9].pts = 11
        frames[10].pts = 9
        packets[11].pts = 11
        let point = try #require(SeekPoint.plan(packets: packets, frames: frames, needed: [14, 15]))
        var names = try #require(point.frameNames(landingOn: packets[8], of: packets))
        let decoded: [Int64] = [8, 11, 9, 11, 12, 13, 15, 15, 16]
        #expect(decoded.map { names.index(ofNextFramePTS: $0) } == [8, 9, 10, 11, 12, 13, 14, 15, 16])
        // The warm-up group's first pictures left out by the decoder are skipped over; the chosen group's are not.
        var warm = try #require(point.frameNames(landingOn: packets[8], of: packets))
        #expect([Int64(11), 9, 11, 12, 13].map { warm.index(ofNextFramePTS: $0) } == [9, 10, 11, 12, 13])
        var strict = try #require(point.frameNames(landingOn: packets[8], of: packets))
        #expect([Int64(8), 11, 9, 11, 12].map { strict.index(ofNextFramePTS: $0) } == [8, 9, 10, 11, 12])
        #expect(strict.index(ofNextFramePTS: 15) == nil, "frame 13 did not come out")
        var wrong = try #require(point.frameNames(landingOn: packets[8], of: packets))
        #expect(wrong.index(ofNextFramePTS: 40) == nil)
    }
}
