/// Pairs the flips the video shows with the flips each formula of the probe log predicts, and
/// says which build the capture came from.
public struct CrossCheck: Sendable {
    /// The answer.
    public enum Verdict: String, Sendable {
        /// The video shows what the legacy formula predicts, not what the clamped one does: the bug ran.
        case matchesOld = "matches-old"
        /// The video shows what the clamped formula predicts, not the legacy one: the fix ran.
        case matchesNew = "matches-new"
        /// Both formulas predict the same, so this log cannot tell them apart.
        case undetermined
        /// Neither prediction matches the video.
        case inconsistent
    }

    /// A flip seen in the video: start on the recording clock and duration.
    public struct VideoFlip: Sendable, Equatable {
        public var startSeconds: Double
        public var durationMS: Double
        public init(startSeconds: Double, durationMS: Double) {
            self.startSeconds = startSeconds
            self.durationMS = durationMS
        }
    }

    /// One video flip paired with one predicted flip (either may be missing).
    public struct Pair: Sendable, Equatable {
        public var formula: ProbeLog.Formula
        public var video: VideoFlip?
        public var log: ProbeLog.PredictedFlip?
        /// |video − log| duration, when both exist.
        public var differenceMS: Double?
        /// For pairs after the first: the onset difference after aligning the clocks at the first pair.
        public var onsetDifferenceMS: Double?
        public var agrees: Bool
    }

    public let toleranceMS: Double
    public let predicted: [ProbeLog.Formula: [ProbeLog.PredictedFlip]]
    public let pairs: [Pair]
    public let matches: [ProbeLog.Formula: Bool]
    public let verdict: Verdict

    public init(video: [VideoFlip], log: ProbeLog, toleranceMS: Double, transientMS: Double = 500) {
        self.toleranceMS = toleranceMS
        var predicted: [ProbeLog.Formula: [ProbeLog.PredictedFlip]] = [:]
        var pairs: [Pair] = []
        var matches: [ProbeLog.Formula: Bool] = [:]
        for formula in ProbeLog.Formula.allCases {
            let p = log.predictedFlips(formula, transientMS: transientMS)
            predicted[formula] = p
            pairs.reserveCapacity(pairs.count + max(video.count, p.count))
            var all = true
            // Align the log's wall clock to the recording clock at the first pair.
            let offset: Double? = (video.first).flatMap { v in p.first.map { v.startSeconds - $0.startSinceOrigin } }
            for i in 0..<max(video.count, p.count) {
                let v = i < video.count ? video[i] : nil
                let l = i < p.count ? p[i] : nil
                var pair = Pair(formula: formula, video: v, log: l, differenceMS: nil, onsetDifferenceMS: nil, agrees: false)
                if let v, let l {
                    let d = abs(v.durationMS - l.durationMS)
                    pair.differenceMS = d
                    var ok = d <= toleranceMS
                    if i > 0, let offset {
                        let onset = abs(v.startSeconds - (l.startSinceOrigin + offset)) * 1000
                        pair.onsetDifferenceMS = onset
                        ok = ok && onset <= toleranceMS
                    }
                    pair.agrees = ok
                }
                all = all && pair.agrees
                pairs.append(pair)
            }
            matches[formula] = all
        }
        self.predicted = predicted
        self.pairs = pairs
        self.matches = matches
        let old = matches[.old] ?? false, new = matches[.new] ?? false
        switch (old, new) {
        case (true, true): verdict = .undetermined
        case (true, false): verdict = .matchesOld
        case (false, true): verdict = .matchesNew
        case (false, false): verdict = .inconsistent
        }
    }

    /// The pairs that disagree, in words: `old: video 66.7 ms vs log 250.1 ms (differs by 183.4 ms)`.
    public var disagreements: [String] { disagreements(limit: Int.max) }

    /// The positions in `pairs` of the pairs that disagree.
    public var disagreeingPairs: [Int] { pairs.indices.filter { !pairs[$0].agrees } }

    /// The first `limit` disagreements, made only as far as needed (a log of a million flips).
    public func disagreements(limit: Int) -> [String] {
        Array(pairs.lazy.filter { !$0.agrees }.prefix(limit).map(disagreement))
    }

    /// Why `p` disagrees, in words.
    public func disagreement(_ p: Pair) -> String {
        switch (p.video, p.log) {
        case let (v?, l?):
            var s = "\(p.formula.rawValue): video \(Format.milliseconds(v.durationMS)) vs log \(Format.milliseconds(l.durationMS))"
            if let d = p.differenceMS, d > toleranceMS { s += " (differs by \(Format.milliseconds(d)))" }
            if let o = p.onsetDifferenceMS, o > toleranceMS { s += " (onset off by \(Format.milliseconds(o)))" }
            return s
        case let (v?, nil):
            return
                "\(p.formula.rawValue): the video flips at \(Format.seconds(v.startSeconds)) for \(Format.milliseconds(v.durationMS)); the log predicts no such flip"
        case let (nil, l?):
            return "\(p.formula.rawValue): the log predicts a \(Format.milliseconds(l.durationMS)) flip that the video does not show"
        case (nil, nil):
            return "\(p.formula.rawValue): nothing to pair"
        }
    }
}
