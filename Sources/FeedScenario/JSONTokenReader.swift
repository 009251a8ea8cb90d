/// The tokens of a JSON text (RFC 8259), read from its bytes one at a time:
/// what the scan for repeated keys (`JSONDuplicateKeys`) and the
/// importers' parser share, so that both read strings, numbers and
/// literals by the same rules.
///
/// Strings must be UTF-8 and their escapes well-formed (a high surrogate is
/// followed by a low one); numbers are JSON's, with no leading zero, `+` or
/// bare `.`. The reader counts lines as it skips white space.
package struct JSONTokenReader {
    /// What is wrong with a text and the byte offset where it was found.
    package struct SyntaxError: Error, Equatable, CustomStringConvertible {
        package var offset: Int
        package var problem: String
        package var description: String { "\(problem) at byte \(offset)" }
    }

    /// The text.
    package let bytes: [UInt8]
    /// The offset of the next byte to read.
    package var position = 0
    /// The 1-based line of the next byte, counted over skipped white space.
    package var line = 1

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next byte, if any is left.
    package var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Whether the next byte is `byte`.
    package func peek(_ byte: UInt8) -> Bool {
        position < bytes.count && bytes[position] == byte
    }

    /// `problem`, said of the current position.
    package func failure(_ problem: String) -> SyntaxError {
        SyntaxError(offset: position, problem: problem)
    }

    /// Skips spaces, tabs, carriage returns and line feeds, counting lines.
    package mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                return
            }
            position += 1
        }
    }

    /// Reads `word` (`true`, `false` or `null`).
    package mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw failure("expected \(word)") }
        for i in 0..<count where bytes[position + i] != word.utf8Start[i] { throw failure("expected \(word)") }
        position += count
    }

    /// Reads `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, as RFC 8259
    /// writes numbers, and returns its bytes' range.
    @discardableResult
    package mutating func number() throws(SyntaxError) -> Range<Int> {
        let start = position
        if peek(UInt8(ascii: "-")) { position += 1 }
        if peek(UInt8(ascii: "0")) {
            position += 1
        } else {
            try digits()
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            try digits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            try digits()
        }
        return start..<position
    }

    private mutating func digits() throws(SyntaxError) {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        guard position > start else { throw failure("expected a digit") }
    }

    /// Reads a string token from its opening quote and returns it decoded:
    /// escapes resolved, UTF-8 checked.
    package mutating func string() throws(SyntaxError) -> String {
        position += 1  // the opening quote
        let start = position
        // The common case, a string without escapes, is taken in one piece.
        while position < bytes.count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\"),
            bytes[position] >= 0x20
        {
            position += 1
        }
        var decoded = Array(bytes[start..<position])
        while true {
            guard position < bytes.count else { throw failure("expected the string's closing quote") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: decoded, as: UTF8.self) else {
                    throw failure("expected UTF-8 text in the string")
                }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case 0..<0x20:
                throw failure("expected no control character inside a string")
            default:
                decoded.append(byte)
            }
        }
    }

    /// The escape after a backslash, appended as UTF-8.
    private mutating func escape(into decoded: inout [UInt8]) throws(SyntaxError) {
        guard position < bytes.count else { throw failure("expected an escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by `\u` and a low one.
                guard peek(UInt8(ascii: "\\")), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                else {
                    throw failure("expected a low surrogate after a high one")
                }
                position += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("expected a low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("expected a Unicode scalar") }
            decoded.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw failure("expected an escape: one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
        }
    }

    private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("expected four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("expected four hexadecimal digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
