/// A JSON value whose objects keep their members in the order written, so
/// that a document built from it prints the same text every time.
package indirect enum OrderedJSON: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// A whole number past `Int.max` (a UInt64 bound).
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([OrderedJSON])
    case object([(String, OrderedJSON)])

    /// The value as JSON text, two spaces per level, every member and item on
    /// its own line (the layout of Python's `json.dumps(indent=2)`), no
    /// trailing newline.
    package var text: String {
        var out = ""
        write(to: &out, indent: "")
        return out
    }

    private func write(to out: inout String, indent: String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .int(value): out += String(value)
        case let .unsigned(value): out += String(value)
        case let .number(value): out += Self.numberText(value)
        case let .string(value): out += JSONText.quoted(value)
        case let .array(items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            let inner = indent + "  "
            out += "["
            for (i, item) in items.enumerated() {
                out += (i == 0 ? "\n" : ",\n") + inner
                item.write(to: &out, indent: inner)
            }
            out += "\n" + indent + "]"
        case let .object(members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            let inner = indent + "  "
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                out += (i == 0 ? "\n" : ",\n") + inner + JSONText.quoted(key) + ": "
                value.write(to: &out, indent: inner)
            }
            out += "\n" + indent + "}"
        }
    }

    /// A whole number without a fraction (`86400`, not `86400.0`); any other
    /// number in Swift's shortest form that reads back to the same double.
    static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}

extension OrderedJSON: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(stringLiteral value: String) { self = .string(value) }
    package init(arrayLiteral elements: OrderedJSON...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, OrderedJSON)...) { self = .object(elements) }
}
