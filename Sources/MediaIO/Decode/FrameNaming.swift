import RecordingAnalysis

/// Names the frames a decode gives by their decoder output index: counted from the first packet,
/// or, after a seek to a `SeekPoint`, by their place and pts (`SeekPoint.FrameNames`), with the
/// pictures no other one refers to left undecoded before the chosen frames' group. A frame that
/// cannot be named with certainty gets no name, and the decode is then not to be trusted.
struct FrameNaming {
    private let point: SeekPoint?
    private let packets: [PacketTiming]
    private let group: PacketTiming?
    private var names: SeekPoint.FrameNames?
    private var checkedFirst = false
    private var inGroup: Bool
    private var counted = 0

    /// - Parameters:
    ///   - point: where the reader was seeked to; nil when it decodes from the first packet.
    ///   - packets: the recording's packets in decode order.
    init(after point: SeekPoint?, packets: [PacketTiming]) {
        self.point = point
        self.packets = packets
        group = point.map { packets[$0.groupPacketIndex] }
        inGroup = point == nil
    }

    /// Checks the packet the demuxer delivered; false when the first one after the seek is not a
    /// key packet the frames can be named from.
    mutating func accepts(_ packet: PacketTiming) -> Bool {
        guard let point, !checkedFirst else { return true }
        checkedFirst = true
        names = point.frameNames(landingOn: packet, of: packets)
        return names != nil
    }

    /// Whether `packet` may be left undecoded: before the chosen frames' group, a picture no other
    /// one refers to is shown before them.
    mutating func skips(_ packet: PacketTiming) -> Bool {
        if let group, packet.isKey && packet.pts == group.pts && packet.dts == group.dts { inGroup = true }
        return !inGroup
    }

    /// The output index of the next decoded frame, whose pts is `pts`; nil when it is not the
    /// frame the timings expect there.
    mutating func index(ofNextFramePTS pts: Int64?) -> Int? {
        guard point != nil else {
            defer { counted += 1 }
            return counted
        }
        return names?.index(ofNextFramePTS: pts)
    }
}
