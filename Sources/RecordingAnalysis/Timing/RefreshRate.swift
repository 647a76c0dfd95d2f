/// The display refresh rate a screen recording was captured at, read from its frame times.
///
/// A screen recorder emits frames on the display's refresh ticks (every tick, or only when the
/// screen changed), so every interval between two frames is a whole number of refresh periods.
/// The rate is the lowest common one that explains the intervals: 60 Hz explains 16.7 and 50 ms,
/// 120 Hz is needed for 8.3 ms.
public enum RefreshRate {
    /// Rates tried, in Hz.
    public static let candidates: [Int] = [24, 25, 30, 48, 50, 60, 72, 90, 100, 120, 144, 240]

    /// How the grid's rate was chosen.
    public enum Source: String, Sendable {
        /// `--fps` on the command line.
        case given
        /// Detected from the frame intervals.
        case detected
        /// Neither: too few frames, or intervals that fit no refresh rate; 60 Hz assumed.
        case assumed
    }

    /// The detected rate in Hz: the lowest candidate that explains 95 % of the intervals to within a
    /// tenth of a period (or half a tick of the time base); failing that, the candidate whose period is
    /// within 10 % of the intervals' lower quartile; nil when neither, or fewer than 4 intervals.
    public static func detect(pts: [Int64?], timeBase: Rational) -> Int? {
        let times = Array(Set(pts.compactMap { $0 })).sorted()
        guard times.count >= 5, timeBase.numerator > 0 else { return nil }
        let tick = timeBase.doubleValue
        let intervals = zip(times, times.dropFirst()).map { Double($1 &- $0) * tick }.filter { $0 > 0 && $0 < 10 }
        guard intervals.count >= 4 else { return nil }
        var best: (rate: Int, error: Double)?
        for rate in candidates {
            let period = 1 / Double(rate)
            var fitted = 0
            var totalError = 0.0
            for d in intervals {
                let periods = (d / period).rounded()
                let off = abs(d - periods * period)
                if periods >= 1, off <= max(0.1 * period, 0.5 * tick + 1e-9) { fitted += 1 }
                totalError += min(off / period, 0.5)
            }
            guard Double(fitted) >= 0.95 * Double(intervals.count) else { continue }
            let error = totalError / Double(intervals.count)
            // A multiple of the true rate fits as well; keep the lowest rate among equally good fits.
            if best == nil || error < best!.error - 0.02 { best = (rate, error) }
        }
        if let best { return best.rate }
        // Recorders that stamp frames when they are captured rather than on the refresh tick (Android's
        // screenrecord, desktop screencasts) jitter around the period: take the lower quartile of the
        // intervals, the frame-to-frame time while the screen is busy, if it is near a candidate's period.
        let quartile = intervals.sorted()[intervals.count / 4]
        let nearest = candidates.min { abs(1 / Double($0) - quartile) < abs(1 / Double($1) - quartile) }
        if let nearest, abs(quartile * Double(nearest) - 1) <= 0.1 {
            // Only if a quarter of all intervals are one such period: a cluster, not a coincidence.
            let onePeriod = intervals.filter { abs($0 * Double(nearest) - 1) <= 0.1 }.count
            if 4 * onePeriod >= intervals.count { return nearest }
        }
        return nil
    }
}
