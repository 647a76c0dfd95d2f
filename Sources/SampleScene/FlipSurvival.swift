/// Whether a flip's mirrored frames survived the encoding: the ground truth says a frame was drawn
/// mirrored, but a lossy encoder may have coded it as a blend with its neighbours (B-frame
/// bi-prediction) or as a copy of the frame before (a skipped block at a high crf). No detector can
/// read from the decoded pixels what the encoder threw away, so the accuracy benchmark reports each
/// miss with what was left of it.
public enum FlipSurvival {
    /// How the decoded pixels of a frame lie between the frame as drawn (`mirrored`) and the same
    /// frame with the sprite the other way round (`unmirrored`), over the pixels where those two
    /// differ: +1 decoded exactly as drawn, −1 exactly as if it had not been mirrored, 0 halfway.
    /// Nil when the two drawings do not differ (the sprite wholly hidden). All three are RGB bytes of
    /// the same size.
    public static func margin(decoded: [UInt8], mirrored: [UInt8], unmirrored: [UInt8]) -> Double? {
        precondition(decoded.count == mirrored.count && mirrored.count == unmirrored.count)
        var toMirrored = 0.0, toUnmirrored = 0.0, compared = 0
        for i in mirrored.indices where mirrored[i] != unmirrored[i] {
            compared += 1
            let d = Double(decoded[i])
            toMirrored += (d - Double(mirrored[i])) * (d - Double(mirrored[i]))
            toUnmirrored += (d - Double(unmirrored[i])) * (d - Double(unmirrored[i]))
        }
        guard compared > 0 else { return nil }
        return (toUnmirrored - toMirrored) / (toUnmirrored + toMirrored)
    }

    /// The weakest frame of a flip: the least of its frames' margins (nil ones left out), nil when
    /// no frame could be compared.
    public static func weakest(_ margins: [Double?]) -> Double? {
        margins.compactMap { $0 }.min()
    }
}
