import Foundation
import MediaIO
import RecordingAnalysis
import SampleScene

/// make-sample-media OUTPUT_DIR [--truth-only]
///
/// Renders the story's app, simulates its clocks and the simulator's recorder, and writes the
/// sample captures, probe logs, truth files and images. Deterministic: the same bytes on every run
/// with the same FFmpeg.
func main() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "--bench" {
        // make-sample-media --bench DIR SECONDS [h264|hevc ...]
        guard arguments.count >= 3, let seconds = Int(arguments[2]), seconds > 0, seconds <= 600 else {
            FileHandle.standardError.write(Data("usage: make-sample-media --bench DIR SECONDS [h264] [hevc]\n".utf8))
            return 64
        }
        let codecs = arguments.dropFirst(3).compactMap { VideoWriter.Codec(rawValue: $0) }
        do {
            try BenchMedia.write(to: URL(fileURLWithPath: arguments[1]), seconds: seconds, codecs: codecs.isEmpty ? [.h264, .hevc] : codecs)
            return 0
        } catch {
            FileHandle.standardError.write(Data("make-sample-media: \(error)\n".utf8))
            return 73
        }
    }
    if arguments.first == "--bench-ui" {
        // make-sample-media --bench-ui DIR SECONDS
        guard arguments.count == 3, let seconds = Int(arguments[2]), seconds > 0, seconds <= 600 else {
            FileHandle.standardError.write(Data("usage: make-sample-media --bench-ui DIR SECONDS\n".utf8))
            return 64
        }
        do {
            try BenchMedia.writeUI(to: URL(fileURLWithPath: arguments[1]), seconds: seconds)
            return 0
        } catch {
            FileHandle.standardError.write(Data("make-sample-media: \(error)\n".utf8))
            return 73
        }
    }
    if arguments.first == "--sprite-assets" {
        // make-sample-media --sprite-assets DIR
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: make-sample-media --sprite-assets DIR\n".utf8))
            return 64
        }
        do {
            try AccuracyMedia.writeSpriteAssets(to: URL(fileURLWithPath: arguments[1]))
            return 0
        } catch {
            FileHandle.standardError.write(Data("make-sample-media: \(error)\n".utf8))
            return 73
        }
    }
    if arguments.first == "--accuracy" {
        // make-sample-media --accuracy DIR COUNT SEED
        guard arguments.count == 4, let count = Int(arguments[2]), count > 0, count <= 10_000, let seed = UInt64(arguments[3]) else {
            FileHandle.standardError.write(Data("usage: make-sample-media --accuracy DIR COUNT SEED\n".utf8))
            return 64
        }
        do {
            try AccuracyMedia.write(to: URL(fileURLWithPath: arguments[1]), count: count, seed: seed)
            return 0
        } catch {
            FileHandle.standardError.write(Data("make-sample-media: \(error)\n".utf8))
            return 73
        }
    }
    let truthOnly = arguments.contains("--truth-only")
    arguments.removeAll { $0 == "--truth-only" }
    guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
        FileHandle.standardError.write(Data("usage: make-sample-media OUTPUT_DIR [--truth-only]\n".utf8))
        return 64
    }
    let out = URL(fileURLWithPath: arguments[0])
    do {
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let scene = SnailScene()
        for capture in SampleSet.captures {
            let sim = CaptureSimulation(capture.script)
            let edits = capture.ptsEdits(sim)
            let truth = SampleTruth(sim, ptsEdits: edits)
            let available = VideoWriter.isAvailable(capture.codec)
            if !available {
                print("skipping \(capture.file): this FFmpeg build has no \(capture.codec.rawValue) encoder")
                continue
            }
            if !truthOnly {
                try writeVideo(capture, sim: sim, edits: edits, scene: scene, to: out.appendingPathComponent(capture.file).path)
            }
            let truthName = (capture.file as NSString).deletingPathExtension + ".truth.json"
            let logName = capture.logs.first { !$0.1 }?.0
            let json = truth.json(file: capture.file, codec: capture.codec.rawValue, logFile: logName, bFrames: capture.bFrames > 0)
            try write(json.serialized(indent: 2) + "\n", to: out.appendingPathComponent(truthName))
            for (name, console) in capture.logs {
                try write(console ? ProbeLogWriter.console(sim) : ProbeLogWriter.article(sim), to: out.appendingPathComponent(name))
            }
            print("\(capture.file): \(truth.framePTS.count) frames, \(truth.flips.count) flips, \(truth.turns.count) turns")
        }
        if !truthOnly {
            let sprite = SnailSprite.render()
            try OutputFile.writeAtomically(
                try PNGEncoder.encodeRGBA(width: sprite.width, height: sprite.height, pixels: sprite.rgbaBytes()),
                to: out.appendingPathComponent("snail.png").path)
            try writeTapFilmstrip(scene: scene, to: out.appendingPathComponent("tap-filmstrip.png").path)
            // Byte-identical output is promised for the same FFmpeg; record which one made these files.
            try write("made by make-sample-media with \(LibraryVersions.description)\n", to: out.appendingPathComponent("GENERATOR.txt"))
        }
        return 0
    } catch let error as MediaError {
        FileHandle.standardError.write(Data("make-sample-media: \(error.message)\n".utf8))
        return error.kind == .unavailable ? 69 : 73
    } catch {
        FileHandle.standardError.write(Data("make-sample-media: \(error)\n".utf8))
        return 73
    }
}

