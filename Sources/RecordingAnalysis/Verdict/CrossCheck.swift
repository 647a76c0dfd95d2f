/// Pairs the flips the video shows with the flips each formula of the probe log predicts, and
/// says which build the capture came from.
public struct CrossCheck: Sendable {
    /// The answer.
    public enum Verdict: String, Sendable {
        /// The video shows what the legacy formula predicts, not what the clamped one does: the bug ran.
        case matchesOld = "matches-old"
        /// The video shows what the clamped formula predicts, not the legacy one: the fix ran.
        case matchesNew = "matches-new"
        /// Both formulas could explain the video: they predict the same (this log cannot tell them
        /// apart), or the video's facing is unknown where a predicted flip could be
        /// (`hiddenByUnknown`).
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

    /// A stretch of the video where the sprite's facing is unknown: a flip could be there unseen.
    public struct UnknownStretch: Sendable, Equatable {
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
        /// A predicted flip the video does not show, but could: its facing is unknown for long enough
        /// (where the clocks are aligned: at the predicted moment) to hide it.
        public var hidden: Bool = false
    }

    public let toleranceMS: Double
    public let predicted: [ProbeLog.Formula: [ProbeLog.PredictedFlip]]
    public let pairs: [Pair]
    public let matches: [ProbeLog.Formula: Bool]
    public let verdict: Verdict
    /// The verdict is `undetermined` because the video's unknown frames could hide a flip a formula
    /// predicts, not because the formulas predict the same: nothing that expects either build passes on it.
    public let hiddenByUnknown: Bool

    /// - Parameter unknown: where the video's facing is unknown; a predicted flip that could lie in
    ///   one of them is not counted as missing from the video.
    public init(
        video: [VideoFlip], unknown: [UnknownStretch] = [], log: ProbeLog, toleranceMS: Double, transientMS: Double = 500
    ) {
        self.toleranceMS = toleranceMS
        var predicted: [ProbeLog.Formula: [ProbeLog.PredictedFlip]] = [:]
        var pairs: [Pair] = []
        var matches: [ProbeLog.Formula: Bool] = [:]
        var possible: [ProbeLog.Formula: Bool] = [:]
        for formula in ProbeLog.Formula.allCases {
            let p = log.predictedFlips(formula, transientMS: transientMS)
            predicted[formula] = p
            pairs.reserveCapacity(pairs.count + max(video.count, p.count))
            var all = true, allOrHidden = true
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
                } else if v == nil, let l {
                    pair.hidden = unknown.contains { u in
                        guard u.durationMS + toleranceMS >= l.durationMS else { return false }
                        guard let offset else { return true }
                        let at = l.startSinceOrigin + offset, slack = toleranceMS / 1000
                        return at + l.durationMS / 1000 + slack >= u.startSeconds && at - slack <= u.startSeconds + u.durationMS / 1000
                    }
                }
                all = all && pair.agrees
                allOrHidden = allOrHidden && (pair.agrees || pair.hidden)
                pairs.append(pair)
            }
            matches[formula] = all
            possible[formula] = allOrHidden
        }
        self.predicted = predicted
        self.pairs = pairs
        self.matches = matches
        // A formula the video could fit once its unknown frames are counted as possibly hiding a
        // predicted flip; the verdict names the one formula that could, if only one can.
        let old = possible[.old] ?? false, new = possible[.new] ?? false
        switch (old, new) {
        case (true, true): verdict = .undetermined
        case (true, false): verdict = .matchesOld
        case (false, true): verdict = .matchesNew
        case (false, false): verdict = .inconsistent
        }
        hiddenByUnknown = verdict == .undetermined && !((matches[.old] ?? false) && (matches[.new] ?? false))
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
                + (p.hidden ? ", but the video's facing is unknown where it could be" : "")
        case (nil, nil):
            return "\(p.formula.rawValue): nothing to pair"
        }
    }
}
