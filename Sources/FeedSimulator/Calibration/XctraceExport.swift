import FoundationEssentials
import SystemSupport

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
    package static func trace(
        data: Data, file: String, signpost: String = defaultSignpost, subsystem: String? = nil
    ) throws(CalibrationError) -> CalibrationTrace {
        try trace(source: .bytes(data), file: file, signpost: signpost, subsystem: subsystem)
    }

    /// Reads the export in the file at `url` as it streams past, chunk by
    /// chunk: an export of any length is read holding only its intervals.
    package static func trace(
        url: URL, file: String, signpost: String = defaultSignpost, subsystem: String? = nil
    ) throws(CalibrationError) -> CalibrationTrace {
        let handle: ReadableFile
        do {
            handle = try ReadableFile(path: url.path)
        } catch {
            throw CalibrationError(file: file, line: nil, problem: "cannot be read: \(error.readableDescription)")
        }
        defer { handle.close() }
        return try trace(source: .file(handle), file: file, signpost: signpost, subsystem: subsystem)
    }

    private static func trace(
        source: XMLEventReader.Source, file: String, signpost: String, subsystem: String?
    ) throws(CalibrationError) -> CalibrationTrace {
        let frames = FrameCollector(file: file, signpost: signpost, subsystem: subsystem)
        let reader = TableReader(file: file, frames: frames)
        var xml = XMLEventReader(source: source)
        do {
            try xml.read(into: reader)
        } catch {
            if error.problem == XMLEventReader.empty {
                throw CalibrationError(
                    file: file, line: 1, problem: "the file is empty; expected the XML xctrace export writes")
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
        return try frames.trace()
    }

    /// One interval of the table: its row's line and the cells read.
    struct Interval {
        var line: Int
        var durationText: String?
        var name: String?
        var subsystem: String?
        var endMessage: String?
    }

    /// Turns the intervals named `signpost` into frames as the rows stream
    /// past, holding only each frame's duration and counts (what the fit
    /// reads), the subsystems seen and the first few names; a frame's
    /// problem is kept and reported after the table's, as if every
    /// interval had been read first.
    final class FrameCollector {
        /// Names listed when no interval has the signpost's name.
        static let namesShown = 10

        let file: String
        let signpost: String
        let subsystem: String?
        private let intercept = CostTerm.all.firstIndex { $0.key == CalibrationTrace.interceptKey }!
        private var frames: [CalibrationTrace.Frame] = []
        private var keys: [Int]?
        /// The first frame that could not be read: later ones are not read.
        private var frameProblem: CalibrationError?
        /// The subsystems of the chosen intervals, in order of appearance.
        private var subsystems: [String] = []
        /// The first names of all intervals, for a message when none is chosen.
        private var names: [String] = []

        init(file: String, signpost: String, subsystem: String?) {
            self.file = file
            self.signpost = signpost
            self.subsystem = subsystem
        }

        func add(_ interval: Interval) {
            if names.count < FrameCollector.namesShown, !names.contains(interval.name ?? "") {
                names.append(interval.name ?? "")
            }
            guard interval.name == signpost else { return }
            if let subsystem, interval.subsystem != subsystem { return }
            if !subsystems.contains(interval.subsystem ?? "") { subsystems.append(interval.subsystem ?? "") }
            guard frameProblem == nil else { return }
            do {
                try frames.append(frame(interval))
            } catch {
                frameProblem = error
            }
        }

        /// The trace of the frames read, or the first problem.
        func trace() throws(CalibrationError) -> CalibrationTrace {
            guard !subsystems.isEmpty else {
                let seen =
                    names.isEmpty
                    ? "the table has no intervals"
                    : "the table's names are " + names.map { "\"\($0)\"" }.joined(separator: ", ")
                throw CalibrationError(
                    file: file, line: nil,
                    problem:
                        "no interval named \"\(signpost)\"\(subsystem.map { " in subsystem \"\($0)\"" } ?? ""); \(seen)"
                )
            }
            guard subsystems.count == 1 else {
                throw CalibrationError(
                    file: file, line: nil,
                    problem: "intervals named \"\(signpost)\" come from \(subsystems.count) subsystems ("
                        + subsystems.map { "\"\($0)\"" }.joined(separator: ", ") + "); name yours with --subsystem")
            }
            if let frameProblem { throw frameProblem }
            var measured = CostTerm.all.indices.map { keys?.contains($0) ?? false }
            measured[intercept] = true
            return CalibrationTrace(file: file, measured: measured, frames: frames)
        }

        /// The frame of `interval`: every end message must give the same keys.
        private func frame(_ interval: Interval) throws(CalibrationError) -> CalibrationTrace.Frame {
            guard frames.count < CalibrationTrace.maximumFrames else {
                throw CalibrationError(
                    file: file, line: interval.line,
                    problem: "more than \(CalibrationTrace.maximumFrames) frames; split the trace")
            }
            guard let text = interval.durationText, let ns = Int64(text.trimmingSpaces()), ns >= 0
            else {
                throw CalibrationError(
                    file: file, line: interval.line,
                    problem:
                        """
                        the interval's duration is \
                        \(interval.durationText.map { "\"\($0.prefix(40))\"" } ?? "empty"), expected whole \
                        nanoseconds
                        """
                )
            }
            guard let message = interval.endMessage, !message.trimmingSpaces().isEmpty else {
                throw CalibrationError(
                    file: file, line: interval.line,
                    problem: "the interval has no end message; expected key=value counts such as \"cells_configured=3\""
                )
            }
            var counts = [Double](repeating: 0, count: CostTerm.all.count)
            counts[intercept] = 1
            var given: [Int] = []
            for pair in message.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    throw CalibrationError(
                        file: file, line: interval.line,
                        problem: "the end message's \"\(pair.prefix(40))\" is not key=value")
                }
                let key = String(parts[0])
                guard let term = CostTerm.all.firstIndex(where: { $0.traceColumn == key }) else {
                    throw CalibrationError(
                        file: file, line: interval.line,
                        problem: "the end message's key \"\(key.prefix(40))\" is not a trace column; expected any of "
                            + CostTerm.all.map(\.traceColumn).joined(separator: ", "))
                }
                guard !given.contains(term) else {
                    throw CalibrationError(
                        file: file, line: interval.line, problem: "the end message gives \(key) twice")
                }
                guard let value = Double(parts[1]), value.isFinite, value >= 0 else {
                    throw CalibrationError(
                        file: file, line: interval.line,
                        problem: "\(key) is \"\(parts[1].prefix(40))\", expected a number ≥ 0")
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
            return CalibrationTrace.Frame(line: interval.line, durationNs: Double(ns), counts: counts)
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
    /// streams past, resolving `ref`s, hands each row's interval to a
    /// `FrameCollector`, and stops at the first problem.
    ///
    /// Only values the collector reads are kept: the cells of the columns
    /// read, and the values by `id` of the element types those columns
    /// hold. Instruments interns a value by its type (the column's
    /// `engineering-type`, the cell's element name), so a `ref` always names
    /// an element of its own type; a process, thread, backtrace or start
    /// time is never looked up again, and keeping them would hold memory in
    /// proportion to the export. A schema that does not say a read column's
    /// type keeps every `id`.
    final class TableReader: XMLEventHandler {
        /// The columns read.
        static let readMnemonics = [durationMnemonic, nameMnemonic, subsystemMnemonic, endMessageMnemonic]

        let file: String
        let frames: FrameCollector
        var problem: CalibrationError?
        var sawTable = false

        /// Values by `id`, document-wide, of the element types in `internedTypes`.
        private var interned: [String: Value] = [:]
        /// The element types whose `id`s are kept; nil keeps every one.
        private var internedTypes: Set<String>?
        /// The open elements, innermost last.
        private var path: [String] = []
        private var mnemonics: [String] = []
        /// Each column's `engineering-type`, "" where the schema gives none.
        private var types: [String] = []
        /// Whether each column is read.
        private var readColumns: [Bool] = []
        private var inMnemonic = false
        private var inType = false
        private var mnemonicText = ""
        /// The row being read: its line, cells so far (nil for a sentinel).
        private var row: (line: Int, cells: [Value?])?
        /// Elements open inside the current row's cell, with their values
        /// and ids, innermost last.
        private var open: [(id: String?, value: Value, isReference: Bool)] = []

        init(file: String, frames: FrameCollector) {
            self.file = file
            self.frames = frames
        }

        /// How many values by `id` are held.
        var internedCount: Int { interned.count }

        private func keepsID(of element: String) -> Bool {
            internedTypes?.contains(element) ?? true
        }

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
                    fail(
                        """
                        the document is <\(element.prefix(40))>, expected <trace-query-result> (xctrace export \
                        --xpath …)
                        """,
                        line: line)
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
                if let reference = attributes["ref"] {
                    guard keepsID(of: element) else {
                        open.append((nil, Value(), true))
                        return
                    }
                    guard let value = interned[reference] else {
                        fail(
                            "<\(element.prefix(40)) ref=\"\(reference.prefix(20))\"> refers to no earlier id",
                            line: line)
                        return
                    }
                    open.append((nil, value, true))
                } else {
                    open.append(
                        (
                            keepsID(of: element) ? attributes["id"] : nil, Value(text: "", format: attributes["fmt"]),
                            false
                        ))
                }
                return
            }
            switch element {
            case "node":
                mnemonics = []
                types = []
                readColumns = []
            case "schema":
                sawTable = true
                mnemonics = []
                types = []
                readColumns = []
            case "col" where path.last == "schema":
                types.append("")
            case "mnemonic" where path.last == "col":
                inMnemonic = true
                mnemonicText = ""
            case "engineering-type" where path.last == "col":
                inType = true
                mnemonicText = ""
            case "row":
                guard path.last == "node" else { return }
                guard !mnemonics.isEmpty else {
                    fail("a <row> before its node's <schema>", line: line)
                    return
                }
                for needed in [
                    XctraceExport.durationMnemonic, XctraceExport.nameMnemonic, XctraceExport.endMessageMnemonic,
                ]
                where !mnemonics.contains(needed) {
                    fail(
                        """
                        the table's schema has no \(needed) column; its columns are \
                        \(mnemonics.joined(separator: ", "))
                        """,
                        line: line)
                    return
                }
                if readColumns.isEmpty { chooseColumns() }
                row = (line, [])
            default:
                break
            }
        }

        /// Which columns are read and which element types keep their ids,
        /// once the node's schema is complete.
        private func chooseColumns() {
            readColumns = mnemonics.map(TableReader.readMnemonics.contains)
            var kept: Set<String> = []
            for (column, read) in readColumns.enumerated() where read {
                guard column < types.count, !types[column].isEmpty else {
                    internedTypes = nil
                    return
                }
                kept.insert(types[column])
            }
            // Types read in an earlier node of the document stay kept: a
            // later node may refer to their values.
            internedTypes = internedTypes.map { $0.union(kept) } ?? (interned.isEmpty ? kept : nil)
        }

        func characters(_ string: String) {
            guard problem == nil else { return }
            if inMnemonic || inType { mnemonicText += string }
            if row != nil, let last = open.indices.last, !open[last].isReference,
                open[last].id != nil || readsCell(at: open.count)
            {
                open[last].value.text += string
            }
        }

        /// Whether the text of an element `depth` deep in the row is read:
        /// a cell's own text, in a column read.
        private func readsCell(at depth: Int) -> Bool {
            guard depth == 1, let row else { return false }
            let column = row.cells.count
            return column < readColumns.count && readColumns[column]
        }

        func endElement(_ element: String, line: Int) {
            guard problem == nil else { return }
            path.removeLast()
            if inMnemonic, element == "mnemonic" {
                mnemonics.append(mnemonicText.trimmingWhitespace())
                inMnemonic = false
                return
            }
            if inType, element == "engineering-type" {
                if !types.isEmpty {
                    types[types.count - 1] = mnemonicText.trimmingWhitespace()
                }
                inType = false
                return
            }
            guard let current = row else { return }
            if let closed = open.popLast() {
                if let id = closed.id { interned[id] = closed.value }
                if open.isEmpty, element != "sentinel" {
                    // Only the cells read are kept; the others only count.
                    row!.cells.append(readsCell(at: 1) ? closed.value : nil)
                }
                return
            }
            guard element == "row" else { return }
            row = nil
            guard current.cells.count <= mnemonics.count else {
                fail(
                    "the row has \(current.cells.count) cells but the schema has \(mnemonics.count) columns",
                    line: current.line)
                return
            }
            func cell(_ mnemonic: String) -> Value? {
                guard let index = mnemonics.firstIndex(of: mnemonic), index < current.cells.count else { return nil }
                return current.cells[index]
            }
            frames.add(
                Interval(
                    line: current.line,
                    durationText: cell(XctraceExport.durationMnemonic)?.text,
                    name: cell(XctraceExport.nameMnemonic)?.shown,
                    subsystem: cell(XctraceExport.subsystemMnemonic)?.shown,
                    endMessage: cell(XctraceExport.endMessageMnemonic)?.shown))
        }
    }
}
