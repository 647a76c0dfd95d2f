import CFFmpeg

/// An `AVFrame` owned by Swift: allocated in `init`, freed once in `deinit`.
final class OwnedFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(MediaError) {
        pointer = try allocated(av_frame_alloc(), "av_frame_alloc")
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }
}
