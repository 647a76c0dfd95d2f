import CFFmpeg

/// An `AVCodecContext` owned by Swift: allocated for `codec` in `init`, freed once in `deinit`
/// (which also closes it when it was opened).
final class OwnedCodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>

    init(_ codec: UnsafePointer<AVCodec>?) throws(MediaError) {
        pointer = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&p)
    }
}
