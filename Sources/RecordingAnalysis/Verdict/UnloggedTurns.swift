/// The video sprite's turns (lasting changes of facing) that the probe log's sprite does not make:
/// where the log was written at the moment of the turn and neither formula changes facing anywhere
/// the wall-clock mapping's uncertainty allows, the sprite in view is another one than the probe's.
///
/// Auto mode follows the first thing it sees mirror in place. In a scene with a second sprite that
/// turns for real, while the probe's sprite flips too faintly to be seen, it follows the second
/// sprite: it shows no flip, and the log's legacy flip looks missing from the video, which reads as
/// the fix. A turn the log does not make is what gives that away, so the log's answer is not taken.
public enum UnloggedTurns {
    /// The turns of `timeline` surely inside the stretch `log` was written in, on `mapping`, split by
    /// whether one of its formulas changes facing there (`made`: the sprite in view is the probe's)
    /// or neither does (`notMade`: it is another one); turns before or after that stretch are in
    /// neither list. `toleranceMS` widens every window (a frame is shown at the vsync after the
    /// evaluation that drew it).
    public static func split(
        _ timeline: OrientationTimeline, log: ProbeLog, mapping: WallClockMapping, toleranceMS: Double
    ) -> (made: [OrientationTimeline.Turn], notMade: [OrientationTimeline.Turn]) {
        let evaluations = log.evaluations
        guard let origin = log.walkOrigin, evaluations.count >= 2, !timeline.turns.isEmpty else { return ([], []) }
        // An evaluation at wall time w ran at recording time recordingSeconds(w) − earlier … + later.
        let times = evaluations.map { mapping.recordingSeconds(WallTime(referenceSeconds: origin + $0.nowSinceOrigin)) }
        let slack = toleranceMS / 1000
        guard let first = times.min(), let last = times.max() else { return ([], []) }
        // A change of either formula's facing happened after the evaluation before it and by its own.
        var changes: [ClosedRange<Double>] = []
        for i in 1..<evaluations.count
        where evaluations[i].oldFacing != evaluations[i - 1].oldFacing || evaluations[i].newFacing != evaluations[i - 1].newFacing {
            let from = min(times[i - 1], times[i]) - mapping.earlier - slack
            let to = max(times[i - 1], times[i]) + mapping.later + slack
            changes.append(from...to)
        }
        var made: [OrientationTimeline.Turn] = []
        var notMade: [OrientationTimeline.Turn] = []
        for turn in timeline.turns {
            let t = timeline.map.seconds(ofSlot: turn.slot)
            // Surely inside the stretch the log was written in.
            guard t > first + mapping.later + slack, t < last - mapping.earlier - slack else { continue }
            if changes.contains(where: { $0.contains(t) }) { made.append(turn) } else { notMade.append(turn) }
        }
        return (made, notMade)
    }
}
