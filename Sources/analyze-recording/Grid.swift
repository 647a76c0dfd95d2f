import MediaIO
import RecordingAnalysis

/// The decoded timings of a recording and its constant-rate grid: what `cfr`, `frame` and
/// `analyze` share.
struct Grid {
    let scan: TimingScan
    let audit: TimestampAudit
    let resampler: CFRResampler

    init(recording: String, rate: Rational) throws {
        scan = try TimingScan(path: recording)
        audit = scan.audit
        resampler = try Grid.resample(scan, audit: audit, rate: rate)
    }

    /// The constant-rate grid of a scan; a grid that cannot be built is bad input (65).
    static func resample(_ scan: TimingScan, audit: TimestampAudit, rate: Rational) throws -> CFRResampler {
        do {
            return try CFRResampler(frames: scan.frames, timeBase: scan.info.timeBase, rate: rate,
                                    hasBFrames: audit.hasBFrames, fallbackDuration: scan.fallbackFrameDuration)
        } catch .noTimestamps {
            throw CommandFailure(status: .dataError, message: "\(scan.info.path): no frame has a timestamp, so it cannot be placed on a time grid")
        } catch .tooManySlots(let n) {
            throw CommandFailure(status: .dataError, message: "\(scan.info.path): timestamps span \(n) slots at \(rate.compactDescription) fps; they are corrupt")
        }
    }

    var map: CFRMap { resampler.map }
    var locator: FrameLocator { FrameLocator(frames: scan.frames, timeBase: scan.info.timeBase, map: map) }
}

/// Parses `--fps` (`60`, `30000/1001`); default 60.
func parseRate(_ text: String?) throws(UsageError) -> Rational {
    guard let text else { return Rational(60, 1) }
    guard let rate = Rational(parsing: text), rate.doubleValue >= 1, rate.doubleValue <= 1000 else {
        throw UsageError("--fps must be a rate between 1 and 1000 such as 60 or 30000/1001, not '\(text)'")
    }
    return rate
}

/// Parses a time such as `4.05`, `4.05s`, `4050ms`.
func parseTime(_ text: String, option: String) throws(UsageError) -> TimeArgument {
    guard let time = TimeArgument(parsing: text) else {
        throw UsageError("\(option) takes a time such as 4.05, 4.05s or 4050ms, not '\(text)'")
    }
    return time
}
