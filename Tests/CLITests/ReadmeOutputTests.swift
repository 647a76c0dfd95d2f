import Foundation
import Testing
import TestSupport

/// Every example output in README.md is what the tool prints today (`make readme` refreshes them).
@Suite struct ReadmeOutputTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let command: String
        let shown: String
        var testDescription: String { command }
    }

    static var examples: [Example] {
        let readme = (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        var out: [Example] = []
        var rest = readme[...]
        while let open = rest.range(of: "<!-- output: ") {
            guard let close = rest[open.upperBound...].range(of: " -->\n```text\n"),
                let end = rest[close.upperBound...].range(of: "```\n<!-- end output -->")
            else { break }
            out.append(
                Example(command: String(rest[open.upperBound..<close.lowerBound]), shown: String(rest[close.upperBound..<end.lowerBound])))
            rest = rest[end.upperBound...]
        }
        return out
    }

    @Test func thereAreExamplesOfEverySubcommand() {
        let commands = ReadmeOutputTests.examples.map(\.command)
        for sub in ["timestamps", "cfr", "frame", "orientation", "log", "batch"] {
            #expect(commands.contains { $0.hasPrefix("analyze-recording \(sub) ") }, "no README example of \(sub)")
        }
        #expect(commands.contains { $0.hasPrefix("analyze-recording SampleMedia/") }, "no README example of analyze")
    }

    @Test(arguments: ReadmeOutputTests.examples)
    func exampleIsCurrent(_ example: Example) throws {
        let arguments = example.command.split(separator: " ").dropFirst().map(String.init)
        let r = try TestSupport.tool(arguments, directory: TestSupport.packageRoot)
        var text = "$ \(example.command)\n" + r.stdout + r.stderr
        if r.status != 0 { text += "(exit status \(r.status))\n" }
        #expect(text == example.shown, "README example is stale: run make readme (\(example.command))")
    }
}
