/// A parsed FlipProbe log: what the app said about its two clocks and both walk formulas.
///
/// The probe lines may come wrapped in any style `LogRecord` reads (plain, Xcode console, `log
/// show`/`log stream` default, compact, syslog, json, ndjson); the first probe line fixes the process
/// and `subsystem:category` that wrote it, and lines from any other are ignored and counted.
///
/// Grammar of the probe lines themselves (anything before `skew=` is ignored):
/// - evaluation: `… skew=S  elapsed=E | old=P →R | new=P ←L` (arrows `→R` `←L` `->R` `<-L`)
/// - arming: `armed  walkOrigin=X` (seconds since 2001-01-01 UTC)
/// - baseline: `base #NN skew(t-now)=S` per sample, or `base #01..#15  skew(t-now) = A … B`
/// Every other line is ignored and counted. A line that looks like a probe line but does not parse
/// is reported with its line number and skipped.
public struct ProbeLog: Sendable {
    /// Which way a formula made the sprite face.
    public enum Arrow: String, Sendable {
        case right = "R"
        case left = "L"
    }

    /// One body evaluation after arming.
    public struct Evaluation: Sendable, Equatable {
        public var line: Int
        /// `t - now`: how far the timeline date lags (negative) the wall clock.
        public var skew: Double
        /// `t - walkOrigin`.
        public var elapsed: Double
        public var oldPhase: Double
        public var oldFacing: Arrow
        public var newPhase: Double
        public var newFacing: Arrow
        /// When the log recorded the line, seconds since 2001 (from the log's own timestamps).
        public var loggedAt: Double?

        /// The wall time it ran, relative to `walkOrigin`: `now - walkOrigin = elapsed - skew`.
        public var nowSinceOrigin: Double { elapsed - skew }

        public func facing(_ formula: Formula) -> Arrow { formula == .old ? oldFacing : newFacing }
    }

    /// The two formulas the probe prints.
    public enum Formula: String, Sendable, CaseIterable { case old, new }

    /// A line that looked like a probe line but could not be read.
    public struct Problem: Sendable, Equatable {
        public var line: Int
        public var reason: String
    }

    /// The baseline skews printed before arming.
    public struct Baseline: Sendable, Equatable {
        /// Number of samples.
        public var count: Int
        /// How many were negative (the timeline lagging the wall clock). From a summary line that
        /// does not say (`← all 15 frames negative`, `← 13 of 15 frames negative`) and whose range
        /// spans zero, a lower bound: see `negativeIsLowerBound`.
        public var negative: Int
        /// `negative` is only known to be at least that many.
        public var negativeIsLowerBound = false
        /// The smallest and largest magnitude seen (closest to zero first), in seconds.
        public var closestToZero: Double?
        public var farthestFromZero: Double?
    }

    public var evaluations: [Evaluation] = []
    public var walkOrigin: Double?
    public var baseline = Baseline(count: 0, negative: 0)
    public var problems: [Problem] = []
    /// Lines that are not probe output.
    public var ignoredLines = 0
    /// The style the probe lines came in.
    public var style: LogRecord.Style = .plain
    /// The process and `subsystem:category` of the first probe line, when the style names them.
    public var probeProcess: String?
    public var probeSource: String?
    /// Lines from other processes or categories, ignored.
    public var otherSourceLines = 0

    /// Refuses magnitudes no real probe prints (a skew of an hour, a phase outside 0...1).
    static let maximumSkew = 3600.0
    static let maximumElapsed = 1e7

    /// The lines of `text` (split at LF, CRLF or CR), one at a time: a log of millions of empty lines
    /// must not become millions of substrings in memory at once.
    static func lines(of text: String) -> UnfoldSequence<Substring, String.Index> {
        let utf8 = text.utf8
        var done = false
        return sequence(state: text.startIndex) { start in
            guard !done else { return nil }
            var i = start
            while i < utf8.endIndex {
                let byte = utf8[i]
                if byte == 10 || byte == 13 {
                    let line = text[start..<i]
                    var next = utf8.index(after: i)
                    if byte == 13, next < utf8.endIndex, utf8[next] == 10 { next = utf8.index(after: next) }
                    start = next
                    return line
                }
                i = utf8.index(after: i)
            }
            done = true
            return text[start..<utf8.endIndex]
        }
    }

