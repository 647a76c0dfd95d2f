import CFFmpeg

/// Versions of the FFmpeg libraries this binary runs against, for `--version`.
public enum LibraryVersions {
    public static var description: String {
        func v(_ n: UInt32) -> String { "\(n >> 16).\((n >> 8) & 0xff).\(n & 0xff)" }
        return
            "libavformat \(v(avformat_version())), libavcodec \(v(avcodec_version())), libswscale \(v(swscale_version())), libavutil \(v(avutil_version()))"
    }
}
