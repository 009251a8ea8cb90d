import CSVCodec
import FeedScenario
import FoundationEssentials
import SystemSupport

/// A problem with a calibration trace or with fitting it.
package typealias CalibrationError = FileProblem

/// A measured per-frame trace: one row per frame with its main-thread
/// duration and the counts of each `CostTerm`, as an app's own signposts
/// would export them.
///
/// The CSV has a header; `frame_ms` is required, every other column is a
/// `CostTerm.traceColumn` and may be left out. `frames`, the intercept, is
/// 1 for every row when left out.
package struct CalibrationTrace: Sendable {
    /// One measured frame.
    package struct Frame: Sendable, Equatable {
        /// The line of the file it is on.
        package var line: Int
        /// Main-thread duration, in nanoseconds.
        package var durationNs: Double
        /// One count per `CostTerm.all`, 0 for a column the trace leaves out
        /// (1 for `frames`).
        package var counts: [Double]

        package init(line: Int, durationNs: Double, counts: [Double]) {
            self.line = line
            self.durationNs = durationNs
            self.counts = counts
        }
    }

    /// The column holding each frame's main-thread duration in milliseconds.
    package static let durationColumn = "frame_ms"
    /// The term whose count is 1 per frame when its column is left out.
    package static let interceptKey = "frame_base"
    /// The most frames a trace may hold: an hour of 120 Hz frames, ample for
    /// any recording and a bound on the memory a fit takes.
    package static let maximumFrames = 432_000

    /// The file as the user named it, for messages.
    package let file: String
    /// Whether each term of `CostTerm.all` has its column in the trace
    /// (`frames` counts as present when left out, since it is then 1).
    package let measured: [Bool]
    /// The frames, in file order.
    package let frames: [Frame]

    package init(file: String, measured: [Bool], frames: [Frame]) {
        self.file = file
        self.measured = measured
        self.frames = frames
    }

    /// Reads a trace from the bytes of a CSV file; `file` names it in messages.
    package init(data: Data, file: String) throws(CalibrationError) {
        var bytes = data
        // A spreadsheet's UTF-8 byte-order mark says nothing about the data.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw CalibrationError(file: file, line: nil, problem: "the file is not UTF-8 text")
        }
        try self.init(utf8: bytes, file: file)
    }

    /// Reads a trace from CSV text; `file` names it in messages.
    package init(text: String, file: String) throws(CalibrationError) {
        try self.init(utf8: text.utf8, file: file)
    }

    /// Reads a trace from the CSV records of `bytes`, which are UTF-8.
    private init(utf8 bytes: some Sequence<UInt8>, file: String) throws(CalibrationError) {
        self.file = file
        var reader = CSVReader(bytes)
        func next() throws(CalibrationError) -> (line: Int, fields: [String])? {
            let record: CSVReader.Record?
            do {
                record = try reader.next()
            } catch {
                throw CalibrationError(file: file, line: error.line, problem: error.problem)
            }
            // Exporters pad fields with spaces; a line of spaces holds no frame.
            return record.map { ($0.line, $0.fields.map { $0.trimmingSpaces() }) }
        }
        guard let headerRecord = try next(), headerRecord.fields != [""] else {
            throw CalibrationError(
                file: file, line: 1,
                problem: "the file is empty; expected a header line with \(Self.durationColumn) and count columns")
        }
        let header = headerRecord.fields
        var position: [String: Int] = [:]
        var termOfField: [Int?] = []
        for (i, column) in header.enumerated() {
            guard position[column] == nil else {
                throw CalibrationError(file: file, line: 1, problem: "the header repeats the column \"\(column)\"")
            }
            position[column] = i
            if column == Self.durationColumn {
                termOfField.append(nil)
            } else if let term = CostTerm.all.firstIndex(where: { $0.traceColumn == column }) {
                termOfField.append(term)
            } else {
                throw CalibrationError(
                    file: file, line: 1,
                    problem: "unknown column \"\(column)\"; expected \(Self.durationColumn) and any of "
                        + CostTerm.all.map(\.traceColumn).joined(separator: ", "))
            }
        }
        guard position[Self.durationColumn] != nil else {
            throw CalibrationError(
                file: file, line: 1,
                problem: "the header has no \(Self.durationColumn) column (the frame's main-thread duration in ms)")
        }
        var measured = CostTerm.all.map { term in position[term.traceColumn] != nil }
        let intercept = CostTerm.all.firstIndex { $0.key == Self.interceptKey }!
        measured[intercept] = true
        var defaults = [Double](repeating: 0, count: CostTerm.all.count)
        defaults[intercept] = 1

        var frames: [Frame] = []
        while let (number, fields) = try next() {
            if fields == [""] { continue }
            guard fields.count == header.count else {
                throw CalibrationError(
                    file: file, line: number,
                    problem: "the row has \(fields.count) fields but the header has \(header.count) columns")
            }
            guard frames.count < Self.maximumFrames else {
                throw CalibrationError(
                    file: file, line: number, problem: "more than \(Self.maximumFrames) frames; split the trace")
            }
            var counts = defaults
            var duration = 0.0
            for (i, field) in fields.enumerated() {
                guard let value = Double(field), value.isFinite, value >= 0 else {
                    throw CalibrationError(
                        file: file, line: number, problem: "\(header[i]) is \"\(field)\", expected a number ≥ 0")
                }
                if let term = termOfField[i] { counts[term] = value } else { duration = value }
            }
            frames.append(Frame(line: number, durationNs: duration * 1_000_000, counts: counts))
        }
        self.measured = measured
        self.frames = frames
    }

    /// The trace as CSV: `frame_ms` then the columns of the measured terms,
    /// in `CostTerm.all`'s order; `frames` left out when it is 1 throughout.
    package var csvText: String {
        let intercept = CostTerm.all.firstIndex { $0.key == Self.interceptKey }!
        let implied = frames.allSatisfy { $0.counts[intercept] == 1 }
        let columns = CostTerm.all.indices.filter { measured[$0] && !($0 == intercept && implied) }
        var table = CSVTable(columns: [Self.durationColumn] + columns.map { CostTerm.all[$0].traceColumn })
        for frame in frames {
            table.append(
                [CalibrationTrace.number(frame.durationNs / 1_000_000)]
                    + columns.map { CalibrationTrace.number(frame.counts[$0]) })
        }
        return table.text
    }

    /// The trace's columns as a Markdown table (column, unit, the profile
    /// key it fits), from `CostTerm.all`: the table the README carries.
    package static var markdownColumns: String {
        var lines = ["| column | one unit is | fits `costs_ns` key |", "|---|---|---|"]
        lines.append("| `\(durationColumn)` | the frame's main-thread duration, in milliseconds (required) | |")
        for term in CostTerm.all {
            let unit = term.key == interceptKey ? "\(term.unit) (may be left out: 1 on every row)" : term.unit
            lines.append("| `\(term.traceColumn)` | \(unit) | `\(term.key)` |")
        }
        return lines.joined(separator: "\n")
    }

    /// `value` as the shortest decimal that reads back as the same double.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
