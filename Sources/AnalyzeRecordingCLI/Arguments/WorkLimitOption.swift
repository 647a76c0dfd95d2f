import MediaIO

/// `--no-work-limit`, accepted by every command that decodes a capture.
enum WorkLimitOption {
    static let spec = OptionSpec(
        "no-work-limit", help: "Decode a capture even when its header promises hours of decoding (more than 2000 G pixels).")

    /// Applies the flag to this run.
    static func apply(_ arguments: ParsedArguments) {
        if arguments.flags.contains(spec.name) { RecordingReader.enforcesWorkLimit = false }
    }
}
