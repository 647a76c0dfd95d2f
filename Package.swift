// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "analyze-recording",
    products: [
        .executable(name: "analyze-recording", targets: ["analyze-recording"])
    ],
    targets: [
        // The FFmpeg C libraries, found with pkg-config. Only MediaIO may import this.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev"]), .brew(["ffmpeg"])]
        ),
        // Pure Swift analysis core: no FFmpeg, only value types in and out.
        .target(name: "RecordingAnalysis"),
        // The simulated app and recorder behind SampleMedia: pure Swift, shared by the sample maker and tests.
        // Optimised in debug builds too: the tests render hundreds of clips through it, and unoptimised
        // rendering took 90 % of the detector tests' time.
        .target(
            name: "SampleScene", dependencies: ["RecordingAnalysis"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // Every C call lives here.
        .target(name: "MediaIO", dependencies: ["CFFmpeg", "RecordingAnalysis"]),
        // The commands: parse options, call the core and MediaIO, render, write. A library, so that
        // parsing and planning are tested in-process.
        .target(name: "AnalyzeRecordingCLI", dependencies: ["MediaIO", "RecordingAnalysis"]),
        // The executable: a few lines that run the tool and exit with its status.
        .executableTarget(name: "analyze-recording", dependencies: ["AnalyzeRecordingCLI"]),
        // Renders, encodes and writes SampleMedia/ (run: swift run make-sample-media SampleMedia).
        .executableTarget(name: "make-sample-media", dependencies: ["SampleScene", "MediaIO", "RecordingAnalysis"]),
        // Helpers shared by the test targets: running the built tool and the ffmpeg CLI oracle.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "RecordingAnalysisTests", dependencies: ["RecordingAnalysis"]),
        .testTarget(name: "SampleMediaTests", dependencies: ["SampleScene", "MediaIO", "RecordingAnalysis", "TestSupport"]),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "RecordingAnalysis", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["AnalyzeRecordingCLI", "RecordingAnalysis", "TestSupport"])
    ]
)
