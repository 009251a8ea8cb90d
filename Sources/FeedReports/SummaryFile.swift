import CSVCodec
import FeedScenario
import FoundationEssentials
import SystemSupport

/// What identifies one run in `summary.csv`: the scenario, the variant and
/// the refresh rate. Keys order by scenario, then variant, then refresh rate
/// (numerically), which is the order reports list them in.
package struct SummaryKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The scenario's name.
    package var scenario: String
    /// The variant's name within the scenario.
    package var variant: String
    /// The display refresh rate in hertz.
    package var refreshHz: Int

    /// A key from its three parts.
    package init(scenario: String, variant: String, refreshHz: Int) {
        self.scenario = scenario
        self.variant = variant
        self.refreshHz = refreshHz
    }

    /// Orders by scenario, variant, then refresh rate.
    package static func < (lhs: SummaryKey, rhs: SummaryKey) -> Bool {
        (lhs.scenario, lhs.variant, lhs.refreshHz) < (rhs.scenario, rhs.variant, rhs.refreshHz)
    }

    /// The key as people read it: `scenario / variant @ 60 Hz`.
    package var description: String { "\(scenario) / \(variant) @ \(refreshHz) Hz" }
}

/// What identifies one run of a multi-seed summary: its key and its seed.
struct SummaryRunID: Hashable {
    var key: SummaryKey
    var seed: UInt64
}

/// One value of a summary row: the column's name and the field exactly as
/// the file holds it.
package struct SummaryField: Hashable, Sendable {
    /// The column name.
    package var name: String
    /// The field's text, unchanged, so reports show what the file says.
    package var value: String

    /// A field from its column name and text.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The value as a number, or `nil` when it is not one (`trace_digest`).
    package var number: Double? { SummaryFile.parseNumber(value) }
}

/// One run's row of `summary.csv`.
package struct SummaryRow: Hashable, Sendable {
    /// The row's identity.
    package var key: SummaryKey
    /// The seed the run used; not a metric, so never compared.
    package var seed: UInt64
    /// Every column other than the key columns and `seed`, in file order.
    package var metrics: [SummaryField]
    /// The line of the file the row starts on (the header is line 1).
    package var line: Int

    /// A row from its parts.
    package init(key: SummaryKey, seed: UInt64, metrics: [SummaryField], line: Int) {
        self.key = key
        self.seed = seed
        self.metrics = metrics
        self.line = line
    }

    /// The field of `metric`, or `nil` when the row has no such column.
    ///
    /// - Complexity: O(*m*) for *m* metrics.
    package func value(of metric: String) -> String? {
        metrics.first { $0.name == metric }?.value
    }
}

