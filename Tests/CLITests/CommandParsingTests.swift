import Testing
@testable import AnalyzeRecordingCLI
@testable import RecordingAnalysis

/// Parsing and validation in-process: the same declarations the binary uses, without a process.
@Suite struct CommandParsingTests {
    private func analyze(_ arguments: [String]) throws(UsageError) -> AnalyzeCommand {
        try AnalyzeCommand(ParsedArguments(arguments, specs: AnalyzeCommand.options))
    }

    private func usageMessage(_ arguments: [String]) -> String? {
        do {
            _ = try analyze(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func valuesInlineAndSeparateAndTheEndOfOptions() throws {
        let command = try analyze(["--log=p.txt", "--tolerance-ms", "40", "--expect", "fixed", "--", "--odd-name.mov"])
        #expect(command.recording == "--odd-name.mov")
        #expect(command.logPath == "p.txt")
        #expect(command.toleranceMS == 40)
        #expect(command.expectation == .fixed)
        #expect(command.json == nil && !command.cfrMap)
    }

    @Test func aLoneDashIsAValueNotAnOption() throws {
        let command = try analyze(["flip.mov", "--json", "-", "--log", "-"])
        #expect(command.json == "-" && command.logPath == "-")
    }

    @Test func badValuesAreNamedWithTheirOption() {
        #expect(
            usageMessage(["x.mov", "--tolerance-ms", "-3"]) == "--tolerance-ms must be a number of milliseconds from 0 to 10000, not '-3'")
        #expect(usageMessage(["x.mov", "--expect", "maybe"]) == "--expect must be bug or fixed, not 'maybe'")
        #expect(usageMessage(["x.mov", "--json", ""]) == "--json needs a file name or '-'")
        #expect(usageMessage(["x.mov", "--expect"]) == "option '--expect' needs a value (bug|fixed)")
        #expect(usageMessage(["x.mov", "--cfr-map=yes"]) == "option '--cfr-map' takes no value")
        #expect(usageMessage(["x.mov", "--log", "a", "--log", "b"]) == "option '--log' given more than once")
        #expect(usageMessage(["x.mov", "--nope"]) == "unknown option '--nope'")
        #expect(usageMessage(["x.mov", "-v"]) == "unknown option '-v'")
        #expect(usageMessage(["x.mov", "y.mov"]) == "unexpected argument 'y.mov'")
        #expect(usageMessage([]) == "missing RECORDING")
    }

    @Test func helpIsAskedOnlyOutsideAnOptionsValue() {
        #expect(asksForHelp(["x.mov", "--help"], options: AnalyzeCommand.options))
        #expect(asksForHelp(["-h"], options: AnalyzeCommand.options))
        #expect(!asksForHelp(["x.mov", "--json", "-h"], options: AnalyzeCommand.options))
        #expect(!asksForHelp(["--", "--help"], options: AnalyzeCommand.options))
    }

    @Test func aMistypedSubcommandIsMatchedWithinTwoEdits() {
        #expect(CommandRegistry.nearestName(to: "timstamps") == "timestamps")
        #expect(CommandRegistry.nearestName(to: "Analyse") == "analyze")
        #expect(CommandRegistry.nearestName(to: "flip.mov") == nil)
        #expect(CommandRegistry.nearestName(to: "cfr") == nil)
    }

    @Test func everyCommandsSynopsisNamesEachOfItsOptions() {
        for command in CommandRegistry.all {
            let help = help(for: command)
            for option in command.options {
                #expect(help.contains("--" + option.name), "\(command.name) --help lacks --\(option.name)")
            }
        }
    }

    @Test func batchPassesEveryAnalysisOptionOnAndValidatesItAsAnalyzeDoes() throws {
        let arguments = [
            "captures", "--roi", "0,0,100,80", "--full-decode", "--tolerance-ms", "30", "--expect", "fixed", "--fps", "120",
            "--grid", "fps-mode-cfr", "--copyts", "--jobs", "2"
        ]
        let batch = try BatchCommand(ParsedArguments(arguments, specs: BatchCommand.options))
        let passed = batch.passThrough.joined(separator: " ")
        for part in [
            "--roi 0,0,100,80", "--full-decode", "--tolerance-ms 30", "--expect fixed", "--fps 120", "--grid fps-mode-cfr", "--copyts"
        ] {
            #expect(passed.contains(part), "\(part) not passed on: \(passed)")
        }
        #expect(!passed.contains("--jobs"))
        for bad in [["--tolerance-ms", "-1"], ["--roi", "1,2"], ["--expect", "maybe"], ["--transient-ms", "0"]] {
            #expect(throws: UsageError.self) { try BatchCommand(ParsedArguments(["captures"] + bad, specs: BatchCommand.options)) }
        }
    }
}
