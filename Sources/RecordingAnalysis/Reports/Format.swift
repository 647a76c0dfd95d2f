import Foundation

/// Number formatting shared by the text reports.
public enum Format {
    /// `4.017 s`
    public static func seconds(_ s: Double) -> String { String(format: "%.3f s", s) }
    /// `66.7 ms`
    public static func milliseconds(_ ms: Double) -> String { String(format: "%.1f ms", ms) }
    /// `1 duplicate`, `2 duplicates`
    public static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

/// Left-aligned columns for the text reports.
public struct TextTable: Sendable {
    private var rows: [[String]] = []
    private let indent: Int

    public init(indent: Int = 0) { self.indent = indent }

    /// A label and its value.
    public mutating func row(_ label: String, _ value: String) { rows.append([label, value]) }
    /// A header row.
    public mutating func header(_ cells: [String]) { rows.append(cells) }
    /// A row of cells.
    public mutating func columns(_ cells: [String]) { rows.append(cells) }

    /// The table, every column padded to its widest cell, trailing spaces trimmed.
    public var rendered: String {
        let count = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: count)
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
