import MediaIO
import RecordingAnalysis

extension MirrorDetector {
    /// Feeds decoded frame `index` at `width` x `height`: the region the detector asks for, and the
    /// colour channel and the whole frame only when it needs them.
    mutating func feed(index: Int, frame: VideoFrame, width: Int, height: Int) throws {
        let gray = try frame.grayImage(width: width, height: height, region: regionForNextFrame)
        let axis = configuration.hueAxis
        try feed(
            index: index, image: gray,
            colourFrame: {
                ColourChannel.Views(
                    distance: try frame.colourChannelImage(width: width, height: height),
                    alongHue: try axis.map { try frame.colourChannelImage(width: width, height: height, along: $0) })
            },
            fullFrame: { try frame.grayImage(width: width, height: height) })
    }

    /// Feeds frame `index` from its whole gray image, converted earlier: the region the detector asks
    /// for cut from it as `rule` says the decoder would have filled it, so the detector reads what
    /// `feed(index:frame:width:height:)` gives it. `colour`: the frame's colour channel, if kept.
    mutating func feed(index: Int, whole: GrayImage, rule: GrayRegionRule, colour: GrayImage?) {
        feed(
            index: index, image: rule.restricting(whole, to: regionForNextFrame),
            colourFrame: { colour.map { ColourChannel.Views(distance: $0) } }, fullFrame: { whole })
    }
}
