import CSVCodec
import Foundation
import SystemSupport
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
            #expect(
                records.map(\.fields) == [["x", "y"], [field, other], [other, field]],
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
        #expect(
            records.map { String(decoding: bytes[$0.bytes], as: UTF8.self) } == [
                "a,b\n", "\"two\nlines\",c\r\n", "last,row",
            ])
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

    /// A file streamed a chunk at a time gives the records `CSVReader`
    /// gives for its bytes, with their lines and bytes, though records and
    /// quoted line breaks straddle the chunks (64 KiB).
    @Test func aStreamedFileGivesTheRecordsOfItsBytes() throws {
        var table = CSVTable(columns: ["session", "detail"])
        for row in 0..<9_000 {
            table.append([
                "session-\(row)", row % 5 == 0 ? "two\nlines, \"quoted\"" : String(repeating: "x", count: row % 17),
            ])
        }
        for text in [table.text, table.text + "last,row"] {
            let bytes = Array(text.utf8)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "csv-stream-\(ProcessInfo.processInfo.processIdentifier).csv")
            try Data(bytes).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let handle = try ReadableFile(path: url.path)
            defer { handle.close() }
            var stream = CSVRecordStream(handle: handle)
            var streamed: [CSVRecordStream.Record] = []
            while let record = try stream.next() { streamed.append(record) }
            let expected = try CSVReader.records(bytes)
            #expect(bytes.count > 3 * 65_536, "the file spans several chunks")
            #expect(streamed.count == expected.count)
            #expect(streamed.map(\.line) == expected.map(\.line))
            #expect(streamed.map(\.bytes) == expected.map { Array(bytes[$0.bytes]) })
            #expect(try streamed.map { try $0.parsed().fields } == expected.map(\.fields))
        }
    }

    @Test func aCarriageReturnInsideAnUnquotedFieldIsKept() throws {
        #expect(try CSVReader.records(Array("a\rb,c\n".utf8)).map(\.fields) == [["a\rb", "c"]])
    }
}
