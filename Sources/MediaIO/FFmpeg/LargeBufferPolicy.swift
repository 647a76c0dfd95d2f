import CFFmpeg

/// How the process allocates frame-sized buffers.
public enum LargeBufferPolicy {
    /// From this size on, buffers are mapped and unmapped one by one.
    public static let mappedFrom = 1 << 20

    /// Makes every buffer of `mappedFrom` bytes or more (a full-size RGB frame for evidence, 9.5 MB
    /// at 1206x2622; libswscale's and libavcodec's buffers) a mapping of its own, returned to the
    /// system when freed. glibc's default threshold adapts upwards after the first such buffer is
    /// freed and then serves the next ones from the heap, whose high-water mark stays resident:
    /// `analyze --evidence` peaked at 157 MB that way on a 20 s 1206x2622 capture, 119 MB with this.
    /// Call once, before the first decode; a no-op where the C library has no such setting.
    public static func apply() {
        cff_map_allocations_from(Int32(mappedFrom))
    }

    /// Returns the heap's free pages to the system: between passes, so that what one pass freed does
    /// not stay resident under the next one's peak. A no-op where the C library cannot.
    public static func returnFreedMemory() {
        cff_return_free_heap()
    }
}
