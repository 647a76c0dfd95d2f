import MediaIO
import RecordingAnalysis

/// The decoded timings of a recording and its constant-rate grid: what `cfr`, `frame` and
/// `analyze` share.
struct Grid {
    let scan: TimingScan
    let audit: TimestampAudit
    let resampler: CFRResampler
    /// The same rule's grid with FFmpeg's timestamps, when the rule repairs them.
    let ffmpegGrid: CFRMap?

    init(recording: String, rate: Rational, rule: GridRule) throws {
        scan = try TimingScan(path: recording)
        audit = scan.audit
        (resampler, ffmpegGrid) = try Grid.resample(scan, audit: audit, rate: rate, rule: rule)
    }

    /// The grid of an analysis that already decoded the recording.
    init(analysis: CaptureAnalysis) {
        scan = analysis.scan
        audit = analysis.audit
        resampler = analysis.resampler
        ffmpegGrid = analysis.ffmpegGrid
    }

    /// The constant-rate grid of a scan by `rule`, and FFmpeg's grid by the same rule when they may
    /// differ; a grid that cannot be built is bad input (65).
    static func resample(_ scan: TimingScan, audit: TimestampAudit, rate: Rational, rule: GridRule) throws -> (CFRResampler, CFRMap?) {
        let stream = scan.gridStream
        do {
            let resampler = try CFRResampler(frames: scan.frames, stream: stream, rate: rate, hasBFrames: audit.hasBFrames, rule: rule)
            var ffmpeg: CFRMap?
            if rule.timestamps != .ffmpeg {
                // FFmpeg's own grid may be impossible to build (no best-effort timestamp at all): then there is nothing to compare.
                ffmpeg = try? CFRResampler(
                    frames: scan.frames, stream: stream, rate: rate, hasBFrames: audit.hasBFrames,
                    rule: rule.withFFmpegTimestamps
                ).map
            }
            return (resampler, ffmpeg)
        } catch .noTimestamps {
            throw CommandFailure(
                status: .dataError, message: "\(scan.info.path): no frame has a timestamp, so it cannot be placed on a time grid")
        } catch .tooManySlots(let n) {
            throw CommandFailure(
                status: .dataError,
                message: "\(scan.info.path): timestamps span \(n) slots at \(rate.compactDescription) fps; they are corrupt")
        }
    }

    var map: CFRMap { resampler.map }
    var locator: FrameLocator { FrameLocator(frames: scan.frames, map: map, clock: resampler.recordingClock) }
    var report: CFRReport { CFRReport(resampler: resampler, frames: scan.frames, ffmpegGrid: ffmpegGrid, sizeChanges: scan.sizeChanges) }
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
