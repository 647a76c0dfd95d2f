import Foundation
import MediaIO
import RecordingAnalysis

/// Where a look-back (`MirrorDetector.lookBack`) gets the first frames of a capture again: from the
/// whole gray images the first pass set aside (`GrayImageSpill`) when it holds all of them and the
/// reading needs nothing else (no colour), else by decoding the recording again. Both give the
/// detector the same images, so what it reads is the same either way.
struct LookBackSource {
    /// How one reading got its frames.
    enum Read: Equatable {
        case setAside(frames: Int)
        case decoded(frames: Int)
    }

    let recording: String
    let width: Int
    let height: Int
    let fullDecode: Bool
    let spill: GrayImageSpill?
    private(set) var reads: [Read] = []

    init(recording: String, width: Int, height: Int, fullDecode: Bool, spill: GrayImageSpill?) {
        self.recording = recording
        self.width = width
        self.height = height
        self.fullDecode = fullDecode
        self.spill = spill
    }

    /// `detector` fed the first `frames` decoded frames, repeats included (`repeats`: which frames
    /// repeat the picture before them, so that a set-aside picture stands for its repeats too).
    mutating func readAgain(frames: Int, with detector: MirrorDetector, repeats: RepeatedFrames) throws -> MirrorDetector {
        if detector.configuration.templateColour == nil, let read = setAside(frames: frames, with: detector, repeats: repeats) {
            reads.append(.setAside(frames: frames))
            return read
        }
        reads.append(.decoded(frames: frames))
        return try decoded(frames: frames, with: detector)
    }

    private func setAside(frames: Int, with detector: MirrorDetector, repeats: RepeatedFrames) -> MirrorDetector? {
        guard frames <= repeats.frameCount, let spill, let rule = spill.rule else { return nil }
        let pictures = frames == 0 ? 0 : repeats.picture(ofFrame: frames - 1) + 1
        guard spill.holds(0..<pictures) else { return nil }
        var detector = detector
        for index in 0..<frames {
            guard let whole = spill.image(at: repeats.picture(ofFrame: index)) else { return nil }
            detector.feed(index: index, whole: whole, rule: rule, colour: nil)
        }
        return detector
    }

    private func decoded(frames: Int, with detector: MirrorDetector) throws -> MirrorDetector {
        var detector = detector
        let reader = try RecordingReader(path: recording, options: DecodeOptions(skipLoopFilter: !fullDecode))
        var index = 0
        try reader.decode { frame in
            guard index < frames else { throw StopDecoding() }
            try detector.feed(index: index, frame: frame, width: width, height: height)
            index += 1
        }
        return detector
    }
}
