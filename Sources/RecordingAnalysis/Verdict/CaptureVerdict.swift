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

    /// Whether the video left the answer open: `uncertainty` names what could not be established.
    public let undetermined: Bool

    /// - Parameter uncertainty: what the video could not establish that the answer depends on (a
    ///   short change of facing next to unknown frames; frames of unknown facing where a flip could
    ///   hide). No check passes on it, except a reproduction whose flip was seen and matched.
    /// Set when the capture is damaged: it then never passes (fail closed).
    public let damage: String?

    public init(flips: [OrientationTimeline.Flip], flipDescription: String, crossCheck: CrossCheck?, expectation: Expectation?,
                uncertainty: String? = nil, damage: String? = nil) {
        self.expectation = expectation
        self.damage = damage
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
        if let damage {
            // What decoded may look clean, but what did not decode could hold anything.
            passed = false
            undetermined = false
            summary = "FAIL (damaged capture): " + damage + "; in what did decode: " + facts
            return
        }
        switch expectation {
        case nil:
            passed = flips.isEmpty && verdict != .inconsistent && uncertainty == nil
            undetermined = flips.isEmpty && verdict != .inconsistent && uncertainty != nil
        case .bug?:
            passed = !flips.isEmpty && (verdict == nil || verdict == .matchesOld)
            undetermined = flips.isEmpty && uncertainty != nil
        case .fixed?:
            passed = flips.isEmpty && (verdict == nil || verdict == .matchesNew || verdict == .undetermined) && uncertainty == nil
            undetermined = flips.isEmpty && uncertainty != nil && verdict != .inconsistent && verdict != .matchesOld
        }
        let label: String
        switch (expectation, passed, undetermined) {
        case (_, false, true): label = "UNDETERMINED: "
        case (nil, true, _): label = "PASS: "
        case (nil, false, _): label = "FAIL: "
        case (.bug?, true, _): label = "PASS (bug reproduced): "
        case (.bug?, false, _): label = "FAIL (expected the bug): "
        case (.fixed?, true, _): label = "PASS (fixed): "
        case (.fixed?, false, _): label = "FAIL (expected the fix): "
        }
        summary = label + facts + (undetermined ? "; " + (uncertainty ?? "") : "")
    }
}
