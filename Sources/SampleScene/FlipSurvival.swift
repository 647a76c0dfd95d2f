/// Whether a flip's mirrored frames survived the encoding: the ground truth says a frame was drawn
/// mirrored, but a lossy encoder may have coded it as a blend with its neighbours (B-frame
/// bi-prediction) or as a copy of the frame before (a skipped block at a high crf). No detector can
/// read from the decoded pixels what the encoder threw away, so the accuracy benchmark reports each
/// miss with what was left of it: of the flip's frames, and of the frame on either side (without a
/// legible frame on each side, a flip's extent cannot be told, and the detector leaves it undecided).
public enum FlipSurvival {
    /// How the decoded pixels of a frame lie between the frame as drawn and the same frame with
    /// the sprite the other way round (`otherWay`), over the pixels where those two differ: +1
    /// decoded exactly as drawn, −1 exactly as the other facing, 0 halfway. Nil when the two
    /// drawings do not differ (the sprite wholly hidden). All three are RGB bytes of the same size.
    public static func margin(decoded: [UInt8], drawn: [UInt8], otherWay: [UInt8]) -> Double? {
        precondition(decoded.count == drawn.count && drawn.count == otherWay.count)
        var toDrawn = 0.0, toOther = 0.0, compared = 0
        for i in drawn.indices where drawn[i] != otherWay[i] {
            compared += 1
            let d = Double(decoded[i])
            toDrawn += (d - Double(drawn[i])) * (d - Double(drawn[i]))
            toOther += (d - Double(otherWay[i])) * (d - Double(otherWay[i]))
        }
        guard compared > 0 else { return nil }
        return (toOther - toDrawn) / (toOther + toDrawn)
    }

    /// The weakest frame of a flip: the least of its frames' margins (nil ones left out), nil when
    /// no frame could be compared.
    public static func weakest(_ margins: [Double?]) -> Double? {
        margins.compactMap { $0 }.min()
    }
}
