/// A command-line option a subcommand accepts.
struct OptionSpec {
    /// Long name without dashes, e.g. `json`.
    let name: String
    /// Placeholder of the value (`FILE`); nil for a flag that takes no value.
    let value: String?
    let help: String

    init(_ name: String, value: String? = nil, help: String) {
        self.name = name
        self.value = value
        self.help = help
    }
}

/// A mistake in how the tool was called (sysexits 64).
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Arguments split into positionals, option values and flags, checked against a command's specs.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// Parses `--name value`, `--name=value`, flags, positionals and `--` (end of options).
    /// A lone `-` is a positional (or a value: standard output for `--json -`).
    init(_ arguments: [String], specs: [OptionSpec]) throws(UsageError) {
        let byName = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                optionsEnded = true
                continue
            }
            guard arg.hasPrefix("--") else { throw UsageError("unknown option '\(arg)'") }
            var name = String(arg.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = byName[name] else { throw UsageError("unknown option '--\(name)'") }
            if spec.value == nil {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value") }
                flags.insert(name)
                continue
            }
            if values[name] != nil { throw UsageError("option '--\(name)' given more than once") }
            if let inlineValue {
                values[name] = inlineValue
            } else {
                guard i < arguments.count else { throw UsageError("option '--\(name)' needs a value (\(spec.value ?? "VALUE"))") }
                values[name] = arguments[i]
                i += 1
            }
        }
    }

    /// Exactly one positional, named `placeholder` in the error message.
    func single(_ placeholder: String) throws(UsageError) -> String {
        guard let first = positionals.first else { throw UsageError("missing \(placeholder)") }
        guard positionals.count == 1 else { throw UsageError("unexpected argument '\(positionals[1])'") }
        return first
    }
}
