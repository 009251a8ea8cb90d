import FoundationEssentials
import Glibc
import SystemSupport

/// Explore results read a line at a time, keeping only the columns a
/// paired comparison and its population table read, as numbers: what
/// `compare` holds of an explore.csv too large to keep as rows (a million
/// sessions under eight strategies is eight million rows; as `SummaryRow`s,
/// each field a string, many gigabytes).
///
/// Every run is a (variant, session) cell: the sessions are numbered in the
/// order they first appear, and each kept column holds one `Double` per
/// variant and session (`nan` where that variant has no run). The values
/// are parsed as `SummaryFile` parses them, so a comparison from columns is
/// the one from rows (a test compares the two outputs byte for byte). Only
/// the columns kept are checked for numbers; the key, the seed and a run
/// appearing twice are checked as `SummaryFile` checks them.
struct PopulationColumns {
    /// Files at least this large are read as columns by `compare`.
    static let streamingThreshold = 64 << 20

    /// The file's name in messages.
    var file: String
    /// The header's metric columns (every column but the key and the seed).
    var available: [String]
    /// The variants in order of first appearance.
    var variants: [String]
    /// The sessions (pair keys) in order of first appearance.
    var keys: [PairKey]
    /// The columns kept, in the order asked for.
    var columns: [String]
    /// `values[v][c][k]`: variant `v`'s value of column `c` in session `k`.
    var values: [[[Double]]]
    /// Each variant's sessions in the order of its rows.
    var order: [[Int32]]
    /// Whether the file has a `violations` column.
    var hasViolations: Bool

