import Foundation

/// How one sample capture is made: which formula drives the sprite, how fast it walks, and the
/// seed of the clock jitter.
public struct CaptureScript: Sendable {
    public var name: String
    /// The formula that drives what the app renders (the log always shows both).
    public var formula: WalkFormula
    /// Seconds per round trip (the story: 90 s).
    public var walkPeriod: Double = 90
    /// Length of the recording in seconds.
    public var duration: Double = 8.0
    /// The tap follows the evaluation at this vsync (4.0 s at 60 Hz).
    public var tapAfterVsync: Int = 240
    /// How long after the previous evaluation's timeline date the tap lands: the first elapsed is minus this.
    public var tapDelay: Double = 0.0152
    /// Seed of the timeline lag and processing jitter.
    public var seed: UInt64 = 2027
    /// Wall clock at the first vsync of the recording, in seconds since 2001-01-01 UTC.
    public var wallStart: Double = 808_935_261.30000

    public init(name: String, formula: WalkFormula, walkPeriod: Double = 90, duration: Double = 8.0, seed: UInt64 = 2027) {
        self.name = name
        self.formula = formula
        self.walkPeriod = walkPeriod
        self.duration = duration
        self.seed = seed
    }
}

/// One evaluation of the TimelineView body.
public struct Evaluation: Sendable {
    /// Wall clock `Date()` when the body ran.
    public var now: Double
    /// `timeline.date` it was given.
    public var t: Double
    /// The vsync at which its content appears (the first vsync after `now`).
    public var appearsAtVsync: Int
    /// 1-based counter after the tap (the probe's `#NN`), nil before.
    public var probeNumber: Int?
    /// `t - walkOrigin`, after the tap.
    public var elapsed: Double?
    public var oldPhase: Double?
    public var newPhase: Double?
    /// The screen it produced.
    public var state: SnailScreenState

    public var skew: Double { t - now }
}

/// The simulated app, display and `simctl io recordVideo` of the story, as pure functions of a script.
///
/// - Display refresh at 60 Hz; the TimelineView body runs every third vsync (20 Hz) with
///   `t = timeline.date`, which lags `Date()` by about 0.5 ms, sometimes 15–27 ms.
/// - The tap sets `walkOrigin = Date()` and re-runs the body at once with the previous timeline
///   date, so the first elapsed is negative; the next evaluation is the first vsync at least 50 ms later.
/// - An evaluation's content appears at the next vsync after it ran and stays until the next one's appears.
/// - The recorder emits a frame at a vsync only when the screen changed; pts are vsync × 10 in 1/600.
public struct CaptureSimulation: Sendable {
    public static let refreshRate = 60
    public static let evaluationEveryVsyncs = 3
    public static let minimumInterval = 0.05
    public static let timeScale: Int64 = 600
    public static let fadeDuration = 0.6

    public let script: CaptureScript
    /// All evaluations in the order they ran.
    public let evaluations: [Evaluation]
    /// The evaluations before the tap whose skews the probe prints as the baseline (the last 15).
    public let baseline: [Evaluation]
    /// `walkOrigin`, the wall clock at the tap.
    public let walkOrigin: Double
    /// Vsyncs in the recording.
    public let vsyncCount: Int
    /// For every vsync, the screen shown.
    public let screens: [SnailScreenState]
    /// The vsyncs at which the recorder emitted a frame (pts = vsync × 10 in 1/600).
    public let emittedVsyncs: [Int]

