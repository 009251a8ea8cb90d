import FeedScenario

/// A JSON text (RFC 8259) parsed into a `JSONValue` in one pass over its
/// bytes: what the HAR and timeline importers read. Decoding a `JSONValue`
/// through `JSONDecoder` tries each kind of value in turn and throws for
/// every miss; on a 100,000-entry HAR that took three times as long as the
/// whole import had taken.
///
/// Tokens are read by `JSONTokenReader`, by the rules the scenario reader's
/// scan for repeated keys uses. Numbers are read as `Double(_:)` reads
/// their text (correctly rounded); of a key given twice, the last value is
/// kept. Nesting deeper than `depthLimit` is refused rather than recursed
/// into.
struct JSONParser {
    typealias Failure = JSONTokenReader.SyntaxError

    /// Arrays and objects nested deeper than this are refused.
    static let depthLimit = 512

    private var tokens: JSONTokenReader
    private var depth = 0

    /// The value `bytes` holds: one value, with white space around it.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(tokens: JSONTokenReader(bytes))
        let value = try parser.value()
        parser.tokens.skipWhitespace()
        guard parser.tokens.next == nil else { throw parser.tokens.failure("expected the end of the text") }
        return value
    }

    private init(tokens: JSONTokenReader) {
        self.tokens = tokens
    }

    private mutating func value() throws(Failure) -> JSONValue {
        tokens.skipWhitespace()
        switch tokens.next {
        case UInt8(ascii: "{"): return .object(try members())
        case UInt8(ascii: "["): return .array(try elements())
        case UInt8(ascii: "\""): return .string(try tokens.string())
        case UInt8(ascii: "t"):
            try tokens.literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try tokens.literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try tokens.literal("null")
            return .null
        case nil: throw tokens.failure("expected a value, found the end of the text")
        default:
            let text = tokens.bytes[try tokens.number()]
            guard let number = Double(String(decoding: text, as: UTF8.self)) else {
                throw tokens.failure("expected a number")
            }
            return .number(number)
        }
    }

    /// Opens an array or object at the next byte; true when it closes at once.
    private mutating func open(closedBy close: UInt8) throws(Failure) -> Bool {
        depth += 1
        guard depth <= JSONParser.depthLimit else {
            throw tokens.failure("expected at most \(JSONParser.depthLimit) nested arrays and objects")
        }
        tokens.position += 1
        tokens.skipWhitespace()
        guard tokens.peek(close) else { return false }
        tokens.position += 1
        depth -= 1
        return true
    }

    /// After a member or an element: true after `,`, false after `close`.
    private mutating func another(closedBy close: UInt8) throws(Failure) -> Bool {
        tokens.skipWhitespace()
        switch tokens.next {
        case UInt8(ascii: ","):
            tokens.position += 1
            return true
        case close:
            tokens.position += 1
            depth -= 1
            return false
        default:
            throw tokens.failure("expected `,` or `\(Character(Unicode.Scalar(close)))`")
        }
    }

    private mutating func members() throws(Failure) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        if try open(closedBy: UInt8(ascii: "}")) { return members }
        repeat {
            tokens.skipWhitespace()
            guard tokens.peek(UInt8(ascii: "\"")) else { throw tokens.failure("expected a key") }
            let key = try tokens.string()
            tokens.skipWhitespace()
            guard tokens.peek(UInt8(ascii: ":")) else { throw tokens.failure("expected `:`") }
            tokens.position += 1
            members[key] = try value()
        } while try another(closedBy: UInt8(ascii: "}"))
        return members
    }

    private mutating func elements() throws(Failure) -> [JSONValue] {
        var elements: [JSONValue] = []
        if try open(closedBy: UInt8(ascii: "]")) { return elements }
        repeat {
            elements.append(try value())
        } while try another(closedBy: UInt8(ascii: "]"))
        return elements
    }
}
