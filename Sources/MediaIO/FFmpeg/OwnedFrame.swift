import CFFmpeg

/// An `AVFrame` owned by Swift: allocated in `init`, freed once in `deinit`.
final class OwnedFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(MediaError) {
        pointer = try allocated(av_frame_alloc(), "av_frame_alloc")
    }

    /// A new reference to `frame`'s buffers (`av_frame_clone`): it stays valid after the decoder
    /// moves on, and holds the decoder's picture rather than a copy of it.
    init(referencing frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        pointer = try allocated(av_frame_clone(frame), "av_frame_clone")
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }
}
