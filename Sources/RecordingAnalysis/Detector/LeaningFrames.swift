/// Frames read one way whose evidence leans sharply toward the other orientation, compared with
/// both neighbours read the same way: what a one-frame flip looks like after heavy compression
/// blended it with the frames around it (a B-frame at crf 33 kept a dim drop's mirrored frame
/// scoring 0.83 unmirrored against 0.70 mirrored, where its neighbours scored 0.88 against 0.60).
/// Read as the facing of its neighbours, such a frame would pass a capture whose flip is in it;
/// it is `unknown` (`UnknownReason.ambiguous`) instead, so nothing is decided on it.
public enum LeaningFrames {
    /// A frame leans when its margin (chosen score minus the other's) is below this fraction of the
    /// smaller margin of its two neighbours …
    public static let marginFraction: Float = 0.5
    /// … its other orientation's score rose above both neighbours' by more than this …
    public static let otherRise: Float = 0.05
    /// … and its chosen orientation's score fell below both neighbours' by more than this: a blend
    /// loses on one side what it gains on the other. (Auto mode's appearance, cut with its
    /// surroundings, scores its mirror image anywhere from 0.0 to 0.75 from frame to frame while the
    /// chosen score holds at 0.98: that alone is no lean.)
    public static let chosenDrop: Float = 0.03

    /// `orientations` (consecutive decoder-output indices) with every leaning frame made unknown.
    public static func marked(_ orientations: [FrameOrientation]) -> [FrameOrientation] {
        var result = orientations
        for i in orientations.indices.dropFirst().dropLast()
        where leans(orientations[i], between: orientations[i - 1], and: orientations[i + 1]) {
            var o = orientations[i]
            o.facing = .unknown
            o.reason = .ambiguous
            result[i] = o
        }
        return result
    }

    private static func leans(_ frame: FrameOrientation, between before: FrameOrientation, and after: FrameOrientation) -> Bool {
        guard frame.facing != .unknown, before.facing == frame.facing, after.facing == frame.facing,
            before.index == frame.index - 1, after.index == frame.index + 1,
            frame.measured, before.measured, after.measured,
            let (chosen, other) = scores(frame), let (chosenBefore, otherBefore) = scores(before),
            let (chosenAfter, otherAfter) = scores(after)
        else { return false }
        let margin = chosen - other
        return margin < marginFraction * min(chosenBefore - otherBefore, chosenAfter - otherAfter)
            && other - max(otherBefore, otherAfter) > otherRise && min(chosenBefore, chosenAfter) - chosen > chosenDrop
    }

    /// The chosen orientation's score and the other's.
    private static func scores(_ o: FrameOrientation) -> (chosen: Float, other: Float)? {
        guard let canonical = o.canonicalScore, let mirrored = o.mirroredScore else { return nil }
        return o.facing == .canonical ? (canonical, mirrored) : (mirrored, canonical)
    }
}
