/// The man page `analyze-recording(1)`, generated from the same declarations as `--help` (each
/// command's abstract, synopsis and options), so that the two cannot drift.
enum ManPage {
    static func render(date: String = "2026-11-30") -> String {
        var roff = """
            .TH ANALYZE\\-RECORDING 1 "\(date)" "analyze\\-recording \(toolVersion)" "User Commands"
            .SH NAME
            analyze\\-recording \\- forensics on screen recordings: timestamps, constant\\-rate grids, mirror flips, probe\\-log cross\\-checks
            .SH SYNOPSIS

            """
        for command in CommandRegistry.all {
            roff += ".B analyze\\-recording\n" + escape(command.synopsis) + "\n.br\n"
        }
        roff += """
            .SH DESCRIPTION
            Reads a screen recording (an iOS Simulator capture, or any video FFmpeg reads) through FFmpeg's
            libraries, audits its timestamps, resamples it to a constant frame rate exactly as the ffmpeg
            command it names, finds when a sprite is mirrored and for how long, cross\\-checks the app's
            probe log, and gives a verdict a CI job can act on. Without a subcommand,
            .B analyze
            runs.
            .SH COMMANDS

            """
        for command in CommandRegistry.all {
            roff += ".SS \(escape(command.name))\n\(escape(command.abstract))\n"
            for option in command.options {
                roff +=
                    ".TP\n.B \\-\\-\(escape(option.name))" + (option.value.map { " \\fI\(escape($0))\\fR" } ?? "") + "\n"
                    + escape(option.help) + "\n"
            }
        }
        roff += """
            .SH EXIT STATUS
            .TP
            .B 0
            nothing found: the capture passes.
            .TP
            .B 1
            findings: a flip, timestamps that run backwards, a damaged capture, a log that disagrees, a failed expectation.
            .TP
            .B 64
            usage error, including a time past the end of the recording.
            .TP
            .B 65
            bad input data.
            .TP
            .B 66
            an input cannot be opened.
            .TP
            .B 70
            internal error.
            .TP
            .B 73
            an output cannot be written (or would overwrite an input).
            .TP
            .B 74
            standard output or error cannot be written.
            .SH ENVIRONMENT
            .TP
            .B NO_COLOR
            no colour on a terminal.
            .TP
            .B GITHUB_ACTIONS
            when \\fBtrue\\fR, annotations and a job summary are written (see \\fB\\-\\-ci\\fR).
            .TP
            .B GITHUB_STEP_SUMMARY
            the file the Markdown job summary is appended to.
            .SH SEE ALSO
            .BR ffmpeg (1),
            .BR ffprobe (1),
            .BR log (1)

            """
        return roff
    }

    /// Text safe in roff: backslashes doubled as `\e`, hyphens as `\-`, and a line never starting
    /// with a control character.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(c)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