    /// Reads `url` keeping `wanted` (those of them the file has, and the
    /// population table's columns); `file` names it in messages.
    ///
    /// - Throws: `SummaryFileError` for what `SummaryFile` refuses: a
    ///   missing required column, a bad key, seed or number, a run twice.
    static func read(url: URL, file: String, wanted: [String]) throws(SummaryFileError) -> PopulationColumns {
        guard let handle = try? ReadableFile(path: url.path) else {
            throw SummaryFileError(kind: .unreadable, file: file, line: nil, problem: "cannot read the file")
        }
        defer { handle.close() }
        var reader = Reader(file: file, wanted: wanted)
        var pending: [UInt8] = []
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 22)
            } catch {
                throw SummaryFileError(
                    kind: .unreadable, file: file, line: nil,
                    problem: "cannot read the file (\(error.readableDescription))")
            }
            if chunk.isEmpty { break }
            pending.append(contentsOf: chunk)
            var start = 0
            var inQuotes = false
            for i in pending.indices {
                let byte = pending[i]
                if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
                if byte == UInt8(ascii: "\n"), !inQuotes {
                    try reader.line(pending[start..<i])
                    start = i + 1
                }
            }
            pending.removeFirst(start)
        }
        if !pending.isEmpty { try reader.line(pending[...]) }
        return try reader.finished()
    }

    /// The state of a read: the header, then one line at a time.
    private struct Reader {
        var file: String
        var wanted: [String]
        var lineNumber = 0
        var header: [String]?
        var positions: (scenario: Int, variant: Int, refreshHz: Int, seed: Int) = (0, 0, 0, 0)
        var kept: [(column: String, position: Int)] = []
        var columns = PopulationColumns(
            file: "", available: [], variants: [], keys: [], columns: [], values: [], order: [], hasViolations: false)
        var keyIndex: [PairKey: Int32] = [:]
        var variantIndex: [String: Int] = [:]

        init(file: String, wanted: [String]) {
            self.file = file
            self.wanted = wanted
            columns.file = file
        }

        func bad(_ problem: String) -> SummaryFileError {
            SummaryFileError(kind: .badValue, file: file, line: lineNumber, problem: problem)
        }

        /// The current record's fields, reused from line to line.
        var fields: [ArraySlice<UInt8>] = []

        mutating func line(_ bytes: ArraySlice<UInt8>) throws(SummaryFileError) {
            lineNumber += 1
            var bytes = bytes
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            PopulationColumns.fields(bytes, into: &fields)
            guard let header else { return try readHeader(fields.map { String(decoding: $0, as: UTF8.self) }) }
            if fields.allSatisfy(\.isEmpty) { return }
            if fields.count > header.count, fields[header.count...].contains(where: { !$0.isEmpty }) {
                throw SummaryFileError(
                    kind: .badRow, file: file, line: lineNumber,
                    problem: "the row has \(fields.count) fields but the header has \(header.count) columns")
            }
            func field(_ i: Int) -> ArraySlice<UInt8> { i < fields.count ? fields[i] : [] }
            func text(_ i: Int) -> String { String(decoding: field(i), as: UTF8.self) }
            let scenario = text(positions.scenario), variant = text(positions.variant)
            for (name, value) in [
                ("scenario", scenario), ("variant", variant), ("refresh_hz", text(positions.refreshHz)),
            ] where value.isEmpty {
                throw bad("the \(name) field is empty")
            }
            guard let refreshHz = Int(text(positions.refreshHz)), refreshHz > 0 else {
                throw bad("refresh_hz is \"\(text(positions.refreshHz))\", expected a positive whole number of hertz")
            }
            guard let seed = UInt64(text(positions.seed)) else {
                throw bad("seed is \"\(text(positions.seed))\", expected a whole number from 0 to \(UInt64.max)")
            }
            let key = PairKey(scenario: scenario, refreshHz: refreshHz, seed: seed)
            let k: Int32
            if let known = keyIndex[key] {
                k = known
            } else {
                k = Int32(columns.keys.count)
                keyIndex[key] = k
                columns.keys.append(key)
                for v in columns.values.indices {
                    for c in columns.values[v].indices { columns.values[v][c].append(.nan) }
                    present[v].append(false)
                }
            }
            let v: Int
            if let known = variantIndex[variant] {
                v = known
            } else {
                v = columns.variants.count
                variantIndex[variant] = v
                columns.variants.append(variant)
                columns.order.append([])
                columns.values.append(
                    Array(repeating: Array(repeating: .nan, count: columns.keys.count), count: kept.count))
                present.append(Array(repeating: false, count: columns.keys.count))
            }
            if present[v][Int(k)] {
                throw SummaryFileError(
                    kind: .duplicateKey, file: file, line: lineNumber,
                    problem: "duplicate row for \(scenario) / \(variant) @ \(refreshHz) Hz, seed \(seed)")
            }
            present[v][Int(k)] = true
            columns.order[v].append(k)
            for (c, column) in kept.enumerated() {
                let value = field(column.position)
                guard let number = PopulationColumns.number(value) else {
                    if value.isEmpty && SummaryFile.mayBeEmptyColumns.contains(column.column) { continue }
                    throw bad("\(column.column) is \"\(text(column.position))\", expected a number")
                }
                columns.values[v][c][Int(k)] = number
            }
        }

        /// `present[v][k]`: whether variant `v` has a run in session `k`.
        var present: [[Bool]] = []

        mutating func readHeader(_ fields: [String]) throws(SummaryFileError) {
            var position: [String: Int] = [:]
            for (i, column) in fields.enumerated() {
                guard position[column] == nil else {
                    throw SummaryFileError(
                        kind: .badHeader, file: file, line: 1, problem: "the header repeats the column \"\(column)\"")
                }
                position[column] = i
            }
            let missing = PopulationTable.exploreColumns.filter { position[$0] == nil }
            guard missing.isEmpty else {
                throw SummaryFileError(
                    kind: .badHeader, file: file, line: 1,
                    problem:
                        """
                        missing required column\(missing.count == 1 ? "" : "s") \
                        \(missing.joined(separator: ", ")); is this a file written by feedsim?
                        """
                )
            }
            header = fields
            positions = (
                position["scenario"]!, position["variant"]!, position["refresh_hz"]!, position[SummaryFile.seedColumn]!
            )
            columns.available = fields.filter { !SummaryFile.keyColumns.contains($0) && $0 != SummaryFile.seedColumn }
            var keptNames: [String] = []
            for column in wanted + PopulationTable.populationColumns
            where position[column] != nil && !keptNames.contains(column) {
                keptNames.append(column)
            }
            kept = keptNames.map { ($0, position[$0]!) }
            columns.columns = keptNames
            columns.hasViolations = position[PopulationTable.violationsColumn] != nil
        }

        func finished() throws(SummaryFileError) -> PopulationColumns {
            guard header != nil else {
                throw SummaryFileError(
                    kind: .badHeader, file: file, line: 1,
                    problem: "the file is empty; expected a header line starting with scenario,variant,refresh_hz")
            }
            return columns
        }
    }

    /// The fields of one CSV record (RFC 4180: a quoted field may hold
    /// commas, line breaks and doubled quotes), into `fields`.
    static func fields(_ bytes: ArraySlice<UInt8>, into fields: inout [ArraySlice<UInt8>]) {
        fields.removeAll(keepingCapacity: true)
        guard bytes.contains(UInt8(ascii: "\"")) else {
            var start = bytes.startIndex
            for index in bytes.indices where bytes[index] == UInt8(ascii: ",") {
                fields.append(bytes[start..<index])
                start = index + 1
            }
            fields.append(bytes[start..<bytes.endIndex])
            return
        }
        var current: [UInt8] = []
        var inQuotes = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "\"") {
                        current.append(byte)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    current.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                inQuotes = true
            } else if byte == UInt8(ascii: ",") {
                fields.append(current[...])
                current = []
            } else {
                current.append(byte)
            }
            index += 1
        }
        fields.append(current[...])
    }

    /// The number `SummaryFile.parseNumber` reads in `bytes`: `nan`,
    /// `inf`, `-inf`, or `[-+]?digits(.digits)?`; `nil` otherwise.
    static func number(_ bytes: ArraySlice<UInt8>) -> Double? {
        var index = bytes.startIndex
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var digits = 0, point = false, digitsAfterPoint = 0
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if point { digitsAfterPoint += 1 } else { digits += 1 }
            } else if byte == UInt8(ascii: "."), !point {
                point = true
            } else {
                return SummaryFile.parseNumber(String(decoding: bytes, as: UTF8.self))
            }
            index += 1
        }
        guard digits > 0, !point || digitsAfterPoint > 0 else {
            return SummaryFile.parseNumber(String(decoding: bytes, as: UTF8.self))
        }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The values of column `column` for variant `variant`, in the order of
    /// its rows, as `SummaryRow.value(of:)` and `parseNumber` give them
    /// (`nan` where the file has no number).
    func column(_ column: String, of variant: Int) -> [Double]? {
        guard let c = columns.firstIndex(of: column) else { return nil }
        return order[variant].map { values[variant][c][Int($0)] }
    }

    /// How a run is named in the population table: its session when every
    /// run of the variant is a session of its own, else its seed.
    func runName(_ k: Int32, bySession: Bool) -> String {
        bySession ? keys[Int(k)].scenario : "seed \(keys[Int(k)].seed)"
    }
}

