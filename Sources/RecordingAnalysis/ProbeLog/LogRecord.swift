import Foundation

/// One record of a log the probe lines come in: its message and, when the log's style carries them,
/// when it was logged and by whom.
///
/// The wrappers (the probe lines themselves are read by `ProbeLog`), one per style, as `log(1)` and
/// Xcode print them:
/// - plain: the article's lines, `#01  skew=… | old=… | new=…`, nothing around them;
/// - Xcode console: `2026-08-20 16:14:24.600388+0000 Tinnitus[48213:2117734] MESSAGE`;
/// - `log show`/`log stream` default: `2026-08-20 16:14:24.600388+0000 0x2050e6  Default  0x0  48213  0
///   Tinnitus: (Library) [subsystem:category] MESSAGE`;
/// - compact: `2026-08-20 16:14:24.600 Df Tinnitus[48213:2050e6] (Library) [subsystem:category] MESSAGE`
///   (local time without a zone: its times are not used);
/// - syslog: `2026-08-20 16:14:24.600388+0000  localhost Tinnitus[48213]: (Library) [subsystem:category] MESSAGE`;
/// - json (`log show --style json`: an array of objects) and ndjson (one object per line), with
///   `eventMessage`, `timestamp`, `processImagePath`, `processID`, `subsystem`, `category`.
public struct LogRecord: Sendable, Equatable {
    /// Line number of the record's start in the log.
    public var line: Int
    public var message: Substring
    /// When it was logged, seconds since 2001-01-01 UTC (Apple's reference date); nil without a zone.
    public var wallTime: Double?
    /// The logging process's name.
    public var process: String?
    /// `subsystem:category`, when the style shows it.
    public var source: String?

    public init(line: Int, message: Substring, wallTime: Double? = nil, process: String? = nil, source: String? = nil) {
        self.line = line
        self.message = message
        self.wallTime = wallTime
        self.process = process
        self.source = source
    }

    /// The styles a probe log can come in.
    public enum Style: String, Sendable, CaseIterable {
        case plain
        case xcodeConsole = "xcode-console"
        case logDefault = "log-default"
        case logCompact = "log-compact"
        case logSyslog = "log-syslog"
        case logJSON = "log-json"
        case logNDJSON = "log-ndjson"
    }

    /// Reads one text line in any of the text styles; a line without a leading timestamp is plain.
    public static func parse(_ text: Substring, line: Int) -> (LogRecord, Style) {
        guard let (time, zoned, afterTime) = timestamp(text) else { return (LogRecord(line: line, message: text), .plain) }
        let wall = zoned ? time : nil
        func record(_ process: String?, _ rest: Substring, _ style: Style) -> (LogRecord, Style) {
            let (source, message) = sourceAndMessage(rest)
            return (LogRecord(line: line, message: message, wallTime: wall, process: process, source: source), style)
        }
        // Default: thread, type, activity, pid, ttl, then "Process: ".
        let (five, afterFive) = tokens(afterTime, 5)
        if five.count == 5, five[0].hasPrefix("0x"), five[2].hasPrefix("0x"), Int(five[3]) != nil, Int(five[4]) != nil,
            let colon = afterFive.range(of: ": ")
        {
            return record(String(afterFive[..<colon.lowerBound]), afterFive[colon.upperBound...], .logDefault)
        }
        let (two, afterTwo) = tokens(afterTime, 2)
        // Compact: a two-letter type, then Process[pid:tid].
        if two.count == 2, ["Df", "In", "Db", "Er", "Fa", "Ac", "Sp"].contains(String(two[0])), let process = bracketedProcess(two[1]) {
            return record(process, afterTwo, .logCompact)
        }
        // Syslog: host, then Process[pid]:.
        if two.count == 2, two[1].hasSuffix(":"), let process = bracketedProcess(two[1].dropLast()) {
            return record(process, afterTwo, .logSyslog)
        }
        // Xcode console: Process[pid:tid] MESSAGE.
        let (one, afterOne) = tokens(afterTime, 1)
        if let first = one.first, let process = bracketedProcess(first) {
            return record(process, afterOne, .xcodeConsole)
        }
        return (LogRecord(line: line, message: text, wallTime: wall), .plain)
    }