func write(_ text: String, to url: URL) throws {
    try OutputFile.writeAtomically(Array(text.utf8), to: url.path)
}

func writeVideo(_ capture: SampleCapture, sim: CaptureSimulation, edits: [Int: Int64], scene: SnailScene, to path: String) throws {
    let settings = VideoWriter.Settings(
        codec: capture.codec, width: SnailScene.width, height: SnailScene.height,
        timeBase: Rational(1, CaptureSimulation.timeScale), frameRate: Rational(60, 1),
        bFrames: capture.bFrames, quality: capture.codec == .hevc ? 30 : 28, gopSize: 120,
        creationTime: SampleSet.creationTime)
    var rewrite: VideoWriter.TimestampRewrite?
    if !edits.isEmpty {
        rewrite = { (index: Int, pts: Int64, dts: Int64) -> (pts: Int64, dts: Int64) in
            (pts: edits[index] ?? pts, dts: dts)
        }
    }
    let writer = try VideoWriter(path: path, settings: settings, rewrite: rewrite)
    let pts = sim.framePTS
    let durations = sim.frameDurations
    for (i, vsync) in sim.emittedVsyncs.enumerated() {
        let image = RGBImage(width: SnailScene.width, height: SnailScene.height, pixels: scene.render(sim.screens[vsync]))
        try writer.append(image, pts: pts[i], duration: durations[i])
    }
    try writer.finish()
}

/// The card as it was on screen at the eight vsyncs around the tap of flip.mov, side by side.
func writeTapFilmstrip(scene: SnailScene, to path: String) throws {
    let sim = CaptureSimulation(SampleSet.captures[0].script)
    guard let tap = sim.evaluations.first(where: { $0.probeNumber == 1 })?.appearsAtVsync else { return }
    let vsyncs = Array((tap - 2)..<(tap + 6))
    let k = SnailScene.card
    let gap = 4
    let stripWidth = vsyncs.count * k.width + (vsyncs.count - 1) * gap
    var strip = RGBImage(width: stripWidth, height: k.height, red: 255, green: 255, blue: 255)
    for (n, v) in vsyncs.enumerated() {
        let screen = scene.render(sim.screens[v])
        for y in 0..<k.height {
            let src = ((k.y + y) * SnailScene.width + k.x) * 3
            let dst = (y * stripWidth + n * (k.width + gap)) * 3
            strip.pixels.replaceSubrange(dst..<(dst + k.width * 3), with: screen[src..<(src + k.width * 3)])
        }
    }
    try PNGEncoder.write(strip, to: path)
}

exit(main())
