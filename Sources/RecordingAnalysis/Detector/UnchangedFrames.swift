/// A change of facing where the pixels did not change. Where a frame shows, at the place its sprite
/// was read, the same pixels as the frame before it, the two cannot face different ways: whichever
/// reading is wrong, the video shows no turn there. Both frames are then `unknown`
/// (`UnknownReason.ambiguous`), so no flip or turn is reported on them and no check passes on them.
///
/// Seen on a real toolkit's demo (a peg-solitaire board, a peg dragged over a hole): auto mode took
/// the board's cells swapping places for a sprite turning, cut its appearance from the frame before
/// that change, and read that one frame unmirrored and every other, the seven identical ones before
/// it included, mirrored: a one-frame "flip" no pixel showed.
public enum UnchangedFrames {
    /// The most a frame may differ from the one before it, as the mean absolute difference of their
    /// gray levels over the sprite's box at the working resolution, and still count as unchanged. A
    /// box average of several recording pixels leaves compression flicker on a still screen far below
    /// one level; a sprite turning changes its box by several.
    public static let meanDifference: Double = 1

    /// Whether `image` equals `previous` (the frame before) over `rect`, to within `meanDifference`.
    /// False when `rect` lies outside either image or the sizes differ.
    public static func isUnchanged(_ image: GrayImage, from previous: GrayImage, in rect: PixelRect) -> Bool {
        guard image.width == previous.width, image.height == previous.height,
            let box = rect.clipped(width: image.width, height: image.height), box.width > 0, box.height > 0
        else { return false }
        var sum = 0
        image.pixels.withUnsafeBufferPointer { a in
            previous.pixels.withUnsafeBufferPointer { b in
                guard let pa = a.baseAddress, let pb = b.baseAddress else { return }
                for y in box.y..<box.maxY {
                    sum += AbsoluteDifference.sum(pa + y * image.width + box.x, pb + y * image.width + box.x, count: box.width)
                }
            }
        }
        return Double(sum) < meanDifference * Double(box.width * box.height)
    }

    /// `orientations` (consecutive decoder-output indices) with both frames of every change of
    /// facing across an unchanged frame made unknown.
    public static func marked(_ orientations: [FrameOrientation]) -> [FrameOrientation] {
        var result = orientations
        for i in orientations.indices.dropFirst() {
            let before = orientations[i - 1], frame = orientations[i]
            guard frame.unchangedFromPrevious, before.index == frame.index - 1, frame.facing != .unknown,
                before.facing != .unknown, frame.facing != before.facing
            else { continue }
            for k in [i - 1, i] {
                result[k].facing = .unknown
                result[k].reason = .ambiguous
            }
        }
        return result
    }
}
