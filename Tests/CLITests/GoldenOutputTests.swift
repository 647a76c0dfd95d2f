import Foundation
import Testing
import TestSupport

/// Every subcommand's text and JSON output on SampleMedia, compared byte for byte with committed
/// goldens: a restructuring must not change what users see. A deliberate change of output updates
/// them with `make goldens`, and the diff shows exactly what changed.
@Suite struct GoldenOutputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        var testDescription: String { name }
    }

    static let folder = TestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/goldens")

    static var cases: [Case] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("commands.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { return nil }
            let arguments = line[line.index(after: colon)...].split(separator: " ").map(String.init)
            return Case(name: String(line[..<colon]), arguments: arguments)
        }
    }

    /// The golden file's content for a run: stdout, then the exit status on a line of its own.
    static func rendered(_ r: RunResult) -> String { r.stdout + "(exit status \(r.status))\n" }

    @Test func everyCommandHasAGolden() {
        #expect(GoldenOutputTests.cases.count >= 10)
    }

    @Test(arguments: GoldenOutputTests.cases)
    func outputEqualsGolden(_ c: Case) throws {
        let r = try TestSupport.tool(c.arguments, directory: TestSupport.packageRoot)
        #expect(!r.crashed, "\(r.stderr)")
        let actual = GoldenOutputTests.rendered(r)
        let goldenURL = GoldenOutputTests.folder.appendingPathComponent(c.name + ".out")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
            try actual.write(to: goldenURL, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: goldenURL, encoding: .utf8)
        if actual != golden {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let g = golden.split(separator: "\n", omittingEmptySubsequences: false)
            let line = zip(a, g).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, g.count)
            let got = line < a.count ? String(a[line]) : "<end>", want = line < g.count ? String(g[line]) : "<end>"
            Issue.record(
                "\(c.name): output differs from \(goldenURL.lastPathComponent) at line \(line + 1):\n  got:  \(got)\n  want: \(want)")
        }
    }
}
