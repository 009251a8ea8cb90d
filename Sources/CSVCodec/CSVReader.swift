/// Reads RFC 4180 CSV from bytes, one record at a time: fields separated by
/// commas, quoted fields with doubled quotes and line breaks inside, records
/// ended by LF or CRLF (a last record may lack its line break). Each record
/// comes with the line it starts on and the bytes it spans, so a reader can
/// name a line in a message and a merge can copy records byte for byte.
///
/// Bytes are read, not `Character`s: frames.csv can hold millions of rows.
/// Fields are decoded as UTF-8, invalid sequences replaced; a caller that
/// must refuse such bytes checks the data first.
package struct CSVReader {
    /// One record of the input.
    package struct Record: Sendable, Equatable {
        /// The line the record starts on, from 1.
        package var line: Int
        /// Its fields, unquoted.
        package var fields: [String]
        /// The bytes it spans in the input, its line break included.
        package var bytes: Range<Int>

        /// Whether the record is a blank line (one empty, unquoted field).
        package var isBlank: Bool
    }

    private let input: [UInt8]
    private var position = 0
    private var line = 1

    /// A reader of `bytes`.
    package init(_ bytes: some Sequence<UInt8>) {
        input = Array(bytes)
    }

    /// The next record, or `nil` at the end of the input.
    ///
    /// - Complexity: O(*n*) in the record's length.
    package mutating func next() throws(CSVReadError) -> Record? {
        guard position < input.count else { return nil }
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        let start = position, startLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var wasQuoted = false
        var i = position
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while i < input.count {
            let byte = input[i]
            i += 1
            if quoted {
                if byte == quote {
                    if i < input.count, input[i] == quote {
                        field.append(quote)
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == newline { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case quote where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case comma:
                endField()
                wasQuoted = false
            case cr where i < input.count && input[i] == newline:
                continue
            case newline:
                endField()
                line += 1
                position = i
                return Record(
                    line: startLine, fields: fields, bytes: start..<i,
                    isBlank: fields.count == 1 && fields[0].isEmpty && !wasQuoted)
            default:
                field.append(byte)
            }
        }
        guard !quoted else {
            throw CSVReadError(line: startLine, problem: "a quoted field is never closed")
        }
        endField()
        position = i
        return Record(
            line: startLine, fields: fields, bytes: start..<i,
            isBlank: fields.count == 1 && fields[0].isEmpty && !wasQuoted)
    }

    /// Every record of `bytes`.
    ///
    /// - Complexity: O(*n*) in the length of the input.
    package static func records(_ bytes: some Sequence<UInt8>) throws(CSVReadError) -> [Record] {
        var reader = CSVReader(bytes)
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }
}

/// Why a CSV input could not be read, and the line of the record at fault.
package struct CSVReadError: Error, Sendable, Equatable {
    /// The line the faulty record starts on, from 1.
    package var line: Int
    /// What is wrong, as a sentence fragment for `file:line: problem`.
    package var problem: String

    /// A failure on `line` because of `problem`.
    package init(line: Int, problem: String) {
        self.line = line
        self.problem = problem
    }
}
