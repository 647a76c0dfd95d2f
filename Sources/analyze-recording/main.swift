import AnalyzeRecordingCLI
import Foundation

// A reader that closes the pipe early must not kill the tool with SIGPIPE: the write fails instead,
// and Console exits 74 with one line.
signal(SIGPIPE, SIG_IGN)
exit(runTool(Array(CommandLine.arguments.dropFirst())).rawValue)
