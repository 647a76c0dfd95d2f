/// Where a capture's frame timings came from.
public enum TimingSource: String, Sendable, Equatable {
    /// Every frame was decoded, in the decoder's output order.
    case decoder
    /// Packets were read and put in output order by their slice headers' picture order counts,
    /// without decoding (`timestamps`' fast path); the pixels were not checked.
    case sliceHeaders = "slice-headers"
}
