import Foundation

/// A JSON document with object keys kept in the order they were written, so reports are stable
/// and readable (Foundation's encoders either scramble or alphabetise keys).
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    /// A number printed with at most `decimals` fractional digits (trailing zeros trimmed).
    case number(Double, decimals: Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// An array of `count` values made one at a time as it is written: a long list (every
    /// evaluation of a log) never exists as a tree of values at once.
    case rows(count: Int, row: @Sendable (Int) -> JSONValue)
    /// Already-serialised JSON, embedded verbatim (the caller guarantees it is valid JSON).
    case raw(String)

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized() == rhs.serialized() }

    /// A double rounded for display: milliseconds and seconds keep 3 decimals by default.
    public static func double(_ value: Double, decimals: Int = 3) -> JSONValue { .number(value, decimals: decimals) }

    /// An optional value, `null` when absent.
    public static func optional<T>(_ value: T?, _ transform: (T) -> JSONValue) -> JSONValue {
        value.map(transform) ?? .null
    }

    /// Serialises the value; `indent` > 0 pretty-prints nested containers.
    public func serialized(indent: Int = 0) -> String {
        var out = JSONOutput(sink: nil)
        write(into: &out, indent: indent, level: 0)
        return out.text
    }

    /// Serialises the value into `sink` in pieces of about a megabyte, as `serialized` would write
    /// it whole: a long document never exists as one string.
    public func write(indent: Int = 0, to sink: (String) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var out = JSONOutput(sink: sink)
            write(into: &out, indent: indent, level: 0)
            if !out.text.isEmpty { sink(out.text) }
        }
    }

    private func write(into out: inout JSONOutput, indent: Int, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d, let decimals): out += JSONValue.format(d, decimals: decimals)
        case .string(let s): JSONValue.escape(s, into: &out.text)
        case .raw(let json): out += json
        case .array(let items):
            // Arrays of scalars stay on one line: frame lists and slot maps would be unreadable otherwise.
            let scalar = items.allSatisfy {
                if case .array = $0 { return false }
                if case .object = $0 { return false }
                if case .rows = $0 { return false }
                return true
            }
            if items.isEmpty {
                out += "[]"
                return
            }
            if indent == 0 || scalar {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += indent == 0 ? "," : ", " }
                    item.write(into: &out, indent: indent, level: level + 1)
                }
                out += "]"
            } else {
                out += "[\n"
                for (i, item) in items.enumerated() {
                    out += String(repeating: " ", count: indent * (level + 1))
                    item.write(into: &out, indent: compactIndent(item, indent), level: level + 1)
                    out += i + 1 < items.count ? ",\n" : "\n"
                    out.boundary()
                }
                out += String(repeating: " ", count: indent * level) + "]"
            }
        case .rows(let count, let row):
            guard count > 0 else {
                out += "[]"
                return
            }
            // Rows are alike: scalar rows stay on one line, as in `.array`.
            let inline: Bool = {
                switch row(0) {
                case .array, .object, .rows: return indent == 0
                default: return true
                }
            }()
            out += inline ? "[" : "[\n"
            for i in 0..<count {
                let item = row(i)
                if inline {
                    if i > 0 { out += indent == 0 ? "," : ", " }
                    item.write(into: &out, indent: indent, level: level + 1)
                    out.boundary()
                } else {
                    out += String(repeating: " ", count: indent * (level + 1))
                    item.write(into: &out, indent: compactIndent(item, indent), level: level + 1)
                    out += i + 1 < count ? ",\n" : "\n"
                    out.boundary()
                }
            }
            out += inline ? "]" : String(repeating: " ", count: indent * level) + "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            if indent == 0 {
                out += "{"
                for (i, (key, value)) in members.enumerated() {
                    if i > 0 { out += "," }
                    JSONValue.escape(key, into: &out.text)
                    out += ":"
                    value.write(into: &out, indent: 0, level: level + 1)
                }
                out += "}"
            } else {
                out += "{\n"
                for (i, (key, value)) in members.enumerated() {
                    out += String(repeating: " ", count: indent * (level + 1))
                    JSONValue.escape(key, into: &out.text)
                    out += ": "
                    value.write(into: &out, indent: indent, level: level + 1)
                    out += i + 1 < members.count ? ",\n" : "\n"
                }
                out += String(repeating: " ", count: indent * level) + "}"
            }
        }
    }

    /// Small flat objects inside arrays (one per frame) print on one line each.
    private func compactIndent(_ item: JSONValue, _ indent: Int) -> Int {
        if case .object(let members) = item, members.count <= 12,
            members.allSatisfy({
                if case .object = $0.1 { return false }
                if case .array = $0.1 { return false }
                if case .rows = $0.1 { return false }
                return true
            })
        {
            return 0
        }
        return indent
    }

    static func format(_ d: Double, decimals: Int) -> String {
        guard d.isFinite else { return "null" }
        var s = String(format: "%.\(max(0, decimals))f", d)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s += "0" }
        }
        if s == "-0.0" { s = "0.0" }
        return s
    }

    static func escape(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

/// Where serialised JSON goes: a string kept whole, or handed to a sink whenever about a megabyte
/// has gathered (at element boundaries).
struct JSONOutput {
    var text = ""
    let sink: ((String) -> Void)?

    init(sink: ((String) -> Void)?) { self.sink = sink }

    static func += (lhs: inout JSONOutput, rhs: String) { lhs.text += rhs }

    mutating func boundary() {
        guard let sink, text.utf8.count >= 1 << 20 else { return }
        sink(text)
        text = ""
    }
}
