/// A wall-clock time as users and probe logs write it, kept as seconds since 2001-01-01 UTC
/// (Apple's reference date, what `Date()` prints in a probe line).
///
/// Accepted forms: ISO 8601 with a zone (`2026-08-20T16:14:25.315Z`, `…+02:00`), reference-date
/// seconds (`808935265.31518`), and Unix seconds written `@1787242465.315`.
public struct WallTime: Sendable, Equatable, Comparable {
    /// Seconds since 2001-01-01 00:00:00 UTC.
    public var referenceSeconds: Double

    public init(referenceSeconds: Double) { self.referenceSeconds = referenceSeconds }

    /// The accepted forms, for error messages.
    public static let acceptedForms =
        "2026-08-20T16:14:25.315Z (ISO 8601 with a zone), 808935265.31518 (seconds since 2001, as Date() prints) or @1787242465.315 (Unix seconds)"

    /// Seconds between the Unix epoch and the reference date.
    public static let unixOffset = 978_307_200.0

    /// Parses one of the accepted forms; nil for anything else, including an ISO time without a zone
    /// (ambiguous) and plain numbers too small to be reference-date seconds (a recording time).
    public init?(parsing text: String) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("@") {
            guard let unix = Double(t.dropFirst()), unix.isFinite, unix > 0, unix < 1e11 else { return nil }
            referenceSeconds = unix - WallTime.unixOffset
            return
        }
        if let value = Double(t) {
            // Under a year after 2001 is far more likely a recording time than a wall time.
            guard value.isFinite, value > 3.2e7, value < 1e10 else { return nil }
            referenceSeconds = value
            return
        }
        guard let (seconds, zoned, rest) = LogRecord.timestamp(Substring(t)), zoned, rest.isEmpty else { return nil }
        referenceSeconds = seconds
    }

    /// `2026-08-20T16:14:25.315Z`.
    public var iso8601: String {
        let unix = referenceSeconds + WallTime.unixOffset
        let whole = unix.rounded(.down)
        var millis = Int(((unix - whole) * 1000).rounded())
        var secondsOfDay = Int(whole)
        if millis == 1000 {
            millis = 0
            secondsOfDay += 1
        }
        let days = secondsOfDay >= 0 ? secondsOfDay / 86_400 : (secondsOfDay - 86_399) / 86_400
        let rem = secondsOfDay - days * 86_400
        let (y, m, d) = WallTime.civil(fromDays: days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(y)-\(two(m))-\(two(d))T\(two(rem / 3600)):\(two(rem % 3600 / 60)):\(two(rem % 60)).\(ms)Z"
    }

    static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    public static func < (a: WallTime, b: WallTime) -> Bool { a.referenceSeconds < b.referenceSeconds }
}