    /// Problems kept in full; beyond this they are only counted in `ignoredLines`.
    public static let maximumProblems = 1000

    /// Parses log text in any style; bytes that are not UTF-8 are replaced, never trusted.
    public init(text: String) {
        var baselineValues: [Double] = []
        var summary: (count: Int, a: Double, b: Double, negative: Int?)?
        var styles: [LogRecord.Style: Int] = [:]
        var origin: (process: String?, source: String?)?
        func consume(_ record: LogRecord, style: LogRecord.Style) {
            let line = record.message
            let lineNumber = record.line
            let isProbe =
                line.contains("skew=") || line.contains("elapsed=") || line.contains("walkOrigin=")
                || (line.contains("base") && line.contains("skew(t-now)"))
            guard isProbe else {
                if !line.allSatisfy({ $0 == " " || $0 == "\t" }) { ignoredLines += 1 }
                return
            }
            if let o = origin {
                if let p = record.process, let q = o.process, p != q {
                    otherSourceLines += 1
                    return
                }
                if let p = record.source, let q = o.source, p != q {
                    otherSourceLines += 1
                    return
                }
            } else {
                origin = (record.process, record.source)
                probeProcess = record.process
                probeSource = record.source
            }
            styles[style, default: 0] += 1
            if line.contains("skew=") || line.contains("elapsed=") {
                switch ProbeLog.parseEvaluation(line, number: lineNumber) {
                case .success(var e):
                    e.loggedAt = record.wallTime
                    evaluations.append(e)
                case .failure(let p): if problems.count < ProbeLog.maximumProblems { problems.append(p) } else { ignoredLines += 1 }
                }
            } else if let range = line.range(of: "walkOrigin=") {
                if let (v, _) = ProbeLog.number(in: line[range.upperBound...]), v > 0, v < 1e10 {
                    walkOrigin = v
                } else {
                    problems.append(Problem(line: lineNumber, reason: "armed line without a readable walkOrigin"))
                }
            } else if let range = line.range(of: "skew(t-now)") {
                var rest = line[range.upperBound...].drop { $0 == " " }
                guard rest.first == "=" else {
                    problems.append(Problem(line: lineNumber, reason: "baseline line without '='"))
                    return
                }
                rest = rest.dropFirst()
                guard let (a, afterA) = ProbeLog.number(in: rest), abs(a) <= ProbeLog.maximumSkew else {
                    problems.append(Problem(line: lineNumber, reason: "baseline skew is not a number"))
                    return
                }
                let tail = afterA.drop { $0 == " " }
                if tail.hasPrefix("…") || tail.hasPrefix("...") {
                    let afterEllipsis = tail.hasPrefix("…") ? tail.dropFirst() : tail.dropFirst(3)
                    guard let (b, _) = ProbeLog.number(in: afterEllipsis), abs(b) <= ProbeLog.maximumSkew else {
                        problems.append(Problem(line: lineNumber, reason: "baseline range without a second number"))
                        return
                    }
                    summary = (ProbeLog.summaryCount(line) ?? 2, a, b, ProbeLog.statedNegative(line))
                } else {
                    baselineValues.append(a)
                }
            }
        }
        switch text.utf8.first(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) {
        case UInt8(ascii: "["):
            for (bytes, line) in ProbeLog.jsonObjects(in: text) {
                if let record = LogRecord.parseJSON(bytes, line: line) { consume(record, style: .logJSON) } else { ignoredLines += 1 }
            }
        case UInt8(ascii: "{"):
            var lineNumber = 0
            for line in ProbeLog.lines(of: text) {
                lineNumber += 1
                if line.utf8.isEmpty { continue }
                if let record = LogRecord.parseJSON(line.utf8, line: lineNumber) {
                    consume(record, style: .logNDJSON)
                } else {
                    ignoredLines += 1
                }
            }
        default:
            var lineNumber = 0
            for line in ProbeLog.lines(of: text) {
                lineNumber += 1
                if line.utf8.isEmpty { continue }
                let (record, style) = LogRecord.parse(line, line: lineNumber)
                consume(record, style: style)
            }
        }
        style = styles.max { $0.value < $1.value || ($0.value == $1.value && $0.key.rawValue > $1.key.rawValue) }?.key ?? .plain
        if let s = summary, baselineValues.isEmpty {
            // The summary prints the sample closest to zero and the farthest; if the largest is
            // negative, every sample is.
            // negative, every sample is; if the smallest is, at least one is (unless the line says).
            let hi = max(s.a, s.b), lo = min(s.a, s.b)
            let stated = s.negative.flatMap { $0 <= s.count ? $0 : nil }
            baseline = Baseline(
                count: s.count, negative: stated ?? (hi < 0 ? s.count : (lo < 0 ? 1 : 0)),
                closestToZero: abs(s.a) <= abs(s.b) ? s.a : s.b, farthestFromZero: abs(s.a) <= abs(s.b) ? s.b : s.a)
            baseline.negativeIsLowerBound = stated == nil && lo < 0 && hi >= 0
        } else if !baselineValues.isEmpty {
            let sorted = baselineValues.sorted { abs($0) < abs($1) }
            baseline = Baseline(
                count: baselineValues.count, negative: baselineValues.filter { $0 < 0 }.count,
                closestToZero: sorted.first, farthestFromZero: sorted.last)
        }
    }

