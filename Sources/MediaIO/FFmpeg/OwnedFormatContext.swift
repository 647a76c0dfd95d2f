import CFFmpeg
import Foundation

/// An opened `AVFormatContext` owned by Swift: opened in `init`, closed once in `deinit`.
final class OwnedFormatContext {
    let pointer: UnsafeMutablePointer<AVFormatContext>

    /// Opens `url` with FFmpeg's `options` (such as protocol and format whitelists); `failure` turns
    /// `avformat_open_input`'s error code into the error thrown.
    init(opening url: String, options: [(String, String)], failure: (Int32) -> MediaError) throws(MediaError) {
        var context: UnsafeMutablePointer<AVFormatContext>? = try allocated(avformat_alloc_context(), "avformat_alloc_context")
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        // On failure avformat_open_input frees the context itself and sets it to nil.
        let result = avformat_open_input(&context, url, nil, &dictionary)
        av_dict_free(&dictionary)
        guard result >= 0, let context else { throw failure(result < 0 ? result : cff_error_from_errno(ENOMEM)) }
        pointer = context
    }

    deinit {
        var p: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&p)
    }
}
