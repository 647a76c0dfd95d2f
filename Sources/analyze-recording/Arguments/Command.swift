import Foundation
import MediaIO
import RecordingAnalysis

/// One subcommand: its name, help, options, and how it runs.
protocol Command {
    static var name: String { get }
    static var abstract: String { get }
    /// The synopsis after the tool's name, e.g. `timestamps RECORDING [--json FILE|-]`.
    static var synopsis: String { get }
    static var options: [OptionSpec] { get }
    /// Builds the command from parsed arguments and validates them (usage errors only).
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Runs; failures are thrown as `MediaError` or `CommandFailure`.
    func run() throws -> ExitStatus
}

/// A failure that is not a usage error, with the status it exits with.
struct CommandFailure: Error {
    let status: ExitStatus
    let message: String
}

/// Standard streams.
enum Console {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Writes a JSON document to `destination`: `-` for standard output, otherwise a file written atomically.
func writeJSON(_ document: JSONValue, to destination: String) throws {
    let text = document.serialized(indent: 2) + "\n"
    if destination == "-" {
        Console.out(text)
    } else {
        try OutputFile.writeAtomically(Array(text.utf8), to: destination)
    }
}
