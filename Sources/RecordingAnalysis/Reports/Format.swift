import Foundation

/// Number formatting shared by the text reports.
public enum Format {
    /// `4.017 s`
    public static func seconds(_ s: Double) -> String { String(format: "%.3f s", s) }
    /// `66.7 ms`
    public static func milliseconds(_ ms: Double) -> String { String(format: "%.1f ms", ms) }
    /// A match score beside the bar it missed, `0.84`: two decimals, rounded down, so a score just
    /// below the bar never reads as reaching it (0.8499 against 0.85 needed). The 1e-5 is the
    /// single-precision error of a score (0.7 is stored as 0.69999999), not a rounding up.
    public static func score(_ value: Float) -> String {
        String(format: "%.2f", (Double(value) * 100 + 1e-5).rounded(.down) / 100)
    }
    /// `1 duplicate`, `2 duplicates`
    public static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The first `limit` items joined with commas, then how many more (a text report stays short;
    /// the JSON has them all).
    /// `total` counts the items when only the first ones were made.
    public static func list(_ items: [String], limit: Int = 10, total: Int? = nil) -> String {
        let total = total ?? items.count
        return total <= limit
            ? items.joined(separator: ", ")
            : items.prefix(limit).joined(separator: ", ") + " and \(total - limit) more (all in the JSON)"
    }
}

/// Left-aligned columns for the text reports.
public struct TextTable: Sendable {
    private var rows: [[String]] = []
    private let indent: Int

    private let labelWidth: Int

    /// `labelWidth` pads the first column to at least that many characters, so that tables printed
    /// one after another line up.
    public init(indent: Int = 0, labelWidth: Int = 0) {
        self.indent = indent
        self.labelWidth = labelWidth
    }

    /// A label and its value.
    public mutating func row(_ label: String, _ value: String) { rows.append([label, value].map(TextTable.terminalSafe)) }
    /// A header row.
    public mutating func header(_ cells: [String]) { rows.append(cells.map(TextTable.terminalSafe)) }
    /// A row of cells.
    public mutating func columns(_ cells: [String]) { rows.append(cells.map(TextTable.terminalSafe)) }

    /// Control characters shown as escapes (`\u{1B}` as `\e`, others as `\xNN` or `\u{NNNN}`): a
    /// string from a file (a `creation_time` tag, a log line, a file name) could otherwise move the
    /// cursor, hide text or print a fake verdict on the terminal. Every report cell goes through here.
    public static func terminalSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\u{1B}" {
                out += "\\e"
            } else if isControl(scalar) {
                out +=
                    scalar.value < 0x100
                    ? "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
                    : "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || s.value == 0x7F || (0x80...0x9F).contains(s.value)
            || [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].contains(s.value)
    }

    /// The table, every column padded to its widest cell, trailing spaces trimmed.
    public var rendered: String {
        let count = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: count)
        if count > 1 { widths[0] = labelWidth }
        for r in rows { for (i, c) in r.enumerated() where i < r.count - 1 { widths[i] = max(widths[i], c.count) } }
        var out = ""
        for r in rows {
            var line = String(repeating: " ", count: indent)
            for (i, c) in r.enumerated() {
                line += c
                if i < r.count - 1 { line += String(repeating: " ", count: widths[i] - c.count + 2) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
