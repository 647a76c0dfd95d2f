/// Where decoding may start so that chosen frames come out exactly as a decode from the first packet
/// gives them: a key packet one whole group of pictures before the group that holds the earliest
/// chosen frame.
///
/// The group before is decoded as a warm-up: a picture that references frames before its own key
/// packet (an open group of pictures: HEVC's RASL pictures after a CRA, H.264's leading B-frames
/// after a non-IDR I-frame) then finds them decoded. The frames a decode from the key packet gives
/// are the last ones in output order (as many as there are shown packets from it on), so they are
/// named by their place in that order and checked against their pts one by one (`FrameNames`):
/// duplicated or backward pts, as in `simctl` captures, do not confuse it. A plan exists only where
/// the timings allow that check: every frame and every shown packet has a pts, each frame is one
/// packet, the frames from each of the two key packets on have the pts of the packets from it on,
/// and no packet is corrupt (a damaged stream is decoded whole, as it always was).
public struct SeekPoint: Equatable, Sendable {
    /// The key packet to start at, by its position in decode order.
    public let packetIndex: Int
    public let pts: Int64?
    public let dts: Int64?
    /// The decoder output index of the first frame a decode from the key packet gives.
    public let firstFrame: Int
    /// From this output index on (the chosen frames' group of pictures), every frame must come out,
    /// in order; before it, the decoder may leave out pictures whose references precede the seek.
    public let strictFrom: Int
    /// The key packet of the chosen frames' group, by its position in decode order: every frame
    /// decoded from a packet before it is shown before `strictFrom`, so a picture no other one
    /// refers to can be left undecoded there.
    public let groupPacketIndex: Int
    /// Every frame's pts in output order.
    let framePTS: [Int64]

    /// The start for decoding the frames `needed` (decoder output indices) of a recording with these
    /// timings; nil when every frame from the first packet on must be decoded (the earliest chosen
    /// frame is in the first group of pictures, or the timings do not allow the check). A plan whose
    /// warm-up is the first packet (the chosen frames in the second group) needs no seek, but still
    /// names the chosen group's key packet, before which unreferenced pictures need no decoding.
    public static func plan(packets: [PacketTiming], frames: [FrameTiming], needed: Set<Int>) -> SeekPoint? {
        guard let earliest = needed.min(), needed.allSatisfy({ frames.indices.contains($0) }),
            !packets.contains(where: \.isCorrupt)
        else { return nil }
        let framePTS = frames.compactMap(\.pts)
        let shown = packets.indices.filter { !packets[$0].isDiscarded }
        guard framePTS.count == frames.count, shown.count == frames.count, shown.allSatisfy({ packets[$0].pts != nil }) else {
            return nil
        }
        // shownFrom[k]: shown packets at decode positions k and later.
        var shownFrom = [Int](repeating: 0, count: packets.count + 1)
        for k in packets.indices.reversed() { shownFrom[k] = shownFrom[k + 1] + (packets[k].isDiscarded ? 0 : 1) }
        func firstFrame(from k: Int) -> Int { frames.count - shownFrom[k] }
        let keys = packets.indices.filter { packets[$0].isKey && !packets[$0].isDiscarded }
        guard let g = keys.lastIndex(where: { firstFrame(from: $0) <= earliest }), g >= 1 else { return nil }
        let group = keys[g], warmUp = keys[g - 1]
        guard framesAreThePackets(from: group, framePTS: framePTS, packets: packets),
            framesAreThePackets(from: warmUp, framePTS: framePTS, packets: packets)
        else { return nil }
        return SeekPoint(
            packetIndex: warmUp, pts: packets[warmUp].pts, dts: packets[warmUp].dts, firstFrame: firstFrame(from: warmUp),
            strictFrom: firstFrame(from: group), groupPacketIndex: group, framePTS: framePTS)
    }

    /// The timestamp to ask the demuxer for (stream time base): the key packet's pts. The QuickTime
    /// demuxer indexes samples by a dts that may be shifted from the packets' (B-frames), Matroska's
    /// cues by pts; a key packet's pts lies between its own index entry and the next key packet's.
    public var seekTimestamp: Int64? { pts ?? dts }

    /// Names the frames decoded after a seek whose first packet was `first`: this key packet, or an
    /// earlier one (the frames are then named from there). Nil when it is neither, or the frames
    /// from it on are not the packets from it on.
    public func frameNames(landingOn first: PacketTiming, of packets: [PacketTiming]) -> FrameNames? {
        guard first.isKey, let k = packets.firstIndex(where: { $0.pts == first.pts && $0.dts == first.dts }),
            packets[k].isKey, k <= packetIndex, Self.framesAreThePackets(from: k, framePTS: framePTS, packets: packets)
        else { return nil }
        let start = k == packetIndex ? firstFrame : framePTS.count - packets[k...].filter { !$0.isDiscarded }.count
        return FrameNames(framePTS: framePTS, next: start, strictFrom: strictFrom)
    }

    /// Whether the last frames in output order, as many as there are shown packets from decode
    /// position `k` on, have those packets' pts (the same values, as often).
    static func framesAreThePackets(from k: Int, framePTS: [Int64], packets: [PacketTiming]) -> Bool {
        let shown = packets[k...].filter { !$0.isDiscarded }
        guard shown.count <= framePTS.count else { return false }
        var count: [Int64: Int] = [:]
        for pts in framePTS.suffix(shown.count) { count[pts, default: 0] += 1 }
        for packet in shown {
            guard let pts = packet.pts, let n = count[pts], n > 0 else { return false }
            count[pts] = n - 1
        }
        return true
    }

    /// The output index of each frame decoded after the seek, from its place in output order,
    /// checked against its pts.
    public struct FrameNames: Sendable {
        private let framePTS: [Int64]
        private var next: Int
        private let strictFrom: Int

        init(framePTS: [Int64], next: Int, strictFrom: Int) {
            self.framePTS = framePTS
            self.next = next
            self.strictFrom = strictFrom
        }

        /// The output index of the next decoded frame, whose pts is `pts`; nil when it is not the
        /// frame the timings expect there (the seek then cannot be trusted).
        public mutating func index(ofNextFramePTS pts: Int64?) -> Int? {
            guard let pts, next < framePTS.count else { return nil }
            var k = next
            // Before the chosen frames' group, pictures the decoder left out are skipped over.
            while k < strictFrom, framePTS[k] != pts { k += 1 }
            guard k < framePTS.count, framePTS[k] == pts else { return nil }
            next = k + 1
            return k
        }
    }
}
