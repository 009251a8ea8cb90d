import FoundationEssentials
import SystemSupport

/// Reads the records of a CSV file as it streams past, a chunk at a time:
/// a file of any length is read holding one chunk and one record. Each
/// record comes as the bytes the file holds (line break included), so a
/// merge can copy it byte for byte, with the line it starts on; `fields`
/// parses it as `CSVReader` does.
package struct CSVRecordStream {
    /// One record: its bytes and the line it starts on.
    package struct Record {
        /// The line the record starts on, from 1.
        package var line: Int
        /// Its bytes, line break included (a last record may lack one).
        package var bytes: [UInt8]

        /// The record parsed as `CSVReader` reads it.
        package func parsed() throws(CSVReadError) -> CSVReader.Record {
            var reader = CSVReader(bytes)
            do {
                guard var record = try reader.next() else {
                    return CSVReader.Record(line: line, fields: [""], bytes: 0..<0, isBlank: true)
                }
                record.line = line
                return record
            } catch {
                throw CSVReadError(line: line, problem: error.problem)
            }
        }
    }

    /// Bytes read from the file at a time.
    static let chunkBytes = 1 << 16

    private let handle: ReadableFile
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private var line = 1

    /// A stream of the records of the file `handle` reads; the caller closes it.
    package init(handle: ReadableFile) {
        self.handle = handle
    }

    /// The next record, or `nil` at the end of the file.
    ///
    /// - Throws: `CSVReadError` when a quoted field is never closed, or the
    ///   file cannot be read.
    /// - Complexity: O(*n*) in the record's length.
    package mutating func next() throws(CSVReadError) -> Record? {
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n")
        var quoted = false
        var i = position
        var lines = 0
        while true {
            if i == buffer.count {
                if atEnd { break }
                // Keep the record read so far, drop what was before it.
                buffer.removeSubrange(0..<position)
                i -= position
                position = 0
                let chunk: Data
                do {
                    chunk = try handle.read(upToCount: CSVRecordStream.chunkBytes)
                } catch {
                    throw CSVReadError(line: line, problem: "the file cannot be read (\(error.readableDescription))")
                }
                guard !chunk.isEmpty else {
                    atEnd = true
                    break
                }
                buffer.append(contentsOf: chunk)
                continue
            }
            let byte = buffer[i]
            i += 1
            if byte == quote { quoted.toggle() }
            if byte == newline {
                lines += 1
                if !quoted {
                    let record = Record(line: line, bytes: Array(buffer[position..<i]))
                    line += lines
                    position = i
                    return record
                }
            }
        }
        guard position < buffer.count else { return nil }
        guard !quoted else { throw CSVReadError(line: line, problem: "a quoted field is never closed") }
        let record = Record(line: line, bytes: Array(buffer[position...]))
        line += lines
        position = buffer.count
        return record
    }
}
