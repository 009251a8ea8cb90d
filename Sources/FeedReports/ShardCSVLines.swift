import CSVCodec
import FeedScenario
import FoundationEssentials

/// The records of a CSV file written by `CSVTable`, cut into consecutive
/// blocks of rows, one block per request, each checked to start with its
/// request's key fields. Blocks are kept as the bytes the part wrote, so the
/// merge copies rows byte for byte.
struct CSVLines {
    private let bytes: [UInt8]
    /// Byte ranges of each block of rows (line breaks included).
    private var blocks: [Range<Int>] = []

    /// The header line of a table with `columns`, as `CSVTable` writes it.
    static func header(_ columns: [String]) -> [UInt8] {
        Array(CSVTable.line(columns).utf8)
    }

    /// Cuts `data` into `sizes`' blocks; with `seeds` (one per block), each
    /// row's field at `seedColumn` must also be its block's seed.
    init(
        _ data: Data, file: String, columns: [String], blocks sizes: [(key: SummaryKey, rows: Int)],
        seeds: [UInt64?]? = nil, seedColumn: Int = 0
    ) throws(ShardMergeError) {
        bytes = [UInt8](data)
        let newline = UInt8(ascii: "\n")
        guard bytes.isEmpty || bytes.last == newline else {
            throw ShardMergeError.file(
                file, line: bytes.count(where: { $0 == newline }) + 1,
                "the last line has no line break; the file was cut short")
        }
        guard bytes.starts(with: CSVLines.header(columns)) else {
            throw ShardMergeError.file(file, line: 1, "the header is not the one `feedsim run` writes")
        }
        // Every row takes at least one byte: any other count is damage, and
        // the sums below cannot overflow.
        if let bad = sizes.first(where: { $0.rows < 0 || $0.rows > bytes.count }) {
            throw ShardMergeError.file(
                file, line: nil,
                "its \(ShardManifest.fileName) gives \(bad.key) \(bad.rows) rows, which the file cannot hold")
        }
        var reader = CSVReader(bytes)
        var records: [(line: Int, key: [String], seed: String, bytes: Range<Int>)] = []
        do {
            _ = try reader.next()
            while let record = try reader.next() {
                guard record.fields.count == columns.count else {
                    throw ShardMergeError.file(
                        file, line: record.line,
                        "the row has \(record.fields.count) fields but the header has \(columns.count) columns")
                }
                records.append((record.line, Array(record.fields.prefix(3)), record.fields[seedColumn], record.bytes))
            }
        } catch let error as CSVReadError {
            throw ShardMergeError.file(file, line: error.line, error.problem)
        } catch let error as ShardMergeError {
            throw error
        } catch {
            throw ShardMergeError.file(file, line: nil, "\(error)")
        }
        let expected = sizes.reduce(0) { $0 + $1.rows }
        guard records.count == expected else {
            // The line where the file and its manifest part: the first row
            // too many, or the end of a file with too few.
            let line = records.count > expected ? records[expected].line : bytes.count(where: { $0 == newline }) + 1
            throw ShardMergeError.file(
                file, line: line,
                "the file has \(records.count) rows but its \(ShardManifest.fileName) accounts for \(expected)")
        }
        var row = 0
        for (block, (key, rows)) in sizes.enumerated() {
            let fields = [key.scenario, key.variant, String(key.refreshHz)]
            let seed = seeds?[block].map { String($0) }
            for record in records[row..<(row + rows)] where record.key != fields || (seed != nil && record.seed != seed)
            {
                let run = seed.map { "\(key), seed \($0)" } ?? "\(key)"
                throw ShardMergeError.file(
                    file, line: record.line, "the row is not one of \(run) as its \(ShardManifest.fileName) says")
            }
            let end = row + rows < records.count ? records[row + rows].bytes.lowerBound : bytes.count
            blocks.append((row < records.count ? records[row].bytes.lowerBound : bytes.count)..<end)
            row += rows
        }
    }

    /// The bytes of block `index`.
    func rows(_ index: Int) -> ArraySlice<UInt8> { bytes[blocks[index]] }
}
