import Foundation

/// The os_signpost interval table as `xctrace export` writes it, read into a
/// calibration trace.
///
/// `xctrace export --input run.trace --xpath
/// '/trace-toc/run[@number="1"]/data/table[@schema="os-signpost-interval"]'`
/// writes `<trace-query-result>` holding one `<node>` per table: a `<schema>`
/// whose `<col>`s name the columns by `<mnemonic>`, then one `<row>` per
/// interval whose child elements are the cells in the schema's column order.
/// A value used again is written once with an `id` attribute and later as an
/// empty element with `ref` naming that id (at any depth: a process first
/// seen inside a backtrace can be referenced by a later row's cell); an
/// empty cell is `<sentinel/>`. A cell's text is its raw value (a duration
/// in nanoseconds) and its `fmt` attribute the value as Instruments shows it
/// (the formatted message of an `os-log-metadata` cell).
///
/// Cells are read by their column's mnemonic, never by element name or an
/// assumed position: `duration` (ns), `name` (the signpost name),
/// `subsystem`, and `end-message` (the interval's end message, whose
/// `key=value` pairs are the frame's counts, keys being trace columns).
package enum XctraceExport {
    /// The mnemonics read; any other column is skipped.
    package static let durationMnemonic = "duration"
    package static let nameMnemonic = "name"
    package static let subsystemMnemonic = "subsystem"
    package static let endMessageMnemonic = "end-message"
    /// The signpost name read when none is given.
    package static let defaultSignpost = "Frame"

    /// Reads the frames of the intervals named `signpost` (from `subsystem`
    /// only, when given) out of the export's bytes; `file` names it in messages.
    package static func trace(data: Data, file: String, signpost: String = defaultSignpost, subsystem: String? = nil) throws(CalibrationError) -> CalibrationTrace {
        try trace(source: .bytes(data), file: file, signpost: signpost, subsystem: subsystem)
    }

    /// Reads the export in the file at `url` as it streams past, chunk by
    /// chunk: an export of any length is read holding only its frames (a
    /// duration and a count per term each) and the values of the columns read.
    package static func trace(url: URL, file: String, signpost: String = defaultSignpost, subsystem: String? = nil) throws(CalibrationError) -> CalibrationTrace {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw CalibrationError(file: file, line: nil, problem: "cannot be read: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        return try trace(source: .file(handle), file: file, signpost: signpost, subsystem: subsystem)
    }

    private static func trace(source: XMLEventReader.Source, file: String, signpost: String, subsystem: String?) throws(CalibrationError) -> CalibrationTrace {
        let reader = TableReader(file: file, signpost: signpost, subsystem: subsystem)
        var xml = XMLEventReader(source: source)
        do {
            try xml.read(into: reader)
        } catch {
            if error.problem == XMLEventReader.empty {
                throw CalibrationError(file: file, line: 1, problem: "the file is empty; expected the XML xctrace export writes")
            }
            throw CalibrationError(file: file, line: error.line, problem: "malformed XML: \(error.problem)")
        }
        if let problem = reader.problem { throw problem }
        guard reader.sawTable else {
            throw CalibrationError(
                file: file, line: nil,
                problem: "no <trace-query-result><node><schema> table found; expected the output of xctrace export "
                    + "--xpath '…/table[@schema=\"os-signpost-interval\"]'")
        }
        guard reader.frames.count > 0 || reader.frameProblem != nil else {
            let seen = reader.names.isEmpty
                ? "the table has no intervals" : "the table's names are " + reader.names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw CalibrationError(
                file: file, line: nil,
                problem: "no interval named \"\(signpost)\"\(subsystem.map { " in subsystem \"\($0)\"" } ?? ""); \(seen)")
        }
        guard reader.subsystems.count == 1 else {
            throw CalibrationError(
                file: file, line: nil,
                problem: "intervals named \"\(signpost)\" come from \(reader.subsystems.count) subsystems ("
                    + reader.subsystems.map { "\"\($0)\"" }.joined(separator: ", ") + "); name yours with --subsystem")
        }
        return try reader.frames.trace()
    }

    /// One interval of the table: its row's line and the cells read.
    struct Interval {
        var line: Int
        var durationText: String?
        var name: String?
        var subsystem: String?
        var endMessage: String?
    }

    /// The frames of the chosen intervals, built as each row ends so that
    /// only what the fit needs is kept (a duration and a count per term);
    /// every end message must give the same keys. The first interval that
    /// cannot be a frame is kept as `problem` and ends the building.
    struct FrameBuilder {
        let file: String
        private(set) var frames: [CalibrationTrace.Frame] = []
        private(set) var problem: CalibrationError?
        private var keys: [Int]?
        private static let intercept = CostTerm.all.firstIndex { $0.key == CalibrationTrace.interceptKey }!

        init(file: String) { self.file = file }

        var count: Int { frames.count }

        mutating func add(_ interval: Interval) {
            guard problem == nil else { return }
            do {
                try addFrame(interval)
            } catch {
                problem = error
            }
        }

        private mutating func addFrame(_ interval: Interval) throws(CalibrationError) {
            guard frames.count < CalibrationTrace.maximumFrames else {
                throw CalibrationError(file: file, line: interval.line, problem: "more than \(CalibrationTrace.maximumFrames) frames; split the trace")
            }
            guard let text = interval.durationText, let ns = Int64(text.trimmingCharacters(in: .whitespaces)), ns >= 0 else {
                throw CalibrationError(
                    file: file, line: interval.line,
                    problem: "the interval's duration is \(interval.durationText.map { "\"\($0.prefix(40))\"" } ?? "empty"), expected whole nanoseconds")
            }
            guard let message = interval.endMessage, !message.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw CalibrationError(
                    file: file, line: interval.line,
                    problem: "the interval has no end message; expected key=value counts such as \"cells_configured=3\"")
            }
            var counts = [Double](repeating: 0, count: CostTerm.all.count)
            counts[FrameBuilder.intercept] = 1
            var given: [Int] = []
            for pair in message.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    throw CalibrationError(file: file, line: interval.line, problem: "the end message's \"\(pair.prefix(40))\" is not key=value")
                }
                let key = String(parts[0])
                guard let term = CostTerm.all.firstIndex(where: { $0.traceColumn == key }) else {
                    throw CalibrationError(
                        file: file, line: interval.line,
                        problem: "the end message's key \"\(key.prefix(40))\" is not a trace column; expected any of "
                            + CostTerm.all.map(\.traceColumn).joined(separator: ", "))
                }
                guard !given.contains(term) else {
                    throw CalibrationError(file: file, line: interval.line, problem: "the end message gives \(key) twice")
                }
                guard let value = Double(parts[1]), value.isFinite, value >= 0 else {
                    throw CalibrationError(file: file, line: interval.line, problem: "\(key) is \"\(parts[1].prefix(40))\", expected a number ≥ 0")
                }
                counts[term] = value
                given.append(term)
            }
            given.sort()
            if let keys, keys != given {
                let missing = keys.filter { !given.contains($0) }.map { CostTerm.all[$0].traceColumn }
                let extra = given.filter { !keys.contains($0) }.map { CostTerm.all[$0].traceColumn }
                throw CalibrationError(
                    file: file, line: interval.line,
                    problem: "the end message's keys differ from the first interval's"
                        + (missing.isEmpty ? "" : "; missing \(missing.joined(separator: ", "))")
                        + (extra.isEmpty ? "" : "; not in the first: \(extra.joined(separator: ", "))"))
            }
            keys = given
            frames.append(CalibrationTrace.Frame(line: interval.line, durationNs: Double(ns), counts: counts))
        }

        /// The trace, or the first interval's problem.
        func trace() throws(CalibrationError) -> CalibrationTrace {
            if let problem { throw problem }
            var measured = CostTerm.all.indices.map { keys?.contains($0) ?? false }
            measured[FrameBuilder.intercept] = true
            return CalibrationTrace(file: file, measured: measured, frames: frames)
        }
    }

    /// One cell value: the text directly inside the element and its `fmt`.
    struct Value {
        var text = ""
        var format: String?
        /// What a reader of the column wants: the formatted value when the
        /// export gives one, else the text.
        var shown: String { format ?? text }
    }

    /// Collects the schema's mnemonics and each row's cells as the export
    /// streams past, resolving `ref`s, and stops at the first problem.
    final class TableReader: XMLEventHandler {
        let file: String
        let signpost: String
        let subsystem: String?
        var problem: CalibrationError?
        var sawTable = false
        /// The frames of the intervals named `signpost` (in `subsystem`,
        /// when given); other intervals are not kept.
        var frames: FrameBuilder
        /// The first problem among those intervals, if any.
        var frameProblem: CalibrationError? { frames.problem }
        /// The first ten distinct interval names, for the message when none
        /// is `signpost`.
        private(set) var names: [String] = []
        /// The distinct subsystems of the intervals named `signpost`.
        private(set) var subsystems: [String] = []

        /// Values by `id`, document-wide, of the cells in the columns read
        /// only (a value elsewhere, a backtrace or a thread, is never looked
        /// up, and an export holds millions of them), and of those only the
        /// cell's own value, not the elements inside it.
        private var interned: [String: Value] = [:]
        /// Whether the cell being read is in a column read.
        private var cellIsRead = false
        /// How many values are kept for later `ref`s.
        var internedCount: Int { interned.count }
        /// The open elements, innermost last.
        private var path: [String] = []
        private var mnemonics: [String] = []
        private var inMnemonic = false
        private var mnemonicText = ""
        /// The row being read: its line, cells so far (nil for a sentinel).
        private var row: (line: Int, cells: [Value?])?
        /// Elements open inside the current row's cell, with their values
        /// and ids, innermost last.
        private var open: [(id: String?, value: Value, isReference: Bool)] = []

        init(file: String, signpost: String, subsystem: String?) {
            self.file = file
            self.signpost = signpost
            self.subsystem = subsystem
            frames = FrameBuilder(file: file)
        }

        /// The mnemonics whose cells are read.
        private static let readMnemonics: Set<String> = [durationMnemonic, nameMnemonic, subsystemMnemonic, endMessageMnemonic]

        var isDone: Bool { problem != nil }

        private func fail(_ text: String, line: Int) {
            guard problem == nil else { return }
            problem = CalibrationError(file: file, line: line, problem: text)
        }

        func startElement(_ element: String, attributes: [String: String], line: Int) {
            guard problem == nil else { return }
            defer { path.append(element) }
            if path.isEmpty {
                guard element == "trace-query-result" else {
                    fail("the document is <\(element.prefix(40))>, expected <trace-query-result> (xctrace export --xpath …)", line: line)
                    return
                }
                return
            }
            if row != nil {
                if open.isEmpty, element == "sentinel" {
                    row!.cells.append(nil)
                    open.append((nil, Value(), false))
                    return
                }
                if open.isEmpty {
                    let column = row!.cells.count
                    cellIsRead = column < mnemonics.count && TableReader.readMnemonics.contains(mnemonics[column])
                }
                if !cellIsRead || !open.isEmpty {
                    // A cell no column read holds, or an element inside a
                    // cell (only the cell's own value is read): its values,
                    // ids and refs are skipped.
                    open.append((nil, Value(), true))
                    return
                }
                if let reference = attributes["ref"] {
                    guard let value = interned[reference] else {
                        fail("<\(element.prefix(40)) ref=\"\(reference.prefix(20))\"> refers to no earlier id", line: line)
                        return
                    }
                    open.append((nil, value, true))
                } else {
                    open.append((attributes["id"], Value(text: "", format: attributes["fmt"]), false))
                }
                return
            }
            switch element {
            case "node":
                mnemonics = []
            case "schema":
                sawTable = true
                mnemonics = []
            case "mnemonic" where path.last == "col":
                inMnemonic = true
                mnemonicText = ""
            case "row":
                guard path.last == "node" else { return }
                guard !mnemonics.isEmpty else {
                    fail("a <row> before its node's <schema>", line: line)
                    return
                }
                for needed in [XctraceExport.durationMnemonic, XctraceExport.nameMnemonic, XctraceExport.endMessageMnemonic]
                where !mnemonics.contains(needed) {
                    fail("the table's schema has no \(needed) column; its columns are \(mnemonics.joined(separator: ", "))", line: line)
                    return
                }
                row = (line, [])
            default:
                break
            }
        }

        func characters(_ string: String) {
            guard problem == nil else { return }
            if inMnemonic { mnemonicText += string }
            if row != nil, let last = open.indices.last, !open[last].isReference { open[last].value.text += string }
        }

        func endElement(_ element: String, line: Int) {
            guard problem == nil else { return }
            path.removeLast()
            if inMnemonic, element == "mnemonic" {
                mnemonics.append(mnemonicText.trimmingCharacters(in: .whitespacesAndNewlines))
                inMnemonic = false
                return
            }
            guard let current = row else { return }
            if let closed = open.popLast() {
                // Only a cell's own value is ever read, so only its id is
                // kept, holding just what its column reads: the text of a
                // duration, the shown value of the others.
                if open.isEmpty, let id = closed.id {
                    let column = row!.cells.count
                    interned[id] = mnemonics[column] == XctraceExport.durationMnemonic
                        ? Value(text: closed.value.text, format: nil) : Value(text: "", format: closed.value.shown)
                }
                if open.isEmpty, element != "sentinel" { row!.cells.append(closed.value) }
                return
            }
            guard element == "row" else { return }
            row = nil
            guard current.cells.count <= mnemonics.count else {
                fail("the row has \(current.cells.count) cells but the schema has \(mnemonics.count) columns", line: current.line)
                return
            }
            func cell(_ mnemonic: String) -> Value? {
                guard let index = mnemonics.firstIndex(of: mnemonic), index < current.cells.count else { return nil }
                return current.cells[index]
            }
            let name = cell(XctraceExport.nameMnemonic)?.shown
            if names.count < 10, !names.contains(name ?? "") { names.append(name ?? "") }
            guard name == signpost else { return }
            let intervalSubsystem = cell(XctraceExport.subsystemMnemonic)?.shown
            if let subsystem, intervalSubsystem != subsystem { return }
            if !subsystems.contains(intervalSubsystem ?? "") { subsystems.append(intervalSubsystem ?? "") }
            frames.add(Interval(
                line: current.line,
                durationText: cell(XctraceExport.durationMnemonic)?.text,
                name: name,
                subsystem: intervalSubsystem,
                endMessage: cell(XctraceExport.endMessageMnemonic)?.shown))
        }
    }
}
