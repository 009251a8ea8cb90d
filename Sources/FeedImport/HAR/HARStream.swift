import FoundationEssentials
import SystemSupport

/// Reads a HAR file's `log.entries` one entry at a time, in bounded memory:
/// the file is read in chunks of ``chunkBytes``, everything outside the
/// entries is skipped without being kept, and each entry's bytes are handed
/// on alone (at most ``entryLimitBytes``), to be decoded and dropped.
///
/// `JSONDuplicateKeys` (FeedScenario) scans a whole document held in memory
/// and `CSVCodec` streams lines, not JSON values, so neither fits; this is a
/// byte scanner of its own that knows only what it skips: strings (with
/// escapes), and objects and arrays by depth. An entry's own syntax is
/// checked by the decoder it is handed to.
package struct HARStream {
    /// Bytes read from the file at a time.
    package static let chunkBytes = 1 << 20
    /// The largest single entry accepted (a response body may be inlined).
    package static let entryLimitBytes = 256 << 20

    private let handle: ReadableFile
    private let file: String
    private var buffer: [UInt8] = []
    private var index = 0
    private var finished = false

    /// A reader of the file at `url`, named `file` in problems.
    package init(url: URL, file: String) throws(HARProblem) {
        do {
            handle = try ReadableFile(path: url.path)
        } catch {
            throw HARProblem(
                file: file, path: "$", problem: "expected a readable HAR file (\(error.readableDescription))")
        }
        self.file = file
    }

    /// Calls `body` with each entry's index and bytes, in file order; returns
    /// the number of entries.
    package mutating func forEachEntry(_ body: (Int, [UInt8]) throws(HARProblem) -> Void) throws(HARProblem) -> Int {
        defer { handle.close() }
        var count: Int?
        try expect(UInt8(ascii: "{"), at: "$", what: "an object (a HAR file)")
        var first = true
        while let key = try nextKey(in: "$", first: &first) {
            guard key == "log" else {
                _ = try value(at: "$." + key, keep: false)
                continue
            }
            try expect(UInt8(ascii: "{"), at: "$.log", what: "the `log` object")
            var firstInLog = true
            while let key = try nextKey(in: "$.log", first: &firstInLog) {
                guard key == "entries" else {
                    _ = try value(at: "$.log." + key, keep: false)
                    continue
                }
                count = try entries(at: "$.log.entries", body)
            }
        }
        try skipWhitespace()
        if let byte = try peek() {
            throw problem(at: "$", "expected the end of the file after the top-level object, found \(describe(byte))")
        }
        guard let count else {
            throw problem(at: "$.log.entries", "expected an array of entries (HAR 1.2 `log.entries`), found none")
        }
        return count
    }

    /// The next member name of the object at `path` whose `{` was read, its
    /// `:` read too; `nil` after the closing `}`.
    private mutating func nextKey(in path: String, first: inout Bool) throws(HARProblem) -> String? {
        try skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return nil
        }
        if !first { try expect(UInt8(ascii: ","), at: path, what: "`,` or `}`") }
        first = false
        try expect(UInt8(ascii: "\""), at: path, what: "a member name")
        let key = try string(at: path)
        try expect(UInt8(ascii: ":"), at: path + "." + key, what: "`:`")
        return key
    }

    /// Reads the entries array at `path`, handing each entry to `body`.
    private mutating func entries(
        at path: String, _ body: (Int, [UInt8]) throws(HARProblem) -> Void
    ) throws(HARProblem) -> Int {
        try expect(UInt8(ascii: "["), at: path, what: "an array of entries")
        var count = 0
        while true {
            try skipWhitespace()
            if try peek() == UInt8(ascii: "]") {
                index += 1
                return count
            }
            if count > 0 {
                try expect(UInt8(ascii: ","), at: "\(path)[\(count - 1)]", what: "`,` or `]` after the entry")
            }
            try skipWhitespace()
            let entryPath = "\(path)[\(count)]"
            guard try peek() == UInt8(ascii: "{") else {
                throw problem(at: entryPath, "expected an entry object, found \(describe(try peek()))")
            }
            try body(count, try value(at: entryPath, keep: true))
            count += 1
        }
    }

    /// Skips one value at `path`, or returns its bytes when `keep` is set.
    private mutating func value(at path: String, keep: Bool) throws(HARProblem) -> [UInt8] {
        try skipWhitespace()
        var kept: [UInt8] = []
        var (depth, started, inString, escaped) = (0, false, false, false)
        while true {
            guard let byte = try peek() else {
                throw problem(
                    at: path, "expected the rest of the value, found the end of the file (is the file cut short?)")
            }
            if started && depth == 0 && !inString && (Self.isWhitespace(byte) || Self.isDelimiter(byte)) { return kept }
            index += 1
            started = true
            if keep {
                kept.append(byte)
                guard kept.count <= Self.entryLimitBytes else {
                    throw problem(
                        at: path, "expected an entry of at most \(Self.entryLimitBytes) bytes, found a longer one")
                }
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return kept }
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                guard depth >= 0 else { throw problem(at: path, "expected a value, found \(describe(byte))") }
                if depth == 0 { return kept }
            }
        }
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }

    /// The rest of a string whose opening quote was read, escapes kept as written.
    private mutating func string(at path: String) throws(HARProblem) -> String {
        var bytes: [UInt8] = []
        var escaped = false
        while true {
            guard let byte = try peek() else {
                throw problem(
                    at: path, "expected the end of a string, found the end of the file (is the file cut short?)")
            }
            index += 1
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.append(byte)
        }
    }

    /// Skips whitespace, then reads `byte` or fails saying `what` was expected.
    private mutating func expect(_ byte: UInt8, at path: String, what: String) throws(HARProblem) {
        try skipWhitespace()
        let found = try peek()
        guard found == byte else { throw problem(at: path, "expected \(what), found \(describe(found))") }
        index += 1
    }

    private mutating func skipWhitespace() throws(HARProblem) {
        while let byte = try peek(), Self.isWhitespace(byte) { index += 1 }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The next byte without consuming it, reading a chunk when the buffer
    /// is spent; `nil` at the end of the file.
    private mutating func peek() throws(HARProblem) -> UInt8? {
        if index < buffer.count { return buffer[index] }
        if finished { return nil }
        let chunk: Data
        do {
            chunk = try handle.read(upToCount: Self.chunkBytes)
        } catch {
            throw problem(at: "$", "expected a readable file (\(error.readableDescription))")
        }
        guard !chunk.isEmpty else {
            finished = true
            return nil
        }
        buffer = [UInt8](chunk)
        index = 0
        return buffer[0]
    }

    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the file (is the file cut short?)" }
        return byte >= 0x20 && byte < 0x7F
            ? "`\(Character(Unicode.Scalar(byte)))`"
            : "byte 0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    private func problem(at path: String, _ text: String) -> HARProblem {
        HARProblem(file: file, path: path, problem: text)
    }
}
