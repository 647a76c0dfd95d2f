import RecordingAnalysis

/// `--tolerance-ms` and `--expect`: how the verdict is reached, shared by `analyze` and `batch`.
struct VerdictOptions {
    static let specs = [
        OptionSpec(
            "tolerance-ms", value: "MS",
            help: "How far a video flip and a predicted flip may differ (default 1.5 frame periods: 25 ms at 60 fps)."),
        OptionSpec(
            "expect", value: "bug|fixed",
            help: "bug: pass only if the flip shows (and the log matches the legacy formula); fixed: pass only without a flip.")
    ]

    /// nil: 1.5 periods of the grid.
    let toleranceMS: Double?
    let expectation: CaptureVerdict.Expectation?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        if let text = arguments.values["tolerance-ms"] {
            guard let ms = Double(text), ms.isFinite, ms >= 0, ms <= 10_000 else {
                throw UsageError("--tolerance-ms must be a number of milliseconds from 0 to 10000, not '\(text)'")
            }
            toleranceMS = ms
        } else {
            toleranceMS = nil
        }
        if let text = arguments.values["expect"] {
            guard let e = CaptureVerdict.Expectation(rawValue: text) else {
                throw UsageError("--expect must be bug or fixed, not '\(text)'")
            }
            expectation = e
        } else {
            expectation = nil
        }
    }
}
