/// A JSON value with object keys kept in the order they were written, so output is stable
/// and reads in a sensible order.
public indirect enum JSON: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// A number rounded to `decimals` places (nearest double to the decimal value, so it prints
    /// short), or null when not finite.
    public static func number(_ value: Double?, decimals: Int) -> JSON {
        guard let value, value.isFinite else { return .null }
        return .number(round(value, decimals: decimals))
    }

    /// `value` rounded half away from zero to `decimals` places (`NumberFormatting.rounded`).
    public static func round(_ value: Double, decimals: Int) -> Double {
        NumberFormatting.rounded(value, decimals: decimals)
    }

    /// Compact when `indent` is nil, else pretty with that many spaces per level.
    public func serialized(indent: Int? = 2) -> String {
        var out = ""
        write(to: &out, indent: indent, level: 0)
        return out
    }

    private func write(to out: inout String, indent: Int?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let v): out += JSON.format(v)
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += "," }
                newline(&out, indent, level + 1)
                item.write(to: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent, level)
            out += "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (k, (key, value)) in members.enumerated() {
                if k > 0 { out += "," }
                newline(&out, indent, level + 1)
                JSON.writeString(key, to: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent, level)
            out += "}"
        }
    }

    private func newline(_ out: inout String, _ indent: Int?, _ level: Int) {
        guard let indent else { return }
        out += "\n" + String(repeating: " ", count: indent * level)
    }

    /// A number as JSON writes it: `NumberFormatting.shortest` (the shortest round-trip
    /// decimal, whole numbers without a fraction; Swift's description is valid JSON for finite
    /// values), and `null` for NaN and infinities, which JSON cannot hold.
    public static func format(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        return NumberFormatting.shortest(v)
    }

    public static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Plain fixed-point numbers for CSV: no grouping, `.` as the decimal mark, `nan` never
/// written (an absent value is an empty field).
public enum Fixed {
    /// `value` rounded to `decimals` places and written short (`NumberFormatting.rounded`,
    /// then `.shortest`): `-119.5234567` at 4 decimals is `-119.5235`, `1200.0` is `1200`; an
    /// empty field for nil, NaN and infinities.
    public static func format(_ value: Double?, decimals: Int) -> String {
        guard let value, value.isFinite else { return "" }
        return NumberFormatting.shortest(NumberFormatting.rounded(value, decimals: decimals))
    }
}
