import Foundation
import RecordingAnalysis

/// Decodes a recording ahead of need on a thread of its own, while the analysis pass still runs:
/// told the first frame that will be wanted (`start(before:)`), it decodes from the key packet
/// `SeekPoint` chooses up to that frame and waits there with its decoder warm; `frames` then
/// decodes on from there only. `--evidence` needs the frames around a flip with the deblocking
/// filter the analysis skips; without this, they are decoded again from a key packet once the
/// pass is over, after it instead of beside it.
///
/// Only a head start: the frames come out exactly as a decode from the first packet gives them
/// (named by place and pts as `FrameExtraction` names frames after a seek), or `frames` returns nil
/// and the caller decodes them as before. The timings it plans with are read from the slice
/// headers (H.264, HEVC); a recording without them is not prefetched.
public final class FramePrefetch: @unchecked Sendable {
    private let path: String
    private let condition = NSCondition()
    /// The first frame that may be asked for, once `start` was called.
    private var firstWanted: Int?
    private var request: (sources: Set<Int>, make: (Int, VideoFrame) throws -> Any)?
    private var cancelled = false
    private var finished = false
    private var timings: TimingScan?
    private var results: [Int: Any]?

    /// The most resident memory the process may reach with a prefetch decoding beside the pass
    /// (issue 14's target is 150 MB; the pass itself still grows a little after the prefetch
    /// starts). A prefetch that would pass it does not start, or stops, and the frames are decoded
    /// after the pass as without it.
    public static let residentBudget = 144 << 20
    /// Pictures a paused decoder of one thread holds, at least: its references and the pool's
    /// spares (measured at 1206x2622: H.264 about four, HEVC about nine).
    static let heldPictures = 6

    private let budget: Int

    /// - Parameter residentBudget: see `FramePrefetch.residentBudget`.
    public init(path: String, residentBudget: Int = FramePrefetch.residentBudget) {
        self.path = path
        budget = residentBudget
    }

    /// Starts decoding toward frame `index` (a decoder output index): every later request must
    /// start there or after. Only the first call counts.
    public func start(before index: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard firstWanted == nil, !cancelled else { return }
        firstWanted = max(0, index)
        let thread = Thread { [self] in run(firstWanted: max(0, index)) }
        thread.name = "prefetch"
        thread.start()
    }

    /// What `make` derives from each frame in `sources`, decoded by the prefetch; nil when it was
    /// never started, started after the first of them, or its decode is not the recording's as
    /// `timings` (the analysis pass's, over the same file) knows it, or anything failed (`make`
    /// included: the caller's own decode meets the same failure and reports it). Waits for the
    /// decoding.
    public func frames<T>(_ sources: Set<Int>, timings expected: TimingScan, make: @escaping (Int, VideoFrame) throws -> T)
        -> [Int: T]?
    {
        condition.lock()
        defer { condition.unlock() }
        guard let first = firstWanted, let earliest = sources.min(), earliest >= first, !cancelled,
            expected.integrity.isIntact
        else {
            stopLocked()
            return nil
        }
        request = (sources, { index, frame in try make(index, frame) as Any })
        condition.broadcast()
        while !finished { condition.wait() }
        guard let timings, timings.frames.map(\.pts) == expected.frames.map(\.pts), timings.packets == expected.packets,
            let results, results.count == sources.count
        else { return nil }
        return results.compactMapValues { $0 as? T }
    }

    /// Stops the decoding (if any) and waits for its thread to end.
    public func cancel() {
        condition.lock()
        defer { condition.unlock() }
        stopLocked()
    }

    private func stopLocked() {
        cancelled = true
        condition.broadcast()
        while firstWanted != nil && !finished { condition.wait() }
    }

    private func run(firstWanted: Int) {
        var decoded: [Int: Any]?
        var planned: TimingScan?
        if let (outcome, errors) = try? FFmpegLog.shared.separately({ try decode(firstWanted: firstWanted, timings: &planned) }) {
            // A decode that logged errors may have concealed damage its own way.
            decoded = errors == 0 ? outcome : nil
        }
        condition.lock()
        results = decoded
        timings = planned
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits, before frame `index`, for a request (nil: cancelled).
    private func awaitRequest() -> (sources: Set<Int>, make: (Int, VideoFrame) throws -> Any)? {
        condition.lock()
        defer { condition.unlock() }
        while request == nil && !cancelled { condition.wait() }
        return cancelled ? nil : request
    }

    /// Whether the process's resident memory, grown by `bytes`, stays within the budget.
    private func fitsInMemory(adding bytes: Int) -> Bool {
        guard let resident = ResidentMemory.bytes else { return false }
        return resident + bytes <= budget
    }

    private var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Decodes to `firstWanted`, waits for the request, and decodes its frames; nil when the
    /// frames cannot be named or the request never came.
    private func decode(firstWanted: Int, timings planned: inout TimingScan?) throws -> [Int: Any]? {
        guard let scan = try TimingScan.fromSliceHeaders(path: path), scan.frames.indices.contains(firstWanted), !isCancelled else {
            return nil
        }
        planned = scan
        let reader = try RecordingReader(path: path, options: DecodeOptions(threads: 1))
        guard let picture = reader.pictureBytes, fitsInMemory(adding: Self.heldPictures * picture) else { return nil }
        // nil: from the first packet, where frames are named by their count.
        let point = SeekPoint.plan(packets: scan.packets, frames: scan.frames, needed: [firstWanted])
        if let point, !reader.seek(to: point) { return nil }
        var naming = FrameNaming(after: point, packets: scan.packets)
        var trusted = true
        var wanted: (sources: Set<Int>, make: (Int, VideoFrame) throws -> Any)?
        var results: [Int: Any] = [:]
        try reader.decode(
            onPacket: { packet in
                if !naming.accepts(packet) {
                    trusted = false
                    throw StopDecoding()
                }
            },
            skipsUnreferenced: { naming.skips($0) },
            onFrame: { frame in
                if wanted == nil, isCancelled || !fitsInMemory(adding: 0) {
                    trusted = false
                    throw StopDecoding()
                }
                guard let index = naming.index(ofNextFramePTS: frame.pts) else {
                    trusted = false
                    throw StopDecoding()
                }
                guard index >= firstWanted else { return }
                if wanted == nil {
                    guard let request = awaitRequest() else {
                        trusted = false
                        throw StopDecoding()
                    }
                    wanted = request
                }
                guard let wanted else { return }
                if wanted.sources.contains(index) { results[index] = try wanted.make(index, frame) }
                if results.count == wanted.sources.count || index >= (wanted.sources.max() ?? 0) { throw StopDecoding() }
            })
        return trusted ? results : nil
    }
}
