import Foundation
import MediaIO
import RecordingAnalysis

/// One subcommand: its name, help, options, and how it runs.
protocol Command {
    static var name: String { get }
    static var abstract: String { get }
    /// The positional part of the synopsis and any options it must arrange itself (alternatives),
    /// e.g. `timestamps RECORDING`; `synopsis` adds the rest from `options`.
    static var usage: String { get }
    static var options: [OptionSpec] { get }
    /// Builds the command from parsed arguments and validates them (usage errors only).
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Runs; failures are thrown as `MediaError` or `CommandFailure`.
    func run() throws -> ExitStatus
}

extension Command {
    /// The synopsis after the tool's name, generated from `usage` and every option not already in
    /// it, so that help, the man page and completions cannot miss one.
    static var synopsis: String {
        let rest = options.filter { !usage.contains("--" + $0.name + " ") && !usage.hasSuffix("--" + $0.name) }.map { option in
            "[--" + option.name + (option.value.map { " " + $0 } ?? "") + "]"
        }
        return ([usage] + rest).joined(separator: " ")
    }
}

/// A failure that is not a usage error, with the status it exits with.
struct CommandFailure: Error {
    let status: ExitStatus
    let message: String
}

/// Standard streams.
/// Standard output and error. A write that fails (a full disk or `/dev/full`, a closed stream, a
/// reader that went away) never traps: the tool says so on stderr if it can and exits 74 (EX_IOERR).
enum Console {
    static func out(_ text: String) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
        } catch {
            Console.error("analyze-recording: cannot write to standard output: \(Console.reason(error))\n")
            exit(ExitStatus.ioError.rawValue)
        }
    }

    static func error(_ text: String) {
        do {
            try FileHandle.standardError.write(contentsOf: Data(text.utf8))
        } catch {
            // Nowhere left to say it.
            exit(ExitStatus.ioError.rawValue)
        }
    }

    private static func reason(_ error: Error) -> String {
        var e = error as NSError
        if let underlying = e.userInfo[NSUnderlyingErrorKey] as? NSError { e = underlying }
        if e.domain == NSPOSIXErrorDomain, e.code > 0 { return String(cString: strerror(Int32(e.code))) }
        return e.localizedDescription
    }
}

/// Writes a JSON document to `destination`: `-` for standard output, otherwise a file written atomically.
func writeJSON(_ document: JSONValue, to destination: String) throws {
    // Written as it is serialised, a megabyte at a time: a document as long as its log never
    // exists in memory as a whole.
    if destination == "-" {
        document.write(indent: 2) { Console.out($0) }
        Console.out("\n")
        return
    }
    try OutputFile.writeStreaming(to: destination) { (write) throws(MediaError) in
        var failure: MediaError?
        document.write(indent: 2) { piece in
            guard failure == nil else { return }
            do throws(MediaError) { try write(Data(piece.utf8)) } catch { failure = error }
        }
        if let failure { throw failure }
        try write(Data("\n".utf8))
    }
}
