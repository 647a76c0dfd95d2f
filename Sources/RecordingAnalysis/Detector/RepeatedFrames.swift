/// Which decoded frames repeat the picture of the frame before them, and the pictures the detector
/// reads instead of frames.
///
/// A recorder that writes at a fixed rate repeats its last picture while nothing on screen changes
/// (a variable-rate capture converted to a constant rate, a browser's or phone's recorder at 60 or
/// even 1000 frames a second). A repeat shows nothing new: the detector is fed each picture once,
/// so that its reading of a capture does not depend on how often the recorder repeated itself (its
/// counts of frames — a probation, a search's back-off — are of pictures), and every repeat then
/// takes the reading of the picture it repeats (`expanded`). Read once, a screen that stood still
/// for 9,800 repeats of a board of near-symmetric cells costs one reading, not 9,800 whole-frame
/// searches.
public struct RepeatedFrames: Sendable, Equatable {
    /// For each distinct picture, in order, the decoder-output index of its first frame.
    public private(set) var firstFrames: [Int] = []
    /// Frames recorded so far.
    public private(set) var frameCount = 0

    public init() {}

    /// Records the next decoded frame; returns the number of the picture the detector reads it as
    /// when it shows a new one, nil when it repeats the one before (never the first frame).
    public mutating func record(repeatsPrevious: Bool) -> Int? {
        defer { frameCount += 1 }
        if repeatsPrevious, !firstFrames.isEmpty { return nil }
        firstFrames.append(frameCount)
        return firstFrames.count - 1
    }

    /// Distinct pictures recorded so far.
    public var pictureCount: Int { firstFrames.count }

    /// Frames that repeated the picture before them.
    public var repeatCount: Int { frameCount - firstFrames.count }

    /// The picture decoded frame `index` shows (a repeat: the picture it repeats).
    public func picture(ofFrame index: Int) -> Int {
        var low = 0, high = firstFrames.count
        while low < high {
            let mid = (low + high) / 2
            if firstFrames[mid] <= index { low = mid + 1 } else { high = mid }
        }
        return max(0, low - 1)
    }

    /// The decoded frame where picture `picture` was first shown.
    public func firstFrame(ofPicture picture: Int) -> Int { firstFrames[picture] }

    /// Readings of recorded frames (indexed by decoded frame) as readings of pictures: each picture
    /// takes the reading of its first frame, with the picture's number as index.
    public func readingsOfPictures(_ readings: [FrameOrientation]) -> [FrameOrientation] {
        guard repeatCount > 0 else { return readings }
        return readings.compactMap { reading in
            guard reading.index >= 0, reading.index < frameCount else { return nil }
            let picture = picture(ofFrame: reading.index)
            guard firstFrames[picture] == reading.index else { return nil }
            var asPicture = reading
            asPicture.index = picture
            return asPicture
        }
    }

    /// Readings of pictures (indexed by picture number) as readings of every recorded frame: a
    /// repeat takes the reading of the picture it repeats, with its own index, and is unchanged
    /// from the frame before it wherever the sprite was found.
    public func expanded(_ readings: [FrameOrientation]) -> [FrameOrientation] {
        guard repeatCount > 0 else { return readings }
        var result: [FrameOrientation] = []
        result.reserveCapacity(frameCount)
        for (picture, first) in firstFrames.enumerated() where picture < readings.count {
            let end = picture + 1 < firstFrames.count ? firstFrames[picture + 1] : frameCount
            for index in first..<end {
                var reading = readings[picture]
                reading.index = index
                if index > first { reading.unchangedFromPrevious = reading.position != nil }
                result.append(reading)
            }
        }
        return result
    }
}