    /// The top-level objects of a JSON array, as views of their bytes and the line each starts on: a
    /// large `log show --style json` export is parsed one object at a time, never whole.
    static func jsonObjects(in text: String) -> [(Substring.UTF8View, Int)] {
        var objects: [(Substring.UTF8View, Int)] = []
        let utf8 = text.utf8
        var depth = 0, line = 1, startLine = 1
        var inString = false, escaped = false
        var start: String.Index?
        var i = utf8.startIndex
        while i < utf8.endIndex {
            let b = utf8[i]
            if b == 10 { line += 1 }
            if inString {
                if escaped { escaped = false } else if b == 92 { escaped = true } else if b == 34 { inString = false }
            } else if b == 34 {
                inString = true
            } else if b == 123 || b == 91 {
                depth += 1
                if depth == 2, b == 123 {
                    start = i
                    startLine = line
                }
            } else if b == 125 || b == 93 {
                if depth == 2, b == 125, let s = start {
                    objects.append((text[s...i].utf8, startLine))
                    start = nil
                }
                depth -= 1
            }
            i = utf8.index(after: i)
        }
        return objects
    }

    /// The offset between the log's own timestamps and the probe's wall clock (`walkOrigin` +
    /// elapsed − skew) over the evaluations that have both: the median and the spread (max − min),
    /// in seconds; nil when the log has no zoned timestamps or no `walkOrigin`.
    public var logClockOffset: (median: Double, spread: Double, count: Int)? {
        guard let origin = walkOrigin else { return nil }
        let offsets = evaluations.compactMap { e in e.loggedAt.map { $0 - (origin + e.nowSinceOrigin) } }.sorted()
        guard let lo = offsets.first, let hi = offsets.last else { return nil }
        return (offsets[offsets.count / 2], hi - lo, offsets.count)
    }

    /// `#01..#15` → 15.
    /// The count of negative samples a summary line states after its range: `all 15 frames negative`
    /// or `13 of 15 frames negative`.
    static func statedNegative(_ line: Substring) -> Int? {
        guard let r = line.range(of: " frames negative") ?? line.range(of: " samples negative") else { return nil }
        let words = line[..<r.lowerBound].split(separator: " ")
        guard let last = words.last, let total = Int(last) else { return nil }
        if words.count >= 2, words[words.count - 2] == "all" { return total }
        if words.count >= 3, words[words.count - 2] == "of", let n = Int(words[words.count - 3]) { return n }
        return nil
    }

    static func summaryCount(_ line: Substring) -> Int? {
        guard let dots = line.range(of: "..#") else { return nil }
        let digits = line[dots.upperBound...].prefix { $0.isNumber }
        return Int(digits).flatMap { $0 > 0 && $0 < 1_000_000 ? $0 : nil }
    }

    enum ParseResult {
        case success(Evaluation)
        case failure(Problem)
    }

