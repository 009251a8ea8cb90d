/// A JSON text (RFC 8259) parsed into a `JSONValue` in one pass over its
/// bytes: what the HAR and timeline importers read. Decoding a `JSONValue`
/// through `JSONDecoder` tries each kind of value in turn and throws for
/// every miss; on a 100,000-entry HAR that took three times as long as the
/// whole import had taken.
///
/// Numbers are read as `Double(_:)` reads their text (correctly rounded);
/// a string's bytes that are not UTF-8 are repaired, as
/// `String(decoding:as:)` repairs them; of a key given twice, the last
/// value is kept. Nesting deeper than `depthLimit` is refused rather than
/// recursed into.
struct JSONParser {
    /// What is wrong with a text, and the byte offset where it was found.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var offset: Int
        var problem: String
        var description: String { "\(problem) at byte \(offset)" }
    }

    /// Arrays and objects nested deeper than this are refused.
    static let depthLimit = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// The value `bytes` holds: one value, with white space around it.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("expected the end of the text") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func failure(_ problem: String) -> Failure {
        Failure(offset: index, problem: problem)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure("expected a value, found the end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("expected a value")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("expected \(word)") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("expected \(word)")
        }
        index += count
        return value
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= JSONParser.depthLimit else {
            throw failure("expected at most \(JSONParser.depthLimit) nested arrays and objects")
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected `:`") }
            index += 1
            skipWhitespace()
            members[key] = try value()
            skipWhitespace()
            guard index < bytes.count else { throw failure("expected `,` or `}`, found the end of the text") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            } else {
                throw failure("expected `,` or `}`")
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw failure("expected `,` or `]`, found the end of the text") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            } else {
                throw failure("expected `,` or `]`")
            }
        }
    }

    /// A string from its opening quote to its closing one, escapes read.
    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // The common case: no escape, copied in one piece.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("expected no control character inside a string") }
            index += 1
        }
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: text, as: UTF8.self)
            }
            guard byte >= 0x20 else { throw failure("expected no control character inside a string") }
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"): text.append(contentsOf: String(try unicodeEscape()).utf8)
            default: throw failure("expected an escape: one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
            }
        }
        throw failure("expected the string's closing quote, found the end of the text")
    }

    /// The character of a `\uXXXX` escape (after its `\u`), a surrogate
    /// pair's two escapes together; a lone surrogate is U+FFFD.
    private mutating func unicodeEscape() throws(Failure) -> Character {
        let first = try hexQuad()
        if (0xD800..<0xDC00).contains(first), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
        {
            let saved = index
            index += 2
            let second = try hexQuad()
            if (0xDC00..<0xE000).contains(second) {
                let scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                return Character(Unicode.Scalar(scalar)!)
            }
            index = saved
        }
        return Character(Unicode.Scalar(first) ?? "\u{FFFD}")
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("expected four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("expected four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number as JSON writes it: `-`, digits without a leading zero, a
    /// fraction, an exponent.
    private mutating func number() throws(Failure) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit after `.`") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected an exponent's digits") }
            skipDigits()
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw failure("expected a number")
        }
        return number
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
}
