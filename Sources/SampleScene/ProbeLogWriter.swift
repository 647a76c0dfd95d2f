import Foundation

/// Writes the FlipProbe log of a simulated capture, as the story's app printed it.
public enum ProbeLogWriter {
    /// The article's format: a baseline summary, the arming line, then one `#NN` line per evaluation.
    public static func article(_ sim: CaptureSimulation) -> String {
        var out = ""
        let skews = sim.baseline.map(\.skew)
        if let first = skews.max(), let last = skews.min() {
            let negative = skews.filter { $0 < 0 }.count
            let note = negative == skews.count ? "all \(skews.count) frames negative" : "\(negative) of \(skews.count) frames negative"
            out += String(format: "base #01..#%02d  skew(t-now) = %+.5f … %+.5f      ← %@\n", skews.count, first, last, note)
        }
        out += String(format: "armed  walkOrigin=%.5f\n", sim.walkOrigin)
        for e in sim.probed {
            out += String(format: "#%02d  ", e.probeNumber ?? 0) + probeLine(e, period: sim.script.walkPeriod) + "\n"
        }
        return out
    }

    /// As Xcode's console shows it: a date, time and `App[pid:tid]` prefix on every line, no counters,
    /// one baseline sample per line, and unrelated app output mixed in.
    public static func console(_ sim: CaptureSimulation, app: String = "Tinnitus", pid: Int = 48213, tid: Int = 2117734) -> String {
        var lines: [(Double, String)] = []
        for e in sim.baseline { lines.append((e.now, String(format: "base skew(t-now)=%+.5f", e.skew))) }
        let start = sim.script.wallStart
        lines.append((start + 0.012, "[SceneCard] TimelineView(.animation(minimumInterval: 0.05)) started"))
        lines.append((start + 0.251, "AudioSession: category=playback mode=default active=false"))
        lines.append((sim.walkOrigin - 0.0004, "SoundRow tapped: rain"))
        lines.append((sim.walkOrigin, String(format: "armed walkOrigin=%.5f", sim.walkOrigin)))
        lines.append((sim.walkOrigin + 0.0101, "Player: loading rain.m4a (loop 90.0 s)"))
        lines.append((sim.walkOrigin + 0.3303, "AudioSession: category=playback mode=default active=true"))
        for (i, e) in sim.probed.enumerated() {
            lines.append((e.now, probeLine(e, period: sim.script.walkPeriod)))
            if i % 25 == 24 { lines.append((e.now + 0.002, "[Memory] footprint 84.\(i % 10) MB")) }
        }
        lines.sort { $0.0 < $1.0 }
        return lines.map { timestamp($0.0) + " \(app)[\(pid):\(tid)] " + $0.1 + "\n" }.joined()
    }

    /// `skew=… elapsed=… | old=… ←L | new=… →R`
    static func probeLine(_ e: Evaluation, period: Double) -> String {
        let elapsed = e.elapsed ?? 0
        let old = WalkFormula.legacy.phase(elapsed: elapsed, period: period)
        let new = WalkFormula.clamped.phase(elapsed: elapsed, period: period)
        return String(
            format: "skew=%+.5f  elapsed=%+.5f | old=%.5f %@ | new=%.5f %@",
            e.skew, elapsed, old, arrow(old), new, arrow(new))
    }

    static func arrow(_ phase: Double) -> String { WalkFormula.facesRight(phase: phase) ? "→R" : "←L" }

    /// `2026-08-20 14:14:25.345660+0000` for seconds since 2001-01-01 UTC, computed without a calendar
    /// library call whose output could depend on the machine's locale or time zone.
    static func timestamp(_ reference: Double) -> String {
        let unix = reference + 978_307_200
        let seconds = Int64(unix.rounded(.down))
        let micros = Int64(((unix - Double(seconds)) * 1_000_000).rounded(.down))
        var days = seconds / 86_400
        let secondOfDay = seconds % 86_400
        // Civil-from-days (Howard Hinnant's algorithm).
        days += 719_468
        let era = days / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        var year = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        if month <= 2 { year += 1 }
        return String(
            format: "%04lld-%02lld-%02lld %02lld:%02lld:%02lld.%06lld+0000", year, month, day,
            secondOfDay / 3600, (secondOfDay / 60) % 60, secondOfDay % 60, micros)
    }
}
