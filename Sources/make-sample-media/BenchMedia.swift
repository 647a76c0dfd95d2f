import Foundation
import MediaIO
import RecordingAnalysis
import SampleScene

/// Long native-resolution captures for `make bench`: the snail scene at 3x (1206 x 2622, an iPhone
/// 15 Pro simulator capture), a frame at every 60 Hz vsync, with rain falling over the whole screen
/// so that every frame changes everywhere and decoding is real work. The legacy formula drives the
/// sprite, so the capture has the flip at the tap.
enum BenchMedia {
    static let width = 1206
    static let height = 2622

    static func write(to dir: URL, seconds: Int, codecs: [VideoWriter.Codec]) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var script = CaptureScript(name: "bench", formula: .legacy)
        script.duration = Double(seconds)
        let sim = CaptureSimulation(script)
        let scene = SnailScene()
        for codec in codecs {
            guard VideoWriter.isAvailable(codec) else {
                print("skipping \(codec.rawValue): no encoder in this FFmpeg build")
                continue
            }
            let path = dir.appendingPathComponent("bench-\(codec.rawValue)-\(seconds)s.mov").path
            let settings = VideoWriter.Settings(
                codec: codec, width: width, height: height, timeBase: Rational(1, 600),
                frameRate: Rational(60, 1), bFrames: codec == .hevc ? 3 : 0,
                quality: codec == .hevc ? 30 : 26, gopSize: 240, threads: 0)
            let writer = try VideoWriter(path: path, settings: settings, preset: codec == .hevc ? "ultrafast" : "veryfast")
            var cache: (SnailScreenState, RGBImage)?
            for k in 0..<sim.vsyncCount {
                let state = sim.screens[k]
                let base: RGBImage
                if let c = cache, c.0 == state {
                    base = c.1
                } else {
                    let small = RGBImage(width: SnailScene.width, height: SnailScene.height, pixels: scene.render(state))
                    base = try FrameExtraction.scaled(small, width: width, height: height)
                    cache = (state, base)
                }
                var frame = base
                drawRain(into: &frame, time: Double(k) / 60)
                try writer.append(frame, pts: Int64(k) * 10, duration: 10)
            }
            try writer.finish()
            print("\(path): \(sim.vsyncCount) frames")
        }
    }

    /// A UI-only capture for the bench's "no sprite" class: the distractor scene (list scrolling,
    /// paging, a push, a keyboard) at 3x, looping for `seconds`, a frame at every 60 Hz vsync.
    static func writeUI(to dir: URL, seconds: Int) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("bench-ui-\(seconds)s.mov").path
        let w = UIDistractorScene.width * 3, h = UIDistractorScene.height * 3
        let settings = VideoWriter.Settings(
            codec: .h264, width: w, height: h, timeBase: Rational(1, 600), frameRate: Rational(60, 1),
            bFrames: 0, quality: 24, gopSize: 240, threads: 0)
        let writer = try VideoWriter(path: path, settings: settings, preset: "veryfast")
        let loop = Int(UIDistractorScene.duration * 60)
        var rendered: [Int: RGBImage] = [:]
        for k in 0..<(seconds * 60) {
            let n = k % loop
            if rendered[n] == nil {
                let small = RGBImage(
                    width: UIDistractorScene.width, height: UIDistractorScene.height, pixels: UIDistractorScene.render(at: Double(n) / 60))
                rendered[n] = try FrameExtraction.scaled(small, width: w, height: h)
            }
            try writer.append(rendered[n]!, pts: Int64(k) * 10, duration: 10)
        }
        try writer.finish()
        print("\(path): \(seconds * 60) frames")
    }

    /// Streaks 3 px wide falling over the whole screen, drawn straight into the RGB bytes.
    static func drawRain(into image: inout RGBImage, time: Double) {
        var rng = SplitMix64(seed: 99)
        let w = image.width, h = image.height
        image.pixels.withUnsafeMutableBufferPointer { p in
            for _ in 0..<500 {
                let x0 = rng.uniform(0...Double(w - 8)), y0 = rng.uniform(0...Double(h)), speed = rng.uniform(900...1500)
                let length = Int(rng.uniform(30...60))
                let top = Int((y0 + speed * time).truncatingRemainder(dividingBy: Double(h + 80))) - 60
                for dy in 0..<length {
                    let y = top + dy
                    guard y >= 0, y < h else { continue }
                    let x = Int(x0) + dy / 6
                    guard x + 3 < w else { continue }
                    for dx in 0..<3 {
                        let i = (y * w + x + dx) * 3
                        p[i] = UInt8((Int(p[i]) + 200) / 2)
                        p[i + 1] = UInt8((Int(p[i + 1]) + 215) / 2)
                        p[i + 2] = UInt8((Int(p[i + 2]) + 240) / 2)
                    }
                }
            }
        }
    }
}
