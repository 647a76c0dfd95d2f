/// The answer a CI job acts on: does this capture pass?
public struct CaptureVerdict: Sendable {
    /// What the capture is supposed to show.
    public enum Expectation: String, Sendable {
        /// A reproduction: it must show the flip, and a log must match the legacy formula.
        case bug
        /// A fix: no flip, and a log must match the clamped formula (or not tell them apart).
        case fixed
    }

    public let expectation: Expectation?
    public let passed: Bool
    /// One line for people.
    public let summary: String
    /// 0 pass, 1 fail.
    public var exitCode: Int32 { passed ? 0 : 1 }

    public init(flips: [OrientationTimeline.Flip], flipDescription: String, crossCheck: CrossCheck?, expectation: Expectation?) {
        self.expectation = expectation
        let verdict = crossCheck?.verdict
        let logPart = verdict.map { v -> String in
            switch v {
            case .matchesOld: return "the log matches the legacy formula (the bug ran)"
            case .matchesNew: return "the log matches the clamped formula (the fix ran)"
            case .undetermined: return "the log cannot tell the formulas apart"
            case .inconsistent: return "the log and the video disagree"
            }
        }
        let videoPart = flips.isEmpty ? "no transient mirror flip" : flipDescription
        var parts = [videoPart]
        if let logPart { parts.append(logPart) }
        let facts = parts.joined(separator: "; ")
        switch expectation {
        case nil:
            passed = flips.isEmpty && verdict != .inconsistent
            summary = (passed ? "PASS: " : "FAIL: ") + facts
        case .bug?:
            passed = !flips.isEmpty && (verdict == nil || verdict == .matchesOld)
            summary = (passed ? "PASS (bug reproduced): " : "FAIL (expected the bug): ") + facts
        case .fixed?:
            passed = flips.isEmpty && (verdict == nil || verdict == .matchesNew || verdict == .undetermined)
            summary = (passed ? "PASS (fixed): " : "FAIL (expected the fix): ") + facts
        }
    }
}
