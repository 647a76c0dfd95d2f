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
    /// 0 pass, 1 fail.
    public var exitCode: Int32 { passed ? 0 : 1 }
    /// Whether the video left the answer open: `uncertainty` names what could not be established.
    public let undetermined: Bool
    /// What the video could not establish that the answer depends on.
    public let uncertainty: String?
    /// Set when the capture is damaged: it then never passes (fail closed).
    public let damage: String?
    /// Whether the video shows a transient mirror flip.
    public let flipSeen: Bool
    /// The probe log's answer, when there is a log.
    public let logVerdict: CrossCheck.Verdict?
    /// The log's answer is undetermined because the video's unknown frames could hide a predicted flip.
    public let logHiddenByUnknown: Bool

    /// - Parameter uncertainty: what the video could not establish that the answer depends on (a
    ///   short change of facing next to unknown frames; frames of unknown facing where a flip could
    ///   hide). No check passes on it, except a reproduction whose flip was seen and matched.
    /// - Parameter damage: what is wrong with a damaged capture.
    public init(
        flips: [OrientationTimeline.Flip], crossCheck: CrossCheck?, expectation: Expectation?,
        uncertainty: String? = nil, damage: String? = nil
    ) {
        self.expectation = expectation
        self.damage = damage
        self.uncertainty = uncertainty
        flipSeen = !flips.isEmpty
        let verdict = crossCheck?.verdict
        logVerdict = verdict
        logHiddenByUnknown = crossCheck?.hiddenByUnknown ?? false
        if damage != nil {
            // What decoded may look clean, but what did not decode could hold anything.
            passed = false
            undetermined = false
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
            passed =
                flips.isEmpty && (verdict == nil || verdict == .matchesNew || verdict == .undetermined) && !logHiddenByUnknown
                && uncertainty == nil
            undetermined = flips.isEmpty && uncertainty != nil && verdict != .inconsistent && verdict != .matchesOld
        }
    }
}
