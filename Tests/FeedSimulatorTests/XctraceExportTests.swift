import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// The os-signpost-interval table of `xctrace export`, read into a
/// calibration trace. The fixtures follow the export's documented shape:
/// a schema of `col`/`mnemonic`, rows of cells in its order, values
/// interned by `id` and referenced by `ref` (at any depth), `<sentinel/>`
/// for empty cells, and other signposts and subsystems beside the frames.
@Suite("xctrace export")
struct XctraceExportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xctrace", isDirectory: true)

    static func read(
        _ name: String, signpost: String = XctraceExport.defaultSignpost, subsystem: String? = nil
    ) throws -> CalibrationTrace {
        try XctraceExport.trace(
            data: Data(contentsOf: fixtures.appendingPathComponent(name)), file: name, signpost: signpost,
            subsystem: subsystem)
    }

    static func column(_ name: String) -> Int { CostTerm.all.firstIndex { $0.traceColumn == name }! }

    @Test("the Frame intervals of an export, interned values resolved, other signposts and subsystems skipped")
    func frames() throws {
        let trace = try XctraceExportTests.read("frames.xml")
        #expect(trace.frames.count == 16)
        let configured = XctraceExportTests.column("cells_configured"),
            measured = XctraceExportTests.column("cells_measured")
        #expect(
            trace.measured.enumerated().filter(\.element).map { CostTerm.all[$0.offset].traceColumn } == [
                "frames", "cells_configured", "cells_measured",
            ])
        for (f, frame) in trace.frames.enumerated() {
            let c = Double(f % 4), m = Double((f / 4) % 3)
            #expect(frame.counts[configured] == c && frame.counts[measured] == m, "frame \(f)")
            #expect(
                frame.durationNs == 3_000_000 + 800_000 * c + 2_500_000 * m,
                "frame \(f): the duration is the cell's raw nanoseconds")
            #expect(frame.counts[XctraceExportTests.column("frames")] == 1)
        }
        // Frames 12–15 repeat 0–3: their duration and message cells are refs.
        let text = try String(
            contentsOf: XctraceExportTests.fixtures.appendingPathComponent("frames.xml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let last = lines[trace.frames[15].line - 1]
        #expect(
            last.contains("<os-log-metadata ref=") && last.contains("<duration ref="),
            "the fixture interns: \(last.prefix(200))")
        #expect(trace.frames.allSatisfy { lines[$0.line - 1].contains("<string") }, "each frame's line is its row's")

        let base = try CalibrationTests.bundledProfile()
        let calibration = try Calibration(trace: trace, base: base.costs)
        #expect(calibration.costs.frameBase.value == 3_000_000)
        #expect(calibration.costs.cellConfigure.value == 800_000)
        #expect(calibration.costs.cellMeasure.value == 2_500_000)
    }

    @Test(
        """
        cells are read by the schema's mnemonics: the same table with its columns in another order gives the same \
        frames
        """
    )
    func columnOrder() throws {
        let shuffled = try XctraceExportTests.read("shuffled-columns.xml")
        let original = try XctraceExportTests.read("frames.xml")
        #expect(shuffled.frames.map(\.durationNs) == original.frames.map(\.durationNs))
        #expect(shuffled.frames.map(\.counts) == original.frames.map(\.counts))
        #expect(shuffled.measured == original.measured)
    }

    @Test("Frame intervals from two subsystems are refused until --subsystem names one")
    func subsystems() throws {
        #expect {
            _ = try XctraceExportTests.read("two-subsystems.xml")
        } throws: { error in
            "\(error)".hasPrefix(
                """
                two-subsystems.xml: intervals named \"Frame\" come from 2 subsystems (\"com.example.feedapp\", \
                \"com.example.otherkit\")
                """
            )
        }
        #expect(try XctraceExportTests.read("two-subsystems.xml", subsystem: "com.example.feedapp").frames.count == 16)
        #expect(try XctraceExportTests.read("two-subsystems.xml", subsystem: "com.example.otherkit").frames.count == 3)
    }

    @Test("another signpost name is read with --signpost; an absent one is refused with the names the table has")
    func signpostName() throws {
        #expect {
            _ = try XctraceExportTests.read("frames.xml", signpost: "ImageDecode")
        } throws: { error in
            "\(error)".contains("\"bytes\" is not a trace column")
        }
        #expect {
            _ = try XctraceExportTests.read("frames.xml", signpost: "Commit")
        } throws: { error in
            "\(error)"
                == """
                frames.xml: no interval named \"Commit\"; the table's names are \"Frame\", \"ImageDecode\", \
                \"CA::Transaction\"
                """
        }
    }

    @Test("a Frame interval whose end message is a sentinel is refused at its row's line")
    func sentinelMessage() throws {
        let text = try String(
            contentsOf: XctraceExportTests.fixtures.appendingPathComponent("no-end-message.xml"), encoding: .utf8)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter {
                $0.element.hasPrefix("<row>")
                    && ($0.element.contains("fmt=\"Frame\"") || $0.element.contains("<string ref=\"4\"/>"))
            }
            .map { $0.offset + 1 }[5]
        #expect {
            _ = try XctraceExportTests.read("no-end-message.xml")
        } throws: { error in
            "\(error)".hasPrefix("no-end-message.xml:\(line): the interval has no end message")
        }
    }

    @Test("malformed XML is refused with the line the parser stopped at")
    func malformed() throws {
        #expect {
            _ = try XctraceExportTests.read("malformed.xml")
        } throws: { error in
            "\(error)".hasPrefix("malformed.xml:31: malformed XML: an end tag does not match the element it closes")
        }
    }

    /// An export of `frames` Frame intervals as xctrace writes them, each
    /// row on a line of its own followed by `padding` spaces; the duration
    /// and the message vary with the frame so nothing is interned.
    static func largeExport(frames: Int, padding: Int = 0) -> String {
        let schema = XctraceExportTests.schema.replacingOccurrences(
            of: "</schema>", with: "<col><mnemonic>backtrace</mnemonic></col></schema>")
        var text = "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node xpath=\"x\">\n" + schema + "\n"
        let pad = String(repeating: " ", count: padding)
        text.reserveCapacity(frames * (900 + padding))
        for f in 0..<frames {
            let configured = f % 7, measured = f % 3
            let duration = 3_000_000 + 800_000 * configured + 2_500_000 * measured
            // Real exports write a process, a thread and a backtrace beside
            // each interval: about 900 bytes a row.
            let extra =
                "<process id=\"p\(f)\" fmt=\"Feed (\(4000 + f % 9))\"><pid>\(4000 + f % 9)</pid></process>"
                + String(repeating: "<frame addr=\"0x1a2b3c4d\" name=\"FeedList.layout\"/>", count: 16)
            text +=
                "<row><duration fmt=\"\(duration / 1000) µs\">\(duration)</duration><string>Frame</string>"
                    + """
                    <os-log-metadata fmt=\"cells_configured=\(configured) \
                    cells_measured=\(measured)\"/><backtrace>\(extra)</backtrace></row>\n
                    """
                + pad
        }
        return text + "</node>\n</trace-query-result>\n"
    }

    @Test(
        "an export of any length is read: 11,000 frames (over 10 MB), and 5,000 frames padded to 12 MB",
        arguments: [(11_000, 0), (5_000, 1_500)])
    func largeExports(frames: Int, padding: Int) throws {
        let text = XctraceExportTests.largeExport(frames: frames, padding: padding)
        #expect(text.utf8.count > 10_500_000, "the export must pass the 10 MB a whole-document parse stops at")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "xctrace-\(frames)-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("frames.xml")
        try Data(text.utf8).write(to: url)
        let trace = try XctraceExport.trace(url: url, file: "frames.xml")
        #expect(trace.frames.count == frames)
        let configured = XctraceExportTests.column("cells_configured")
        #expect(trace.frames.last?.counts[configured] == Double((frames - 1) % 7))
        #expect(
            trace.frames.last?.durationNs
                == Double(3_000_000 + 800_000 * ((frames - 1) % 7) + 2_500_000 * ((frames - 1) % 3)))
        #expect(trace.frames[1].line == 6, "rows keep their lines")
    }

    /// An export of `frames` Frame intervals in Instruments' own form (as
    /// scripts/xctrace-export writes them): the schema with each column's
    /// `engineering-type`, every value written once with an `id` and later
    /// as a `ref`, a new start time, identifier and backtrace in every row,
    /// a process inside a thread, and the signature column referring to
    /// the name column's string.
    static func internedExport(frames: Int) -> String {
        let columns = [
            ("start", "start-time"), ("duration", "duration"), ("name", "string"), ("subsystem", "subsystem"),
            ("identifier", "os-signpost-identifier"), ("process", "process"), ("start-thread", "thread"),
            ("end-message", "os-log-metadata"), ("end-backtrace", "backtrace"), ("signature", "string"),
        ]
        var text =
            "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node xpath=\"x\">\n<schema name=\"os-signpost-interval\">"
        for (mnemonic, type) in columns {
            text += "<col><mnemonic>\(mnemonic)</mnemonic><engineering-type>\(type)</engineering-type></col>"
        }
        text += "</schema>\n"
        var ids: [String: Int] = [:]
        var next = 1
        func value(_ element: String, _ shown: String, _ raw: String = "", inner: () -> String = { "" }) -> String {
            let key = element + "\u{0}" + shown + "\u{0}" + raw
            if let id = ids[key] { return "<\(element) ref=\"\(id)\"/>" }
            let id = next
            next += 1
            ids[key] = id
            return "<\(element) id=\"\(id)\" fmt=\"\(shown)\">\(raw)\(inner())</\(element)>"
        }
        func unique(_ element: String, _ shown: String, _ raw: String = "", inner: String = "") -> String {
            defer { next += 1 }
            return "<\(element) id=\"\(next)\" fmt=\"\(shown)\">\(raw)\(inner)</\(element)>"
        }
        for f in 0..<frames {
            let configured = f % 4, measured = (f / 4) % 3
            let duration = 3_000_000 + 800_000 * configured + 2_500_000 * measured
            let process = { value("process", "FeedApp (4242)", inner: { value("pid", "4242", "4242") }) }
            let backtrace = (0..<20).map { k in value("frame", "symbol\((f + k) % 20)") }.joined()
            text +=
                "<row>" + unique("start-time", "00:01", String(1_000_000_000 + f * 8_333_333))
                + value("duration", "\(duration / 1000) µs", String(duration)) + value("string", "Frame", "Frame")
                + value("subsystem", "com.example.feedapp", "com.example.feedapp")
                + unique("os-signpost-identifier", "0x1", String(f))
                + process() + value("thread", "Main Thread", inner: { value("tid", "0x1", "1") + process() })
                + value(
                    "os-log-metadata", "cells_configured=\(configured) cells_measured=\(measured)",
                    inner: { value("metadata-format-string", "%{public}s", "%{public}s") })
                + unique("backtrace", "", inner: backtrace) + value("string", "Frame", "Frame") + "</row>\n"
        }
        return text + "</node>\n</trace-query-result>\n"
    }

    @Test(
        """
        an export in Instruments' id/ref form is read keeping only the values of the columns read: its ids of \
        other types are let go
        """
    )
    func internedForm() throws {
        let frames = 3_000
        let text = XctraceExportTests.internedExport(frames: frames)
        let trace = try XctraceExport.trace(data: Data(text.utf8), file: "interned.xml")
        #expect(trace.frames.count == frames)
        let configured = XctraceExportTests.column("cells_configured"),
            measured = XctraceExportTests.column("cells_measured")
        for (f, frame) in trace.frames.enumerated() {
            let c = Double(f % 4), m = Double((f / 4) % 3)
            #expect(frame.counts[configured] == c && frame.counts[measured] == m, "frame \(f)")
            #expect(frame.durationNs == 3_000_000 + 800_000 * c + 2_500_000 * m, "frame \(f)")
            #expect(frame.line == f + 5, "frame \(f) is on its row's line")
        }
        #expect(
            text.contains("<duration ref=") && text.contains("<os-log-metadata ref="),
            "the export refers to repeated values")

        // Every row writes three new ids (start time, identifier, backtrace)
        // that nothing reads; the reader keeps only the strings, durations,
        // subsystems and messages, of which the export has a few dozen.
        let reader = XctraceExport.TableReader(
            file: "interned.xml",
            frames: XctraceExport.FrameCollector(file: "interned.xml", signpost: "Frame", subsystem: nil))
        var xml = XMLEventReader(source: .bytes(Data(text.utf8)))
        try xml.read(into: reader)
        #expect(reader.problem == nil)
        #expect(
            reader.internedCount > 0 && reader.internedCount < 40,
            "\(reader.internedCount) values kept for \(frames) frames")
    }

    @Test(
        "a ref to a value of a type no column read holds is not looked up; one of a type read must name an earlier id")
    func refsByType() throws {
        let schema =
            """
            <schema \
            name=\"os-signpost-interval\"><col><mnemonic>duration</mnemonic><engineering-type>\
            duration</engineering-type></col>
            """
            + "<col><mnemonic>name</mnemonic><engineering-type>string</engineering-type></col>"
            + "<col><mnemonic>process</mnemonic><engineering-type>process</engineering-type></col>"
            + "<col><mnemonic>end-message</mnemonic><engineering-type>os-log-metadata</engineering-type></col></schema>"
        let row =
            """
            <row><duration>1000</duration><string>Frame</string><process ref=\"77\"/><os-log-metadata \
            fmt=\"cells_measured=1\"/></row>
            """
        let trace = try XctraceExport.trace(
            data: Data(XctraceExportTests.document(row, schema: schema).utf8), file: "x.xml")
        #expect(trace.frames.count == 1)
        let bad =
            """
            <row><duration>1000</duration><string ref=\"78\"/><process ref=\"77\"/><os-log-metadata \
            fmt=\"cells_measured=1\"/></row>
            """
        #expect {
            try XctraceExport.trace(data: Data(XctraceExportTests.document(bad, schema: schema).utf8), file: "x.xml")
        } throws: { error in
            "\(error)".hasPrefix("x.xml:5: <string ref=\"78\"> refers to no earlier id")
        }
    }

    @Test(
        "a broken export says in words what is wrong and where, never a parser's error number",
        arguments: [
            (
                "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node xpath=\"x\">\n" + XctraceExportTests.schema
                    + "\n<row><duration>1</duration>",
                "the document ends inside <row> (opened at line 5)"
            ),
            (
                "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node><row a=b></row></node></trace-query-result>",
                "an attribute without a quoted value"
            ),
            (
                "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node></row></node></trace-query-result>",
                "an end tag does not match the element it closes"
            ),
            (
                "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node>&bogus;</node></trace-query-result>",
                "a bad entity reference"
            ),
            (
                "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node>\u{1}</node></trace-query-result>",
                "a character XML does not allow"
            ),
        ])
    func brokenExport(xml: String, words: String) {
        do {
            _ = try XctraceExport.trace(data: Data(xml.utf8), file: "x.xml")
            Issue.record("no error")
        } catch {
            #expect(error.description.contains(words), "\(error)")
            #expect(!error.description.contains("XMLParser error"), "\(error)")
            #expect(error.line != nil, "\(error)")
        }
    }

    struct BadExport: Sendable, CustomTestStringConvertible {
        var label: String
        var xml: String
        var message: String
        var testDescription: String { label }
    }

    static let schema = """
        <schema \
        name="os-signpost-interval"><col><mnemonic>duration</mnemonic></col><col><mnemonic>name</mnemonic></col>\
        <col><mnemonic>end-message</mnemonic></col></schema>
        """

    static func document(_ rows: String, schema: String = XctraceExportTests.schema) -> String {
        """
        <?xml version=\"1.0\"?>\n<trace-query-result>\n<node \
        xpath=\"x\">\n\(schema)\n\(rows)\n</node>\n</trace-query-result>\n
        """
    }

    @Test(
        "a bad export is refused naming the file, the line and the problem",
        arguments: [
            BadExport(
                label: "not an export", xml: "<?xml version=\"1.0\"?>\n<trace-toc/>\n",
                message: "x.xml:2: the document is <trace-toc>, expected <trace-query-result>"),
            BadExport(label: "empty", xml: "", message: "x.xml:1: the file is empty"),
            BadExport(
                label: "no table", xml: "<trace-query-result/>",
                message: "x.xml: no <trace-query-result><node><schema> table found"),
            BadExport(
                label: "ref to no id",
                xml: document("<row><duration>1000</duration><string>Frame</string><os-log-metadata ref=\"9\"/></row>"),
                message: "x.xml:5: <os-log-metadata ref=\"9\"> refers to no earlier id"),
            BadExport(
                label: "schema without end-message",
                xml: document(
                    "<row><duration>1</duration></row>",
                    schema:
                        """
                        <schema \
                        name=\"os-signpost-interval\"><col><mnemonic>duration</mnemonic></col><col><mnemonic>\
                        name</mnemonic></col></schema>
                        """
                ),
                message: "x.xml:5: the table's schema has no end-message column; its columns are duration, name"),
            BadExport(
                label: "more cells than columns",
                xml: document(
                    """
                    <row><duration>1</duration><string>Frame</string><os-log-metadata \
                    fmt=\"frames=1\"/><string>x</string></row>
                    """
                ),
                message: "x.xml:5: the row has 4 cells but the schema has 3 columns"),
            BadExport(
                label: "duration not a number",
                xml: document(
                    """
                    <row><duration fmt=\"1 ms\">soon</duration><string>Frame</string><os-log-metadata \
                    fmt=\"cells_measured=1\"/></row>
                    """
                ),
                message: "x.xml:5: the interval's duration is \"soon\", expected whole nanoseconds"),
            BadExport(
                label: "unknown key",
                xml: document(
                    "<row><duration>1</duration><string>Frame</string><os-log-metadata fmt=\"colour=2\"/></row>"),
                message: "x.xml:5: the end message's key \"colour\" is not a trace column"),
            BadExport(
                label: "not key=value",
                xml: document(
                    "<row><duration>1</duration><string>Frame</string><os-log-metadata fmt=\"cells_measured 2\"/></row>"
                ),
                message: "x.xml:5: the end message's \"cells_measured\" is not key=value"),
            BadExport(
                label: "negative count",
                xml: document(
                    """
                    <row><duration>1</duration><string>Frame</string><os-log-metadata \
                    fmt=\"cells_measured=-2\"/></row>
                    """
                ),
                message: "x.xml:5: cells_measured is \"-2\", expected a number ≥ 0"),
            BadExport(
                label: "keys differ between frames",
                xml: document(
                    """
                    <row><duration>1</duration><string>Frame</string><os-log-metadata fmt=\"cells_measured=2 \
                    cells_configured=1\"/></row>\n<row><duration>1</duration><string>Frame</string>\
                    <os-log-metadata fmt=\"cells_measured=2\"/></row>
                    """
                ),
                message: "x.xml:6: the end message's keys differ from the first interval's; missing cells_configured"),
        ])
    func badExport(_ example: BadExport) {
        do {
            _ = try XctraceExport.trace(data: Data(example.xml.utf8), file: "x.xml")
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix(example.message), "\(error)")
        }
    }
}