/// A problem that keeps a summary file from being read: which file, which
/// line (when one line is at fault) and what is wrong, in words.
package struct SummaryFileError: FileDiagnostic, Equatable, Sendable {
    /// The kinds of problem, so a command can map them to exit codes.
    package enum Kind: Sendable, Equatable {
        /// The file does not exist.
        case missingFile
        /// The file exists but cannot be read or is not CSV.
        case unreadable
        /// The header lacks columns the contract requires, or repeats one.
        case badHeader
        /// A row has too many fields.
        case badRow
        /// Two rows share a (scenario, variant, refresh_hz) key and a seed.
        case duplicateKey
        /// A numeric column holds something that is not a number, or a
        /// text column holds something malformed.
        case badValue
    }

    /// What kind of problem it is.
    package var kind: Kind
    /// The file as the user named it.
    package var file: String
    /// The 1-based line at fault, if one is.
    package var line: Int?
    /// What is wrong, as a sentence fragment a person can act on.
    package var problem: String

    /// An error from its parts.
    package init(kind: Kind, file: String, line: Int?, problem: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// The line, or the whole file.
    package var place: FilePlace { FilePlace(line: line) }
}

/// A `summary.csv` read into typed rows, in file order.
///
/// The file must have every column of `RunReports.summaryColumns` (in any
/// order; further columns are kept as metrics and ignored by the baseline
/// check), one row per key and seed, numbers in the numeric columns and a
/// 16-hex-digit `trace_digest`. A key has several rows, one per seed, in
/// the results of `feedsim run --seeds N` (`isMultiSeed`).
package struct SummaryFile: Sendable {
    /// The columns that identify a run.
    package static let keyColumns = ["scenario", "variant", "refresh_hz"]
    /// A column that is neither key nor metric.
    package static let seedColumn = "seed"
    /// Columns whose values are text, not numbers.
    package static let textColumns: Set<String> = Set(
        ["scenario", "variant"] + Metric.all.filter(\.isText).map(\.name))
    /// Numeric columns a build that cannot count allocations leaves empty
    /// (`AllocationMeter.unavailableReason`).
    package static let mayBeEmptyColumns: Set<String> = Set(ProvenanceComparison.buildDependentColumns)

    /// The key columns with the headings tables give them.
    package static let keyHeadings: [(column: String, heading: String)] = [
        ("scenario", "scenario"), ("variant", "variant"), ("refresh_hz", "Hz"),
    ]
    /// The column holding the 64-bit hash of a run's event stream.
    package static let traceDigestColumn = "trace_digest"
    /// Hex digits in a `trace_digest` (a 64-bit hash).
    static let traceDigestLength = 16

    /// The file as the user named it, for messages.
    package let file: String
    /// The header, in file order.
    package let columns: [String]
    /// The rows, in file order.
    package let rows: [SummaryRow]
    /// The first row of each key.
    private let index: [SummaryKey: Int]
    /// Whether some key has rows for more than one seed.
    package let isMultiSeed: Bool

    /// The metric columns (all but the key columns and `seed`), in file order.
    package var metricColumns: [String] {
        columns.filter { !SummaryFile.keyColumns.contains($0) && $0 != SummaryFile.seedColumn }
    }

    /// The row with `key`, if the file has one; the first of them in a
    /// multi-seed file.
    ///
    /// - Complexity: O(1) on average.
    package func row(for key: SummaryKey) -> SummaryRow? {
        index[key].map { rows[$0] }
    }

    /// Reads the file at `url`; `file` names it in messages (defaults to
    /// the path). The file must have `requiredColumns` (by default every
    /// column of summary.csv; explore.csv lacks the allocation counts).
    package static func load(
        url: URL, file: String? = nil, requiredColumns: [String] = RunReports.summaryColumns
    ) throws(SummaryFileError) -> SummaryFile {
        let name = file ?? url.path
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SummaryFileError(kind: .missingFile, file: name, line: nil, problem: "no such file")
        }
        guard !isDirectory else {
            throw SummaryFileError(
                kind: .unreadable, file: name, line: nil, problem: "is a folder, expected a CSV file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SummaryFileError(
                kind: .unreadable, file: name, line: nil,
                problem: "cannot read the file (\(error.readableDescription))")
        }
        return try SummaryFile(data: data, file: name, requiredColumns: requiredColumns)
    }

    /// Parses the bytes of a summary file; `file` names it in messages.
    ///
    /// The bytes must be UTF-8 without a byte-order mark, as `feedsim run`
    /// writes them; the first line that is not is named.
    package init(
        data: Data, file: String, requiredColumns: [String] = RunReports.summaryColumns
    ) throws(SummaryFileError) {
        try SummaryFile.checkText(data, file: file)
        try self.init(utf8: [UInt8](data), file: file, requiredColumns: requiredColumns)
    }

    /// Fails, naming the first line that is not UTF-8, unless `data` is
    /// UTF-8 text without a byte-order mark.
    static func checkText(_ data: Data, file: String) throws(SummaryFileError) {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw SummaryFileError(
                kind: .badHeader, file: file, line: 1,
                problem: "the file starts with a byte-order mark; expected plain UTF-8 as `feedsim run` writes")
        }
        if String(validating: data, as: UTF8.self) != nil { return }
        var line = 1
        var start = data.startIndex
        for index in data.indices where data[index] == UInt8(ascii: "\n") {
            if String(validating: data[start..<index], as: UTF8.self) == nil { break }
            line += 1
            start = data.index(after: index)
        }
        throw SummaryFileError(kind: .unreadable, file: file, line: line, problem: "the line is not UTF-8 text")
    }

    /// Parses CSV `text`; `file` names it in messages.
    package init(
        text: String, file: String, requiredColumns: [String] = RunReports.summaryColumns
    ) throws(SummaryFileError) {
        try self.init(utf8: Array(text.utf8), file: file, requiredColumns: requiredColumns)
    }

    /// Parses the CSV records of `bytes`, which are UTF-8.
    private init(utf8 bytes: [UInt8], file: String, requiredColumns: [String]) throws(SummaryFileError) {
        self.file = file
        var reader = CSVReader(bytes)
        func next() throws(SummaryFileError) -> CSVReader.Record? {
            do {
                return try reader.next()
            } catch {
                throw SummaryFileError(
                    kind: .unreadable, file: file, line: error.line, problem: "not valid CSV: \(error.problem)")
            }
        }
        guard let headerRecord = try next(), !headerRecord.isBlank else {
            throw SummaryFileError(
                kind: .badHeader, file: file, line: 1,
                problem: "the file is empty; expected a header line starting with scenario,variant,refresh_hz")
        }
        // `feedsim run` ends every line: a header that ends the file without
        // one was cut short, and may have lost columns a reader needs but can
        // do without (those added after 2.0.0), so it is not read as whole.
        var peek = reader
        if bytes.last != UInt8(ascii: "\n"), (try? peek.next()) == nil {
            throw SummaryFileError(
                kind: .badHeader, file: file, line: 1,
                problem: "the header line has no end: the file is cut short after it")
        }
        let header = headerRecord.fields
        var seen: Set<String> = []
        for column in header {
            guard seen.insert(column).inserted else {
                throw SummaryFileError(
                    kind: .badHeader, file: file, line: 1, problem: "the header repeats the column \"\(column)\"")
            }
        }
        // The key columns and the seed identify a row in any file.
        // Columns added after 2.0.0 may be absent: a file written before them is read without them.
        let needed =
            SummaryFile.keyColumns + [SummaryFile.seedColumn]
            + requiredColumns.filter {
                !SummaryFile.keyColumns.contains($0) && $0 != SummaryFile.seedColumn
                    && Metric.named($0)?.addedIn == nil
            }
        let missing = needed.filter { !seen.contains($0) }
        guard missing.isEmpty else {
            let source =
                requiredColumns == RunReports.summaryColumns
                ? "a summary.csv written by `feedsim run`" : "a file written by feedsim"
            throw SummaryFileError(
                kind: .badHeader, file: file, line: 1,
                problem:
                    """
                    missing required column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")); \
                    is this \(source)?
                    """
            )
        }
        self.columns = header

        let position = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
        let numericColumns = Set(RunReports.summaryColumns + requiredColumns)
        var rows: [SummaryRow] = []
        var index: [SummaryKey: Int] = [:]
        var runs: [SummaryRunID: Int] = [:]
        var isMultiSeed = false
        var variantNames: [String: String] = [:]
        while let record = try next() {
            let fields = record.fields, line = record.line
            if fields.allSatisfy(\.isEmpty) { continue }
            if let extra = fields.indices.last(where: { $0 >= header.count && !fields[$0].isEmpty }) {
                throw SummaryFileError(
                    kind: .badRow, file: file, line: line,
                    problem: "the row has \(extra + 1) fields but the header has \(header.count) columns")
            }
            var row = try SummaryFile.row(
                fields, header: header, position: position, numericColumns: numericColumns,
                file: file, line: line)
            // One copy of each variant's name for all its rows: a name of
            // more than 15 bytes is otherwise a heap block per row.
            if let name = variantNames[row.key.variant] {
                row.key.variant = name
            } else {
                variantNames[row.key.variant] = row.key.variant
            }
            let run = SummaryRunID(key: row.key, seed: row.seed)
            if let first = runs[run] {
                throw SummaryFileError(
                    kind: .duplicateKey, file: file, line: line,
                    problem: "duplicate row for \(row.key); the first is on line \(rows[first].line)")
            }
            runs[run] = rows.count
            if index[row.key] == nil { index[row.key] = rows.count } else { isMultiSeed = true }
            rows.append(row)
        }
        self.rows = rows
        self.index = index
        self.isMultiSeed = isMultiSeed
    }

    private static func row(
        _ fields: [String], header: [String], position: [String: Int], numericColumns: Set<String>, file: String,
        line: Int
    ) throws(SummaryFileError) -> SummaryRow {
        func field(_ column: String) -> String {
            let i = position[column]!
            return i < fields.count ? fields[i] : ""
        }
        func bad(_ problem: String) -> SummaryFileError {
            SummaryFileError(kind: .badValue, file: file, line: line, problem: problem)
        }
        for column in keyColumns where field(column).isEmpty {
            throw bad("the \(column) field is empty")
        }
        for column in textColumns where hasControlCharacter(field(column)) {
            throw bad("the \(column) field holds a control character")
        }
        guard let refreshHz = Int(field("refresh_hz")), refreshHz > 0 else {
            throw bad("refresh_hz is \"\(field("refresh_hz"))\", expected a positive whole number of hertz")
        }
        guard let seed = UInt64(field(seedColumn)) else {
            throw bad("seed is \"\(field(seedColumn))\", expected a whole number from 0 to \(UInt64.max)")
        }
        var metrics: [SummaryField] = []
        // Sized once: grown by appends, a row's array holds up to twice its fields.
        metrics.reserveCapacity(header.count - keyColumns.count - 1)
        for (i, column) in header.enumerated() where !keyColumns.contains(column) && column != seedColumn {
            let value = i < fields.count ? fields[i] : ""
            let required = numericColumns.contains(column)
            if column == traceDigestColumn {
                guard value.count == traceDigestLength, value.allSatisfy(\.isHexDigit) else {
                    throw bad("trace_digest is \"\(value)\", expected \(traceDigestLength) hex digits")
                }
            } else if required, !textColumns.contains(column), parseNumber(value) == nil,
                !(value.isEmpty && mayBeEmptyColumns.contains(column))
            {
                throw bad(
                    "\(column) is \"\(value)\", expected a number"
                        + (mayBeEmptyColumns.contains(column) ? ", or empty where allocations were not counted" : ""))
            }
            metrics.append(SummaryField(name: column, value: value))
        }
        return SummaryRow(
            key: SummaryKey(scenario: field("scenario"), variant: field("variant"), refreshHz: refreshHz),
            seed: seed, metrics: metrics, line: line)
    }

    /// Whether `text` holds a control character other than a line break
    /// (NUL, escape, …): no name or digest `feedsim run` writes holds one,
    /// while a line break is ordinary CSV inside a quoted field.
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\r" }
    }

    /// A number as reports write it: decimal digits with an optional sign and
    /// fraction (`12`, `-0.500`), or `nan`, `inf`, `-inf` as
    /// `ReportNumber.fixed` writes non-finite values. Anything else
    /// (exponents, hex, spaces, an empty field) is not a number.
    static func parseNumber(_ text: String) -> Double? {
        switch text {
        case "nan": return .nan
        case "inf": return .infinity
        case "-inf": return -.infinity
        default: break
        }
        guard isDecimal(text) else { return nil }
        return Double(text)
    }

    /// Whether `text` is `[-+]?digits(.digits)?`.
    static func isDecimal(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// Digits after the decimal point in a number as written (`1.250` → 3).
    static func decimals(_ text: String) -> Int {
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: text.index(after: dot), to: text.endIndex)
    }
}
