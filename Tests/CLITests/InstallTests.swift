import Foundation
import Testing
import TestSupport

/// `make install` puts the binary, the man page and the completions in place; the man page renders
/// without warnings and the completions parse in their shells and complete what --help declares.
@Suite struct InstallTests {
    @Test func installAndUninstallUnderDestdir() throws {
        guard let make = TestSupport.which("make") else { return }
        let root = TestSupport.temporaryDirectory("install")
        defer { try? FileManager.default.removeItem(at: root) }
        let arguments = [
            "-s", "-C", TestSupport.packageRoot.path, "install-files", "PREFIX=/opt/ar", "DESTDIR=\(root.path)",
            "INSTALL_BIN=\(TestSupport.toolPath)"
        ]
        let r = try TestSupport.run(make, arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let files = [
            "bin/analyze-recording", "share/man/man1/analyze-recording.1", "share/bash-completion/completions/analyze-recording",
            "share/zsh/site-functions/_analyze-recording", "share/fish/vendor_completions.d/analyze-recording.fish"
        ]
        for f in files { #expect(FileManager.default.fileExists(atPath: root.path + "/opt/ar/" + f), "\(f) not installed") }
        let version = try TestSupport.run(root.path + "/opt/ar/bin/analyze-recording", ["--version"])
        #expect(version.stdout.hasPrefix("analyze-recording "))
        let u = try TestSupport.run(make, ["-s", "-C", TestSupport.packageRoot.path, "uninstall", "PREFIX=/opt/ar", "DESTDIR=\(root.path)"])
        #expect(u.status == 0)
        for f in files { #expect(!FileManager.default.fileExists(atPath: root.path + "/opt/ar/" + f), "\(f) left after uninstall") }
    }

    @Test(.enabled(if: TestSupport.which("groff") != nil)) func theManPageRendersWithoutWarnings() throws {
        let dir = TestSupport.temporaryDirectory("man")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("analyze-recording.1")
        try Data(try TestSupport.tool(["--man-page"]).stdout.utf8).write(to: page)
        let r = try TestSupport.run(try #require(TestSupport.which("groff")), ["-man", "-ww", "-Tutf8", page.path])
        #expect(r.status == 0 && r.stderr.isEmpty, "groff warnings: \(r.stderr)")
        // Every option of every command is documented (generated from the declarations --help uses).
        for option in ["--grid", "--timestamps", "--copyts", "--junit", "--ci", "--evidence", "--decode", "--no-work-limit", "--json-lines"]
        {
            #expect(r.stdout.contains(option), "\(option) missing from the man page")
        }
    }

    /// bash: the function completes subcommands, options of the subcommand on the line, and the
    /// fixed values of an option.
    @Test func bashCompletesSubcommandsOptionsAndValues() throws {
        let dir = TestSupport.temporaryDirectory("bash")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("completion.bash")
        try Data(try TestSupport.tool(["--completion", "bash"]).stdout.utf8).write(to: script)
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try TestSupport.run(
                "/bin/bash",
                [
                    "-c",
                    "source '\(script.path)'; COMP_WORDS=(analyze-recording \(quoted)); COMP_CWORD=\(words.count); _analyze_recording; printf '%s\\n' \"${COMPREPLY[@]}\""
                ])
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["ti"]) == ["timestamps"])
        #expect(try complete(["cfr", "x.mov", "--gr"]) == ["--grid"])
        #expect(try complete(["cfr", "x.mov", "--grid", ""]) == ["fps-filter", "fps-mode-cfr"])
        #expect(try complete(["x.mov", "--exp"]) == ["--expect"], "options of the default command")
        #expect(try complete(["x.mov", "--expect", "f"]) == ["fixed"])
    }

    @Test(arguments: ["zsh", "fish"]) func otherShellsParseTheirCompletion(shell: String) throws {
        guard let binary = TestSupport.which(shell) else { return }
        let dir = TestSupport.temporaryDirectory(shell)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("completion.\(shell)")
        try Data(try TestSupport.tool(["--completion", shell]).stdout.utf8).write(to: script)
        let r = try TestSupport.run(binary, shell == "zsh" ? ["-n", script.path] : ["--no-execute", script.path])
        #expect(r.status == 0, "\(shell): \(r.stderr)")
    }
}