    static func parseEvaluation(_ line: Substring, number: Int) -> ParseResult {
        func fail(_ reason: String) -> ParseResult { .failure(Problem(line: number, reason: reason)) }
        func field(_ name: String) -> (Double, Substring)? {
            guard let r = line.range(of: name) else { return nil }
            return ProbeLog.number(in: line[r.upperBound...])
        }
        guard let (skew, _) = field("skew=") else { return fail("skew= is missing or not a number") }
        guard let (elapsed, _) = field("elapsed=") else { return fail("elapsed= is missing or not a number") }
        guard let (old, afterOld) = field("old=") else { return fail("old= is missing or not a number") }
        guard let oldArrow = arrow(afterOld) else { return fail("old= has no →R/←L arrow") }
        guard let (new, afterNew) = field("new=") else { return fail("new= is missing or not a number") }
        guard let newArrow = arrow(afterNew) else { return fail("new= has no →R/←L arrow") }
        guard abs(skew) <= maximumSkew, abs(elapsed) <= maximumElapsed else { return fail("skew or elapsed is absurdly large") }
        guard (0...1).contains(old), (0...1).contains(new) else { return fail("a phase lies outside 0…1") }
        return .success(
            Evaluation(
                line: number, skew: skew, elapsed: elapsed, oldPhase: old, oldFacing: oldArrow,
                newPhase: new, newFacing: newArrow))
    }

    static func arrow(_ text: Substring) -> Arrow? {
        let t = text.drop { $0 == " " }
        if t.hasPrefix("→R") || t.hasPrefix("->R") { return .right }
        if t.hasPrefix("←L") || t.hasPrefix("<-L") { return .left }
        return nil
    }

    /// A signed decimal at the start of `text` (leading spaces allowed); nil for NaN, infinities or junk.
    static func number(in text: Substring) -> (Double, Substring)? {
        var rest = text.drop { $0 == " " }
        var digits = ""
        if let sign = rest.first, sign == "+" || sign == "-" {
            digits.append(sign)
            rest = rest.dropFirst()
        }
        let whole = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(whole.count)
        var fraction: Substring = ""
        if rest.first == "." {
            fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(1 + fraction.count)
        }
        guard !whole.isEmpty || !fraction.isEmpty, whole.count <= 15, fraction.count <= 15 else { return nil }
        digits += whole.isEmpty ? "0" : String(whole)
        if !fraction.isEmpty { digits += "." + fraction }
        guard let value = Double(digits), value.isFinite else { return nil }
        return (value, rest)
    }

    // MARK: Predictions

    /// A flip a formula predicts: a run of evaluations facing the other way.
    public struct PredictedFlip: Sendable, Equatable {
        /// Index of the first evaluation facing the other way.
        public var firstEvaluation: Int
        /// Number of evaluations in the run.
        public var evaluations: Int
        /// Wall time (`now`) of its first evaluation, seconds since 2001 (nil without `walkOrigin`).
        public var startWall: Double?
        /// Seconds after `walkOrigin` of its first evaluation.
        public var startSinceOrigin: Double
        /// From the `now` of its first evaluation to the `now` of the first evaluation facing back.
        public var durationMS: Double
    }

    /// The transient flips `formula` predicts. The sprite rests facing right before it walks (phase
    /// 0); a run facing the other way that returns within `transientMS` is a flip, one that does
    /// not is a turn and becomes the new facing.
    public func predictedFlips(_ formula: Formula, transientMS: Double = 500) -> [PredictedFlip] {
        var flips: [PredictedFlip] = []
        var stable = Arrow.right
        var i = 0
        while i < evaluations.count {
            let f = evaluations[i].facing(formula)
            guard f != stable else {
                i += 1
                continue
            }
            var j = i
            while j < evaluations.count && evaluations[j].facing(formula) == f { j += 1 }
            if j < evaluations.count {
                let ms = (evaluations[j].nowSinceOrigin - evaluations[i].nowSinceOrigin) * 1000
                if ms <= transientMS {
                    let since = evaluations[i].nowSinceOrigin
                    flips.append(
                        PredictedFlip(
                            firstEvaluation: i, evaluations: j - i, startWall: walkOrigin.map { $0 + since },
                            startSinceOrigin: since, durationMS: ms))
                    i = j
                    continue
                }
            }
            stable = f
            i = j
        }
        return flips
    }

    /// Evaluations whose skew is negative (the timeline date behind the wall clock).
    public var negativeEvaluationSkews: Int { evaluations.filter { $0.skew < 0 }.count }
}