    /// The first `n` space-separated tokens of `text` and what follows them (leading spaces dropped).
    static func tokens(_ text: Substring, _ n: Int) -> ([Substring], Substring) {
        var found: [Substring] = []
        var rest = text.drop { $0 == " " || $0 == "\t" }
        while found.count < n, !rest.isEmpty {
            let token = rest.prefix { $0 != " " && $0 != "\t" }
            found.append(token)
            rest = rest[token.endIndex...].drop { $0 == " " || $0 == "\t" }
        }
        return (found, rest)
    }

    /// Reads one JSON log object (`log --style json/ndjson`); nil when it is not one.
    public static func parseJSON(_ bytes: Substring.UTF8View, line: Int) -> LogRecord? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let message = object["eventMessage"] as? String ?? object["composedMessage"] as? String
        else { return nil }
        var wall: Double?
        if let t = object["timestamp"] as? String, let (time, zoned, _) = timestamp(Substring(t)), zoned { wall = time }
        let process = (object["processImagePath"] as? String).map { ($0 as NSString).lastPathComponent }
        var source: String?
        if let subsystem = object["subsystem"] as? String, !subsystem.isEmpty {
            source = subsystem + ":" + ((object["category"] as? String) ?? "")
        }
        return LogRecord(line: line, message: Substring(message), wallTime: wall, process: process, source: source)
    }

    /// `(subsystem:category)` and the message after an optional `(Library)` and `[subsystem:category]`.
    static func sourceAndMessage(_ text: Substring) -> (String?, Substring) {
        var rest = text.drop { $0 == " " }
        if rest.first == "(", let close = rest.firstIndex(of: ")"), !rest[..<close].contains(" ") {
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
        }
        if rest.first == "[", let close = rest.firstIndex(of: "]") {
            let inside = rest[rest.index(after: rest.startIndex)..<close]
            if inside.contains(":"), !inside.contains(" ") {
                return (String(inside), rest[rest.index(after: close)...].drop { $0 == " " })
            }
        }
        return (nil, rest)
    }

    /// `Tinnitus[48213:2117734]` or `Tinnitus[48213]` → `Tinnitus`.
    static func bracketedProcess(_ token: Substring) -> String? {
        guard token.hasSuffix("]"), let open = token.firstIndex(of: "[") else { return nil }
        let inside = token[token.index(after: open)..<token.index(before: token.endIndex)]
        guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "x" }), open > token.startIndex else { return nil }
        return String(token[..<open])
    }

    /// `2026-08-20 16:14:24.600388+0000` at the start of `text`: seconds since 2001-01-01 UTC (local
    /// clock reading when there is no zone), whether it had a zone, and the rest of the text.
    static func timestamp(_ text: Substring) -> (Double, Bool, Substring)? {
        let u = Array(text.utf8.prefix(40))
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= u.count else { return nil }
            var v = 0
            for i in at..<(at + n) {
                guard u[i] >= 48, u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        guard let year = digits(0, 4), u.count > 19, u[4] == 45, let month = digits(5, 2), u[7] == 45, let day = digits(8, 2),
            u[10] == 32 || u[10] == 84, let hour = digits(11, 2), u[13] == 58, let minute = digits(14, 2), u[16] == 58,
            let second = digits(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < u.count, u[i] == 46 {
            var scale = 0.1
            i += 1
            while i < u.count, u[i] >= 48, u[i] <= 57 {
                fraction += Double(u[i] - 48) * scale
                scale /= 10
                i += 1
            }
        }
        var zoned = false
        var offset = 0
        if i < u.count, u[i] == 43 || u[i] == 45, let hh = digits(i + 1, 2) {
            var mm = digits(i + 3, 2)
            var length = 5
            if mm == nil, i + 5 < u.count, u[i + 3] == 58 {
                mm = digits(i + 4, 2)
                length = 6
            }
            if let mm {
                offset = (hh * 60 + mm) * 60 * (u[i] == 45 ? -1 : 1)
                zoned = true
                i += length
            }
        } else if i < u.count, u[i] == 90 {
            zoned = true
            i += 1
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let unix = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        let rest = text.utf8.dropFirst(i)
        return (unix - 978_307_200, zoned, Substring(rest))
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
