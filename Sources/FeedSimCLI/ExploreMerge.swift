import CSVCodec
import FeedExplore
import FeedReports
import FeedScenario
import FoundationEssentials
import Glibc
import SystemSupport

/// The rows of a sharded exploration's parts put back in session order, as
/// the files stream past: part K of N holds the sessions whose index i has
/// i % N == K-1, each session's rows together, so the whole file is the
/// parts' rows merged by session index (a k-way merge holding one record of
/// each part). Rows are copied as the bytes the parts wrote, so the merged
/// explore.csv and violations.csv are byte-identical to one whole
/// exploration's.
enum ExploreMerge {
    /// One part's file being read.
    private struct Cursor {
        var folder: String
        var shard: Int
        var file: String
        var handle: ReadableFile
        var records: CSVRecordStream
        var current: (session: Int, record: CSVRecordStream.Record)?
        var rows = 0
        var lastSession = -1
    }

    /// Merges the file `name` of every part (in shard order, `parts[k]`
    /// being part k + 1 of `parts.count`) into `into`, after `header`, and
    /// returns how many rows each part gave. The first column of every row
    /// must be a session of its part, in order.
    static func merge(_ name: String, header: [String], parts: [String], into: StreamedFile) throws -> [Int] {
        var cursors: [Cursor] = []
        defer { for cursor in cursors { cursor.handle.close() } }
        let headerLine = Array(CSVTable.line(header).utf8)
        for (k, folder) in parts.enumerated() {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
            let file = url.relativePath
            let handle: ReadableFile
            do {
                handle = try ReadableFile(path: url.path)
            } catch {
                throw FileProblem(
                    file: file, line: nil,
                    problem: "cannot be read (\(error.readableDescription)); its part did not finish")
            }
            var cursor = Cursor(
                folder: folder, shard: k + 1, file: file, handle: handle, records: CSVRecordStream(handle: handle))
            cursors.append(cursor)
            guard let first = try read(&cursor), first.bytes == headerLine else {
                throw FileProblem(file: file, line: 1, problem: "the header is not the one `feedsim explore` writes")
            }
            try advance(&cursor, count: parts.count)
            cursors[k] = cursor
        }
        try into.append(headerLine)
        while let next = cursors.indices.filter({ cursors[$0].current != nil }).min(by: {
            cursors[$0].current!.session < cursors[$1].current!.session
        }) {
            try into.append(cursors[next].current!.record.bytes)
            cursors[next].rows += 1
            try advance(&cursors[next], count: parts.count)
        }
        return cursors.map(\.rows)
    }

    private static func read(_ cursor: inout Cursor) throws -> CSVRecordStream.Record? {
        do {
            return try cursor.records.next()
        } catch {
            throw FileProblem(file: cursor.file, line: error.line, problem: error.problem)
        }
    }

    /// Reads the cursor's next row and its session's index.
    private static func advance(_ cursor: inout Cursor, count: Int) throws {
        guard let record = try read(&cursor) else {
            cursor.current = nil
            return
        }
        guard let session = sessionIndex(record.bytes) else {
            throw FileProblem(
                file: cursor.file, line: record.line, problem: "the row does not start with a session (session-N)")
        }
        guard session % count == cursor.shard - 1, session >= cursor.lastSession else {
            throw FileProblem(
                file: cursor.file, line: record.line,
                problem: "session \(session) is not the next of part \(cursor.shard)/\(count)")
        }
        cursor.lastSession = session
        cursor.current = (session, record)
    }

    /// The index N of a row whose first field is `session-N` (as
    /// `SessionGenerator.name(of:)` writes it).
    static func sessionIndex(_ bytes: [UInt8]) -> Int? {
        let prefix = Array("session-".utf8)
        guard bytes.starts(with: prefix) else { return nil }
        var index = 0
        var digits = 0
        for byte in bytes[prefix.count...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            guard digits < 9 else { return nil }
            index = index * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0, prefix.count + digits < bytes.count, bytes[prefix.count + digits] == UInt8(ascii: ",") else {
            return nil
        }
        return index
    }
}
