import Foundation
import RecordingAnalysis

/// Gray images of one size set aside while decoding, by frame index, in a temporary file nobody
/// else can see (unlinked from the start, so nothing is left behind however the tool ends), up to a
/// byte budget (a frame equal to the one before it takes no room): what a later pass over the same
/// frames reads instead of decoding them again. The memory stays flat (the pages belong to the file,
/// not to the process); the budget bounds the disk.
///
/// A cache: when the file cannot be made or written (no temporary directory, no space), it keeps
/// nothing more and its callers decode as they would without it.
public final class GrayImageSpill {
    public let width: Int
    public let height: Int
    /// How the frames' gray images fill a region (`GrayRegionRule`): the same for every image kept.
    public private(set) var rule: GrayRegionRule?
    private var file: OwnedDescriptor?
    private var offsets: [Int: Int64] = [:]
    private var end: Int64 = 0
    private let budget: Int64
    /// The image last written and where: a frame equal to it (a screen at rest) is not written again.
    private var lastWritten: (image: GrayImage, offset: Int64)?

    /// A spill for `width` x `height` images holding at most `budget` bytes, in `directory`.
    public init(width: Int, height: Int, budget: Int, directory: String = NSTemporaryDirectory()) {
        self.width = width
        self.height = height
        self.budget = Int64(max(0, budget))
        guard width > 0, height > 0, width * height <= budget else { return }
        file = GrayImageSpill.openUnlinked(in: directory)
    }

    /// Sets `image`, frame `index`'s whole gray image as `rule` fills regions of it, aside; a no-op
    /// once the budget is spent, after a failed write, or for an image of another size or rule.
    public func keep(_ image: GrayImage, index: Int, rule: GrayRegionRule) {
        guard let file, image.width == width, image.height == height, offsets[index] == nil else { return }
        guard self.rule == nil || self.rule == rule else { return }
        if let last = lastWritten, last.image.hasSamePixels(as: image) {
            offsets[index] = last.offset
            return
        }
        let size = Int64(width * height)
        guard end + size <= budget else {
            close()
            return
        }
        let written = image.pixels.withUnsafeBytes { GrayImageSpill.writeAll(file.fd, $0, at: end) }
        guard written else {
            close()
            return
        }
        self.rule = rule
        offsets[index] = end
        lastWritten = (image, end)
        end += size
    }

    /// Whether every frame in `indices` was set aside (and can still be read).
    public func holds(_ indices: Range<Int>) -> Bool {
        file != nil && indices.allSatisfy { offsets[$0] != nil }
    }

    /// Frame `index`'s image as set aside; nil when it was not, or cannot be read back.
    public func image(at index: Int) -> GrayImage? {
        guard let file, let offset = offsets[index] else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height)
        let read = pixels.withUnsafeMutableBytes { GrayImageSpill.readAll(file.fd, $0, at: offset) }
        return read ? GrayImage(width: width, height: height, pixels: pixels) : nil
    }

    /// Gives the file's space back; nothing more is kept or read.
    public func close() {
        file = nil
        offsets = [:]
        lastWritten = nil
    }

    private static func openUnlinked(in directory: String) -> OwnedDescriptor? {
        let dir = directory.isEmpty ? "/tmp" : directory
        var name =
            Array((dir.hasSuffix("/") ? dir : dir + "/").utf8CString.dropLast()) + Array("analyze-recording-spill-XXXXXX".utf8CString)
        let fd = name.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { return nil }
        let file = OwnedDescriptor(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        guard name.withUnsafeBufferPointer({ $0.baseAddress.map { unlink($0) } ?? -1 }) == 0 else { return nil }
        return file
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        guard let base = bytes.baseAddress else { return bytes.isEmpty }
        return transferAll(bytes.count) { done in pwrite(fd, base + done, bytes.count - done, off_t(offset) + off_t(done)) }
    }

    private static func readAll(_ fd: Int32, _ bytes: UnsafeMutableRawBufferPointer, at offset: Int64) -> Bool {
        guard let base = bytes.baseAddress else { return bytes.isEmpty }
        return transferAll(bytes.count) { done in pread(fd, base + done, bytes.count - done, off_t(offset) + off_t(done)) }
    }

    /// Repeats `transfer` (given the bytes done so far; a `pread` or `pwrite`) until `count` bytes
    /// are done; false on an error or end of file.
    private static func transferAll(_ count: Int, _ transfer: (Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let n = transfer(done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
}
