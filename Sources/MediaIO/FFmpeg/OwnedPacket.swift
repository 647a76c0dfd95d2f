import CFFmpeg

/// An `AVPacket` owned by Swift: allocated in `init`, freed once in `deinit`.
final class OwnedPacket {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(MediaError) {
        pointer = try allocated(av_packet_alloc(), "av_packet_alloc")
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }
}
