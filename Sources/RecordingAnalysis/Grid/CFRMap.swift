/// The constant-frame-rate grid: which source frame each output slot shows.
///
/// `CFRMap.fpsFilter` reproduces FFmpeg 5.1's `fps` filter (libavfilter/vf_fps.c) with its default
/// options (`round=near`, `eof_action=round`, no `start_time`): every input pts is rescaled to
/// 1/R with round-half-away-from-zero; the grid starts at the first frame's slot; with two frames
/// buffered, the first is dropped when the second's slot is at or before the next output slot,
/// otherwise the first is output and the slot advances; at end of stream the last frame is output
/// until the end time (last pts + duration), rounded the same way.
///
/// Slot k of the map covers [(originSlot + k)/R, (originSlot + k + 1)/R) on the recording clock
/// (`RecordingClock`); `GridRule` says where that clock's 0 is.
public struct CFRMap: Sendable, Equatable {
    /// A source frame shown in consecutive slots.
    public struct Run: Sendable, Equatable {
        /// Decoder-output index of the source frame.
        public var source: Int
        /// First slot (0-based, relative to the grid start) showing it.
        public var firstSlot: Int64
        /// Number of slots showing it.
        public var count: Int64

        public init(source: Int, firstSlot: Int64, count: Int64) {
            self.source = source
            self.firstSlot = firstSlot
            self.count = count
        }
    }

    /// Output frame rate R.
    public let rate: Rational
    /// Absolute slot number (pts in 1/R) of slot 0: the first frame's rounded pts.
    public let originSlot: Int64
    /// Runs in slot order; each source frame appears in at most one run.
    public let runs: [Run]
    /// Source frames never shown in any slot, in decoder-output order.
    public let dropped: [Int]

    /// Refuses grids larger than this many slots (a day at 120 fps): timestamps that far apart are
    /// corrupt, and a map that large would only exhaust memory.
    public static let maximumSlots: Int64 = Limits.gridSlots

    /// Why a grid could not be built.
    public enum Failure: Error, Equatable, Sendable {
        /// No frame had a usable timestamp.
        case noTimestamps
        /// The timestamps span more slots than `maximumSlots`.
        case tooManySlots(Int64)
    }

    public init(rate: Rational, originSlot: Int64, runs: [Run], dropped: [Int]) {
        self.rate = rate
        self.originSlot = originSlot
        self.runs = runs
        self.dropped = dropped
    }

    /// Number of output frames.
    public var slotCount: Int64 { runs.last.map { $0.firstSlot + $0.count } ?? 0 }

    /// Slots that repeat the frame of the slot before them.
    public var duplicated: Int64 { runs.reduce(0) { $0 + $1.count - 1 } }

    /// The decoder-output index shown in slot `k`, nil outside the grid.
    public func source(atSlot k: Int64) -> Int? {
        guard k >= 0, k < slotCount else { return nil }
        var lo = 0, hi = runs.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if runs[mid].firstSlot <= k { lo = mid } else { hi = mid - 1 }
        }
        return runs[lo].source
    }

    /// The whole slot map, one entry per slot (`map[k]` = source index); use only for bounded output.
    public var slotMap: [Int] {
        var map: [Int] = []
        map.reserveCapacity(Int(min(slotCount, CFRMap.maximumSlots)))
        for run in runs { map.append(contentsOf: repeatElement(run.source, count: Int(run.count))) }
        return map
    }

    /// The start of slot `k` in seconds on the recording clock (`RecordingClock`), for display.
    public func seconds(ofSlot k: Int64) -> Double { Double(originSlot &+ k) * rate.inverse.doubleValue }

    /// The grid's length in seconds.
    public var duration: Double { Double(slotCount) * rate.inverse.doubleValue }

    /// The slot (relative to slot 0) that covers `time` on the recording clock: floor(time × R) − origin.
    public func slot(at time: TimeArgument) -> Int64 { time.slot(at: rate) &- originSlot }

    /// One input of the fps filter: a source frame's index and its timestamp (nil: none).
    public struct Input: Sendable, Equatable {
        public var source: Int
        public var pts: Int64?

        public init(source: Int, pts: Int64?) {
            self.source = source
            self.pts = pts
        }
    }

    /// Runs FFmpeg's `fps` filter over `inputs` (in the order they are fed) in `timeBase`, with the
    /// end of stream at `endPTS` (nil: the last frame's own pts, so it gets no slot of its own).
    public static func fpsFilter(_ inputs: [Input], timeBase: Rational, rate: Rational, endPTS: Int64?) throws(Failure) -> CFRMap {
        let outBase = rate.inverse
        func slot(_ pts: Int64?) -> Int64 {
            // A missing pts stays "minus infinity", as AV_ROUND_PASS_MINMAX passes AV_NOPTS_VALUE through.
            guard let pts else { return Int64.min }
            return rescale(pts, from: timeBase, to: outBase)
        }
        var buffer: [(source: Int, slot: Int64)] = []
        buffer.reserveCapacity(2)
        var next: Int64?
        var origin: Int64?
        var runs = SlotRuns()
        var dropped: [Int] = []
        var endOfStream = false
        var endSlot = Int64.min

        func shift() {
            let first = buffer.removeFirst()
            if !runs.hasShown(first.source) { dropped.append(first.source) }
        }

        // One step of the filter's write_frame(); returns after dropping or emitting once.
        func step() throws(Failure) {
            if next == nil {
                guard buffer[0].slot != Int64.min else {
                    shift()  // "Discarding initial frame(s) with no timestamp."
                    return
                }
                next = buffer[0].slot
                origin = buffer[0].slot
            }
            guard let n = next else { return }
            if (buffer.count == 2 && buffer[1].slot <= n) || (endOfStream && endSlot <= n) {
                shift()
            } else {
                // Emit the whole run of slots this frame keeps in one go, not slot by slot.
                var stop = n &+ 1
                if buffer.count == 2 { stop = max(stop, buffer[1].slot) }
                if endOfStream { stop = buffer.count == 2 ? min(stop, max(n &+ 1, endSlot)) : max(n &+ 1, endSlot) }
                let count = stop &- n
                try runs.emit(buffer[0].source, atSlot: n &- (origin ?? n), count: count)
                next = n + count
            }
        }

        for input in inputs {
            buffer.append((input.source, slot(input.pts)))
            while buffer.count == 2 { try step() }
        }
        endOfStream = true
        endSlot = endPTS.map { rescale($0, from: timeBase, to: outBase) } ?? (buffer.last?.slot ?? Int64.min)
        while !buffer.isEmpty { try step() }
        guard let originSlot = origin else { throw .noTimestamps }
        return CFRMap(rate: rate, originSlot: originSlot, runs: runs.runs, dropped: dropped)
    }
}
