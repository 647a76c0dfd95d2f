import MediaIO
import RecordingAnalysis
import SampleScene

extension AccuracyCase {
    /// The codec the case is written with here: HEVC only where this FFmpeg has an encoder for it.
    var videoCodec: VideoWriter.Codec { codec == "hevc" && VideoWriter.isAvailable(.hevc) ? .hevc : .h264 }

    /// Encodes the case as `make-sample-media --accuracy` does: a frame whenever the app's body runs.
    func encode(to path: String) throws {
        let s = scenario
        let writer = try VideoWriter(
            path: path,
            settings: VideoWriter.Settings(
                codec: videoCodec, width: width, height: height, timeBase: Rational(1, s.timeScale),
                frameRate: Rational(Int64(s.refreshRate), 1), bFrames: bFrames, quality: quality, threads: 0))
        let scene = s.makeScene()
        for n in stride(from: 0, to: ticks, by: bodyEvery) {
            try writer.append(
                RGBImage(width: width, height: height, pixels: pixels(n, scene: scene)),
                pts: Int64(n) * s.ticksPerRefresh, duration: Int64(bodyEvery) * s.ticksPerRefresh)
        }
        try writer.finish()
    }
}
