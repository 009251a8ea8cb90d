import CSVCodec
import Testing

/// The writer and the reader agree on every table, and the reader gives the
/// lines and bytes that messages and merges rely on.
@Suite struct CSVCodecTests {
    /// Fields built from the characters that need quoting, in every small
    /// combination: a table of them reads back field for field.
    @Test func everySmallTableReadsBackAsWritten() throws {
        let pieces = ["", "a", ",", "\"", "\n", "\r", "\r\n", " ", "é"]
        var fields = pieces
        for first in pieces { for second in pieces { fields.append(first + second) } }
        for (i, field) in fields.enumerated() {
            let other = fields[(i * 7 + 3) % fields.count]
            var table = CSVTable(columns: ["x", "y"])
            table.append([field, other])
            table.append([other, field])
            let records = try CSVReader.records(Array(table.text.utf8))
            #expect(records.map(\.fields) == [["x", "y"], [field, other], [other, field]],
                    "fields \(field.debugDescription) and \(other.debugDescription)")
        }
    }

    @Test func recordsNameTheLineTheyStartOnAndTheirBytes() throws {
        let text = "a,b\n\"two\nlines\",c\r\nlast,row"
        let bytes = Array(text.utf8)
        let records = try CSVReader.records(bytes)
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(records.map(\.fields) == [["a", "b"], ["two\nlines", "c"], ["last", "row"]])
        // The byte ranges tile the input: a merge can copy records verbatim.
        #expect(records.map { String(decoding: bytes[$0.bytes], as: UTF8.self) } == ["a,b\n", "\"two\nlines\",c\r\n", "last,row"])
    }

    @Test func blankLinesAreRecordsMarkedBlank() throws {
        let records = try CSVReader.records(Array("a\n\n\"\"\n".utf8))
        #expect(records.map(\.isBlank) == [false, true, false])
        #expect(records.map(\.fields) == [["a"], [""], [""]])
    }

    @Test func anUnclosedQuoteNamesTheLineItOpensOn() {
        #expect(throws: CSVReadError(line: 2, problem: "a quoted field is never closed")) {
            _ = try CSVReader.records(Array("a,b\n1,\"open\n\n".utf8))
        }
    }

    @Test func emptyInputHasNoRecords() throws {
        #expect(try CSVReader.records([UInt8]()).isEmpty)
    }

    @Test func aCarriageReturnInsideAnUnquotedFieldIsKept() throws {
        #expect(try CSVReader.records(Array("a\rb,c\n".utf8)).map(\.fields) == [["a\rb", "c"]])
    }
}
