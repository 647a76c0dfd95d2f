extension CaptureVerdict {
    /// The verdict as one line for people, e.g. `PASS (fixed): no transient mirror flip; the log
    /// matches the clamped formula (the fix ran)`. `flipDescription` describes the flips seen.
    public func summary(flipDescription: String) -> String {
        let logPart = logVerdict.map { v -> String in
            switch v {
            case .matchesOld: return "the log matches the legacy formula (the bug ran)"
            case .matchesNew: return "the log matches the clamped formula (the fix ran)"
            case .undetermined where logHiddenByUnknown:
                return "the log predicts a flip the video could hide where its facing is unknown (either formula may have run)"
            case .undetermined: return "the log cannot tell the formulas apart"
            case .inconsistent: return "the log and the video disagree"
            }
        }
        var parts = [flipSeen ? flipDescription : "no transient mirror flip"]
        if let logPart { parts.append(logPart) }
        let facts = parts.joined(separator: "; ")
        if let damage { return "FAIL (damaged capture): " + damage + "; in what did decode: " + facts }
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
        return label + facts + (undetermined ? "; " + (uncertainty ?? "") : "")
    }
}
