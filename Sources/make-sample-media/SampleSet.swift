import Foundation
import MediaIO
import RecordingAnalysis
import SampleScene

/// One capture of the sample set: its simulation, how it is encoded, and its probe logs.
struct SampleCapture {
    var file: String
    var script: CaptureScript
    var codec: VideoWriter.Codec
    var bFrames: Int
    /// Probe logs written for this capture: (file name, console style?).
    var logs: [(String, Bool)]
    /// Pts edits by frame index, computed from the simulation (the timestamp trap).
    var ptsEdits: (CaptureSimulation) -> [Int: Int64] = { _ in [:] }
}

enum SampleSet {
    static let creationTime = "2026-08-20T16:14:21.000000Z"

    static var captures: [SampleCapture] {
        let flip = CaptureScript(name: "flip", formula: .legacy)
        let fixed = CaptureScript(name: "fixed", formula: .clamped)
        // A quick walk: real turnarounds every 1.2 s, besides the cold-start flip.
        let walk = CaptureScript(name: "turns", formula: .legacy, walkPeriod: 2.4, seed: 77)
        return [
            SampleCapture(
                file: "flip.mov", script: flip, codec: .h264, bFrames: 0,
                logs: [("probe.txt", false), ("probe-console.txt", true)]),
            SampleCapture(file: "fixed.mov", script: fixed, codec: .h264, bFrames: 0, logs: [("probe-fixed.txt", false)]),
            SampleCapture(file: "flip-hevc.mov", script: flip, codec: .hevc, bFrames: 3, logs: []),
            SampleCapture(file: "nonmonotonic.mov", script: flip, codec: .h264, bFrames: 0, logs: [], ptsEdits: nonMonotonicEdits),
            SampleCapture(file: "turns.mov", script: walk, codec: .h264, bFrames: 2, logs: [("probe-turns.txt", false)])
        ]
    }

    /// The mirrored frame is presented late (its pts past its successor's), so is a frame 20 later,
    /// and a frame 40 later shares its successor's pts. Dts stay monotonic.
    static func nonMonotonicEdits(_ sim: CaptureSimulation) -> [Int: Int64] {
        let pts = sim.framePTS
        guard let m = sim.emittedVsyncs.firstIndex(where: { !sim.screens[$0].facingRight }), m + 41 < pts.count else { return [:] }
        return [m: pts[m + 1] + 10, m + 20: pts[m + 21] + 10, m + 40: pts[m + 41]]
    }
}
