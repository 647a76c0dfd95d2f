import RecordingAnalysis

/// The grid rule's options, shared by every command that builds a grid (`cfr`, `frame`,
/// `orientation`, `analyze`, and `batch`, which passes them on).
struct GridOptions {
    static let specs = [
        OptionSpec(
            "grid", value: "fps-filter|fps-mode-cfr",
            help:
                "Which ffmpeg rate conversion the grid reproduces: fps-filter (default) as ffmpeg -i REC -vf fps=R; fps-mode-cfr as ffmpeg -i REC -fps_mode cfr -r R."
        ),
        OptionSpec(
            "timestamps", value: "repaired|ffmpeg",
            help:
                "repaired (default): frames placed by their pts, repaired where they run backwards; ffmpeg: by FFmpeg's best_effort_timestamp, exactly as the ffmpeg CLI."
        ),
        OptionSpec(
            "copyts",
            help: "Keep timestamps as stored, as ffmpeg -copyts (default: times count from the container's start, as plain ffmpeg).")
    ]

    let rule: GridRule

    init(_ arguments: ParsedArguments) throws(UsageError) {
        var rule = GridRule()
        if let text = arguments.values["grid"] {
            guard let method = GridRule.Method(rawValue: text) else {
                throw UsageError("--grid must be fps-filter or fps-mode-cfr, not '\(text)'")
            }
            rule.method = method
        }
        if let text = arguments.values["timestamps"] {
            guard let timestamps = GridRule.Timestamps(rawValue: text) else {
                throw UsageError("--timestamps must be repaired or ffmpeg, not '\(text)'")
            }
            rule.timestamps = timestamps
        }
        if arguments.flags.contains("copyts") { rule.origin = .absolute }
        self.rule = rule
    }
}
