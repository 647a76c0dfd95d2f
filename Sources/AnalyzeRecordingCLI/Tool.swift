import Foundation
import MediaIO
import RecordingAnalysis

/// The tool's version; bump with each release.
let toolVersion = "0.1.0"

/// Every subcommand; the first is the default.
enum CommandRegistry {
    static var all: [any Command.Type] {
        [
            AnalyzeCommand.self, TimestampsCommand.self, CFRCommand.self, FrameCommand.self, OrientationCommand.self, LogCommand.self,
            BatchCommand.self, RecordCommand.self
        ]
    }

    /// The subcommand a mistyped first word most likely meant: at most two edits away, and not
    /// itself a subcommand. A word that is a file is never a mistyped subcommand.
    static func nearestName(to word: String) -> String? {
        guard !all.contains(where: { $0.name == word }) else { return nil }
        let scored = all.map { ($0.name, editDistance(word.lowercased(), $0.name)) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return row[b.count]
    }
}

func generalHelp() -> String {
    var text = """
        analyze-recording: forensics on screen recordings (iOS Simulator captures).

        USAGE: analyze-recording [SUBCOMMAND] RECORDING [OPTIONS]

        SUBCOMMANDS:

        """
    var table = [(String, String)]()
    for c in CommandRegistry.all { table.append((c.name, c.abstract)) }
    let width = table.map(\.0.count).max() ?? 0
    for (name, abstract) in table {
        text += "  " + name + String(repeating: " ", count: width - name.count + 2) + abstract + "\n"
    }
    text += """

        Without a subcommand, 'analyze' runs. 'analyze-recording SUBCOMMAND --help' shows its options.
        Exit status: 0 clean, 1 findings, 64 usage error, 65 bad input data, 66 cannot open input, 73 cannot write output.

        """
    return text
}

func help(for command: any Command.Type) -> String {
    var text = "\(command.abstract)\n\nUSAGE: analyze-recording \(command.synopsis)\n\nOPTIONS:\n"
    let rows = command.options.map { ("--" + $0.name + ($0.value.map { " " + $0 } ?? ""), $0.help) } + [("--help", "Show this help.")]
    let width = rows.map(\.0.count).max() ?? 0
    for (flag, help) in rows {
        text += "  " + flag + String(repeating: " ", count: width - flag.count + 2) + help + "\n"
    }
    return text
}

/// Whether `--help` or `-h` appears as an option, not as the value of one (`--json -h` names a file).
func asksForHelp(_ args: [String], options: [OptionSpec]) -> Bool {
    let takesValue = Set(options.filter { $0.value != nil }.map { "--" + $0.name })
    var i = 0
    while i < args.count {
        if args[i] == "--" { return false }
        if args[i] == "--help" || args[i] == "-h" { return true }
        i += takesValue.contains(args[i]) ? 2 : 1
    }
    return false
}

/// Runs the tool on `arguments` (without the program name) and returns its exit status; every
/// error is reported on stderr here, as one line.
public func runTool(_ arguments: [String]) -> ExitStatus {
    LargeBufferPolicy.apply()
    var args = arguments
    if args.isEmpty {
        Console.error("analyze-recording: missing RECORDING (see 'analyze-recording --help')\n")
        return .usage
    }
    if args == ["--help"] || args == ["-h"] || args == ["help"] {
        Console.out(generalHelp())
        return .success
    }
    // Generated from the same declarations as --help; `make install` writes them.
    if args == ["--man-page"] {
        Console.out(ManPage.render())
        return .success
    }
    if args.count == 2, args[0] == "--completion" {
        guard let shell = ShellCompletion.Shell(rawValue: args[1]) else {
            Console.error("analyze-recording: --completion takes bash, zsh or fish, not '\(TextTable.terminalSafe(args[1]))'\n")
            return .usage
        }
        Console.out(ShellCompletion.render(shell))
        return .success
    }
    if args == ["--version"] {
        Console.out("analyze-recording \(toolVersion) (\(LibraryVersions.description))\n")
        return .success
    }
    var command: any Command.Type = AnalyzeCommand.self
    if let first = args.first, !first.hasPrefix("-"), !FileManager.default.fileExists(atPath: first),
        let near = CommandRegistry.nearestName(to: first)
    {
        Console.error(
            "analyze-recording: unknown subcommand '\(TextTable.terminalSafe(first))', did you mean '\(near)'? (see 'analyze-recording --help')\n"
        )
        return .usage
    }
    if let first = args.first, let named = CommandRegistry.all.first(where: { $0.name == first }) {
        command = named
        args.removeFirst()
    } else if args.first == "help", args.count == 2, let named = CommandRegistry.all.first(where: { $0.name == args[1] }) {
        Console.out(help(for: named))
        return .success
    }
    if asksForHelp(args, options: command.options) {
        Console.out(help(for: command))
        return .success
    }
    // batch and record pass SIGINT, SIGTERM and SIGHUP on to their children (StopSignals); every other command
    // removes its temporary files when one arrives, then dies of it.
    if command != BatchCommand.self && command != RecordCommand.self { TemporaryFiles.removeOnSignals() }
    do {
        let parsed = try ParsedArguments(args, specs: command.options)
        WorkLimitOption.apply(parsed)
        let instance = try command.init(parsed)
        return try instance.run()
    } catch let error as UsageError {
        Console.error(
            "analyze-recording \(command.name): \(TextTable.terminalSafe(error.message)) (see 'analyze-recording \(command.name) --help')\n"
        )
        return .usage
    } catch let error as MediaError {
        Console.error("analyze-recording: \(TextTable.terminalSafe(error.message))\n")
        switch error.kind {
        case .cannotOpen: return .noInput
        case .invalidData: return .dataError
        case .cannotCreate: return .cannotCreate
        case .unavailable: return .unavailable
        }
    } catch let error as CommandFailure {
        Console.error("analyze-recording: \(TextTable.terminalSafe(error.message))\n")
        return error.status
    } catch {
        Console.error("analyze-recording: \(error)\n")
        return .software
    }
}
