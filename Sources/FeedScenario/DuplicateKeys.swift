/// A key that appears twice in one JSON object, where, and on which lines.
package struct DuplicateKey: Sendable, Equatable {
    /// The JSON path of the repeated member, `$.feed.post_count`, in the
    /// notation `ScenarioError` uses.
    package var path: String
    /// The key as decoded (escapes resolved).
    package var key: String
    /// The 1-based line of the first occurrence.
    package var firstLine: Int
    /// The 1-based line of the repetition.
    package var line: Int

    /// What a reader is told: both lines and the rule.
    package var expected: String {
        "expected each key once per object, found `\(key)` twice (lines \(firstLine) and \(line))"
    }
}

/// Finds repeated keys in JSON objects.
///
/// Foundation's `JSONDecoder` keeps one of two members with the same key
/// and says nothing, and other readers keep the other one (Python's `json`
/// the last), so one file would mean two different scenarios. RFC 8259
/// leaves such objects' meaning undefined; FeedSim refuses them. The scan is
/// a tokenizer with an explicit stack, so no nesting depth can exhaust the
/// call stack; a document that is not well-formed JSON has no verdict here,
/// and the decoder reports its syntax error instead.
package enum JSONDuplicateKeys {
    /// The first repeated key in document order, or `nil` when every object's
    /// keys are distinct or `bytes` is not well-formed JSON.
    ///
    /// - Complexity: O(*n*) for *n* bytes, plus hashing of the keys.
    package static func first<Bytes: Collection<UInt8>>(in bytes: Bytes) -> DuplicateKey? {
        var scanner = _Scanner(Array(bytes))
        return scanner.scan()
    }
}

/// The tokenizer behind `JSONDuplicateKeys`.
private struct _Scanner {
    /// An open container and what has been seen in it. Paths are not kept
    /// per container, which would cost memory quadratic in the nesting
    /// depth; the stack spells the path when a duplicate is found.
    enum Container {
        /// An object: the keys read so far, with their lines, and the
        /// latest key, under which the value being read sits.
        case object(keys: [String: Int], key: String)
        /// An array: how many elements have been started.
        case array(count: Int)
    }

    struct Malformed: Error {}

    let bytes: [UInt8]
    var position = 0
    var line = 1
    var stack: [Container] = []
    var found: DuplicateKey?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func scan() -> DuplicateKey? {
        do {
            // Whether a value is still to be read; the loop, not recursion,
            // walks into containers.
            var pending = true
            while true {
                if pending {
                    pending = try value()
                    continue
                }
                skipWhitespace()
                guard let top = stack.last else { break }
                switch top {
                case .object:
                    pending = try continueObject()
                case let .array(count):
                    pending = try continueArray(count)
                }
            }
            skipWhitespace()
            guard position == bytes.count else { throw Malformed() }
            return found
        } catch {
            return nil
        }
    }

    // MARK: Containers

    /// The JSON path of the container on top of the stack.
    var path: String {
        var path = "$"
        for container in stack.dropLast() {
            switch container {
            case let .object(_, key): path += "." + key
            case let .array(count): path += "[\(count - 1)]"
            }
        }
        return path
    }

    /// Reads the value starting here. A scalar is read whole; a non-empty
    /// container is opened and left on the stack, and true returned: its
    /// first value is to be read next.
    mutating func value() throws -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw Malformed() }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            skipWhitespace()
            if peek(UInt8(ascii: "}")) {
                position += 1
                return false
            }
            stack.append(.object(keys: [:], key: ""))
            try memberKey()
            return true
        case UInt8(ascii: "["):
            position += 1
            skipWhitespace()
            if peek(UInt8(ascii: "]")) {
                position += 1
                return false
            }
            stack.append(.array(count: 1))
            return true
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        default:
            try number()
        }
        return false
    }

    /// Reads `"key":` in the object on top of the stack.
    mutating func memberKey() throws {
        skipWhitespace()
        guard peek(UInt8(ascii: "\"")), case .object(var keys, _) = stack.last else { throw Malformed() }
        let keyLine = line
        let key = try string()
        if let firstLine = keys[key] {
            if found == nil {
                found = DuplicateKey(path: path + "." + key, key: key, firstLine: firstLine, line: keyLine)
            }
        } else {
            // Emptied first so that the dictionary is not copied on insert.
            stack[stack.count - 1] = .array(count: 0)
            keys[key] = keyLine
        }
        stack[stack.count - 1] = .object(keys: keys, key: key)
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { throw Malformed() }
        position += 1
    }

    /// After a member: `,` and the next key, or `}`. True when a value is
    /// to be read next.
    mutating func continueObject() throws -> Bool {
        guard position < bytes.count else { throw Malformed() }
        switch bytes[position] {
        case UInt8(ascii: ","):
            position += 1
            try memberKey()
            return true
        case UInt8(ascii: "}"):
            position += 1
            stack.removeLast()
            return false
        default:
            throw Malformed()
        }
    }

    /// After an element: `,` and the next element, or `]`. True when a
    /// value is to be read next.
    mutating func continueArray(_ count: Int) throws -> Bool {
        guard position < bytes.count else { throw Malformed() }
        switch bytes[position] {
        case UInt8(ascii: ","):
            position += 1
            stack[stack.count - 1] = .array(count: count + 1)
            return true
        case UInt8(ascii: "]"):
            position += 1
            stack.removeLast()
            return false
        default:
            throw Malformed()
        }
    }

    // MARK: Tokens

    func peek(_ byte: UInt8) -> Bool {
        position < bytes.count && bytes[position] == byte
    }

    mutating func skipWhitespace() {
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

    mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw Malformed() }
        for i in 0..<count where bytes[position + i] != word.utf8Start[i] { throw Malformed() }
        position += count
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, as RFC 8259 writes numbers.
    mutating func number() throws {
        func digits() throws(Malformed) {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            guard position > start else { throw Malformed() }
        }
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
    }

    /// A string token, decoded: escapes resolved, UTF-8 checked.
    mutating func string() throws -> String {
        position += 1  // the opening quote
        var decoded: [UInt8] = []
        while true {
            guard position < bytes.count else { throw Malformed() }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: decoded, as: UTF8.self) else { throw Malformed() }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case 0..<0x20:
                throw Malformed()
            default:
                decoded.append(byte)
            }
        }
    }

    /// The escape after a backslash, appended as UTF-8.
    mutating func escape(into decoded: inout [UInt8]) throws {
        guard position < bytes.count else { throw Malformed() }
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
                    throw Malformed()
                }
                position += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw Malformed() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Malformed() }
            decoded.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw Malformed()
        }
    }

    mutating func hexQuad() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw Malformed() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = hexDigit(bytes[position]) else { throw Malformed() }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