    public init(_ script: CaptureScript) {
        self.script = script
        let rate = Double(CaptureSimulation.refreshRate)
        let vsyncCount = Int((script.duration * rate).rounded())
        self.vsyncCount = vsyncCount
        func vsyncTime(_ k: Int) -> Double { script.wallStart + Double(k) / rate }
        func firstVsync(after wall: Double) -> Int { Int(((wall - script.wallStart) * rate).rounded(.down)) + 1 }

        var rng = SplitMix64(seed: script.seed)
        var evaluations: [Evaluation] = []
        var nextEvaluation = 0
        var tapped = false
        var origin = 0.0
        var probeCount = 0
        var regularCount = 0
        var delayNext = false

        func state(t: Double, walking: Bool) -> (SnailScreenState, Double?, Double?, Double?) {
            let rows = min(6, regularCount + 1)
            guard walking else {
                return (
                    SnailScreenState(
                        rowsRevealed: rows, playing: false, fade: 0, rainTime: 0,
                        spriteX: SnailScene.spriteX(tri: 0), facingRight: true), nil, nil, nil
                )
            }
            let elapsed = t - origin
            let old = WalkFormula.legacy.phase(elapsed: elapsed, period: script.walkPeriod)
            let new = WalkFormula.clamped.phase(elapsed: elapsed, period: script.walkPeriod)
            let phase = script.formula == .legacy ? old : new
            let fade = smoothstep(elapsed / CaptureSimulation.fadeDuration)
            let s = SnailScreenState(
                rowsRevealed: rows, playing: true, fade: fade, rainTime: fade > 0 ? t - script.wallStart : 0,
                spriteX: SnailScene.spriteX(tri: WalkFormula.triangle(phase: phase)),
                facingRight: WalkFormula.facesRight(phase: phase))
            return (s, elapsed, old, new)
        }

        for k in 0..<vsyncCount where k == nextEvaluation {
            let lag = rng.uniform(0...1) < 0.2 ? rng.uniform(0.015...0.027) : rng.uniform(0.00001...0.001)
            var delay = rng.uniform(0.0001...0.0006)
            if delayNext {
                delay += 0.010
                delayNext = false
            }  // the first rain frame is heavier to build
            let now = vsyncTime(k) + delay
            let t = now - lag
            let (s, elapsed, old, new) = state(t: t, walking: tapped)
            var e = Evaluation(
                now: now, t: t, appearsAtVsync: firstVsync(after: now), probeNumber: nil,
                elapsed: elapsed, oldPhase: old, newPhase: new, state: s)
            if tapped {
                probeCount += 1
                e.probeNumber = probeCount
            }
            evaluations.append(e)
            regularCount += 1
            nextEvaluation = k + CaptureSimulation.evaluationEveryVsyncs

            if !tapped && k == script.tapAfterVsync {
                // The tap: origin = Date(), then the body runs again with the previous timeline date.
                tapped = true
                origin = max(t + script.tapDelay, now + 0.0005)
                let probeNow = origin + 0.00026
                let (ts, te, to, tn) = state(t: t, walking: true)
                probeCount = 1
                evaluations.append(
                    Evaluation(
                        now: probeNow, t: t, appearsAtVsync: firstVsync(after: probeNow), probeNumber: 1,
                        elapsed: te, oldPhase: to, newPhase: tn, state: ts))
                nextEvaluation = max(k + 1, firstVsync(after: probeNow + CaptureSimulation.minimumInterval) - 1)
                // firstVsync(after:) is strictly after; a vsync exactly at now + 50 ms also qualifies.
                if vsyncTime(nextEvaluation) < probeNow + CaptureSimulation.minimumInterval { nextEvaluation += 1 }
                delayNext = true
            }
        }
        self.evaluations = evaluations
        walkOrigin = origin
        let beforeTap = evaluations.filter { $0.probeNumber == nil }
        baseline = Array(beforeTap.suffix(15))

        let initial = SnailScreenState(
            rowsRevealed: 0, playing: false, fade: 0, rainTime: 0,
            spriteX: SnailScene.spriteX(tri: 0), facingRight: true)
        var screens: [SnailScreenState] = []
        screens.reserveCapacity(vsyncCount)
        var current = initial
        var next = 0
        for k in 0..<vsyncCount {
            while next < evaluations.count && evaluations[next].appearsAtVsync <= k {
                current = evaluations[next].state
                next += 1
            }
            screens.append(current)
        }
        self.screens = screens
        var emitted: [Int] = []
        for k in 0..<vsyncCount where k == 0 || screens[k] != screens[emitted[emitted.count - 1]] {
            emitted.append(k)
        }
        emittedVsyncs = emitted
    }

    /// Pts of the emitted frames in 1/600 (vsync × 10).
    public var framePTS: [Int64] { emittedVsyncs.map { Int64($0) * CaptureSimulation.timeScale / Int64(CaptureSimulation.refreshRate) } }

    /// Duration of each emitted frame in 1/600: until the next frame, the last one until the end.
    public var frameDurations: [Int64] {
        let pts = framePTS
        let end = Int64(vsyncCount) * CaptureSimulation.timeScale / Int64(CaptureSimulation.refreshRate)
        return pts.indices.map { i in (i + 1 < pts.count ? pts[i + 1] : end) - pts[i] }
    }

    /// Evaluations the probe logs (after the tap).
    public var probed: [Evaluation] { evaluations.filter { $0.probeNumber != nil } }
}