extension PairedComparison.Plan {
    /// Pairs the sessions of explore results read as columns, as
    /// `init(rows:…)` pairs their rows.
    init(
        columns: PopulationColumns, metrics: [String]?, pairing: VariantPairing, smallestDifferences: ToleranceSet
    ) throws(StrategyComparisonError) {
        let chosen = try PairedComparison.Plan.chosenMetrics(metrics, available: columns.available)
        let (variantPairs, missingBaseline) = try PairedComparison.Plan.variantPairs(
            columns.variants, pairing: pairing, requireBaseline: true)
        let index = Dictionary(uniqueKeysWithValues: columns.variants.enumerated().map { ($1, $0) })
        var values: [[PairedSample]] = []
        var thresholds: [Double] = []
        for metric in chosen {
            let c = columns.columns.firstIndex(of: metric)!
            let amount = smallestDifferences.override(for: metric)?.amount ?? SmallestDifference.of(metric)
            values.append(
                variantPairs.map { a, b in
                    let va = index[a]!, vb = index[b]!
                    let x = columns.values[va][c], y = columns.values[vb][c]
                    let count = columns.order[va].count { x[Int($0)].isFinite && y[Int($0)].isFinite }
                    let sample = PairedSample(count: count) { visit in
                        for k in columns.order[va] where x[Int(k)].isFinite && y[Int(k)].isFinite {
                            visit(x[Int(k)], y[Int(k)])
                        }
                    }
                    thresholds.append(Tolerance(amount: amount).limit(baseline: sample.baselineMean))
                    return sample
                })
        }
        self.variants = columns.variants
        self.metrics = chosen
        self.variantPairs = variantPairs
        self.values = values
        self.thresholds = thresholds
        self.population = PopulationTable(columns: columns)
        self.missingBaseline = missingBaseline
    }
}

extension PairedComparison {
    /// Compares the variants of explore results read as columns (see
    /// `init(rows:metrics:baseline:…)`), the pairs of variants chosen by
    /// `pairing`; errors name the file.
    init(
        columns: PopulationColumns, metrics: [String]?, pairing: VariantPairing, bootstrap: PairedBootstrap,
        smallestDifferences: ToleranceSet, correction: MultipleComparisons
    ) throws(StrategyComparisonError) {
        let plan: Plan
        do {
            plan = try Plan(
                columns: columns, metrics: metrics, pairing: pairing, smallestDifferences: smallestDifferences)
        } catch {
            throw StrategyComparisonError(problem: "\(columns.file): \(error.problem)")
        }
        self.init(
            plan: plan, bootstrap: bootstrap.raised(forFamilyOf: plan.tested, correction: correction),
            correction: correction)
        self.requestedResamples = bootstrap.resamples
        PairedComparison.decide(
            &differences, comparisons: &comparisons, correction: correction, bootstrap: self.bootstrap)
    }

    /// Compares the variants of the explore results in `url`, read a line
    /// at a time keeping only the columns compared (`PopulationColumns`):
    /// for files too large to hold as rows. The result is the one
    /// `init(summary:…)` gives for the same file.
    ///
    /// - Throws: `SummaryFileError` when the file cannot be read as explore
    ///   results, `StrategyComparisonError` when a metric or the baseline
    ///   is not in it.
    package static func streaming(
        url: URL, file: String, metrics: [String]?, pairing: VariantPairing,
        bootstrap: PairedBootstrap = PairedBootstrap(),
        smallestDifferences: ToleranceSet = ToleranceSet(), correction: MultipleComparisons = .default
    ) throws -> PairedComparison {
        let columns = try PopulationColumns.read(
            url: url, file: file, wanted: metrics ?? PairedComparison.defaultMetrics)
        return try PairedComparison(
            columns: columns, metrics: metrics, pairing: pairing, bootstrap: bootstrap,
            smallestDifferences: smallestDifferences, correction: correction)
    }
}

extension PairedComparison {
    /// Whether `compare` reads the explore results at `path` as columns:
    /// files of `PopulationColumns.streamingThreshold` bytes or more.
    package static func readsAsColumns(_ path: String) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return size >= PopulationColumns.streamingThreshold
    }
}
