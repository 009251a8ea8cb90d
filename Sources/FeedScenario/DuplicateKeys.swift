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

    var tokens: JSONTokenReader
    var stack: [Container] = []
    var found: DuplicateKey?

    init(_ bytes: [UInt8]) { tokens = JSONTokenReader(bytes) }

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
                tokens.skipWhitespace()
                guard let top = stack.last else { break }
                switch top {
                case .object:
                    pending = try continueObject()
                case let .array(count):
                    pending = try continueArray(count)
                }
            }
            tokens.skipWhitespace()
            guard tokens.position == tokens.bytes.count else { throw Malformed() }
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
        tokens.skipWhitespace()
        guard tokens.position < tokens.bytes.count else { throw Malformed() }
        switch tokens.bytes[tokens.position] {
        case UInt8(ascii: "{"):
            tokens.position += 1
            tokens.skipWhitespace()
            if tokens.peek(UInt8(ascii: "}")) {
                tokens.position += 1
                return false
            }
            stack.append(.object(keys: [:], key: ""))
            try memberKey()
            return true
        case UInt8(ascii: "["):
            tokens.position += 1
            tokens.skipWhitespace()
            if tokens.peek(UInt8(ascii: "]")) {
                tokens.position += 1
                return false
            }
            stack.append(.array(count: 1))
            return true
        case UInt8(ascii: "\""):
            _ = try tokens.string()
        case UInt8(ascii: "t"):
            try tokens.literal("true")
        case UInt8(ascii: "f"):
            try tokens.literal("false")
        case UInt8(ascii: "n"):
            try tokens.literal("null")
        default:
            try tokens.number()
        }
        return false
    }

    /// Reads `"key":` in the object on top of the stack.
    mutating func memberKey() throws {
        tokens.skipWhitespace()
        guard tokens.peek(UInt8(ascii: "\"")), case .object(var keys, _) = stack.last else { throw Malformed() }
        let keyLine = tokens.line
        let key = try tokens.string()
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
        tokens.skipWhitespace()
        guard tokens.peek(UInt8(ascii: ":")) else { throw Malformed() }
        tokens.position += 1
    }

    /// After a member: `,` and the next key, or `}`. True when a value is
    /// to be read next.
    mutating func continueObject() throws -> Bool {
        guard tokens.position < tokens.bytes.count else { throw Malformed() }
        switch tokens.bytes[tokens.position] {
        case UInt8(ascii: ","):
            tokens.position += 1
            try memberKey()
            return true
        case UInt8(ascii: "}"):
            tokens.position += 1
            stack.removeLast()
            return false
        default:
            throw Malformed()
        }
    }

    /// After an element: `,` and the next element, or `]`. True when a
    /// value is to be read next.
    mutating func continueArray(_ count: Int) throws -> Bool {
        guard tokens.position < tokens.bytes.count else { throw Malformed() }
        switch tokens.bytes[tokens.position] {
        case UInt8(ascii: ","):
            tokens.position += 1
            stack[stack.count - 1] = .array(count: count + 1)
            return true
        case UInt8(ascii: "]"):
            tokens.position += 1
            stack.removeLast()
            return false
        default:
            throw Malformed()
        }
    }
}
