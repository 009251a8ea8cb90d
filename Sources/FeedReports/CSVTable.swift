import Foundation

/// A CSV table: a header and rows of already formatted fields, written as
/// RFC 4180 (comma-separated, fields quoted when they hold a comma, quote or
/// line break, lines ending in LF).
public struct CSVTable: Sendable, Equatable {
    public var columns: [String]
    public private(set) var rows: [[String]] = []

    public init(columns: [String]) {
        self.columns = columns
    }

    /// Appends a row; it must have one field per column.
    public mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "row has \(row.count) fields for \(columns.count) columns")
        rows.append(row)
    }

    /// The table as CSV text.
    public var text: String {
        var out = ""
        out += CSVTable.line(columns)
        for row in rows { out += CSVTable.line(row) }
        return out
    }

    static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",") + "\n"
    }

    static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Number formatting for reports: fixed decimals, `.` as the separator,
/// never locale-dependent, so files are byte-identical across machines.
public enum ReportNumber {
    /// `value` with exactly `decimals` digits after the point.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let formatted = String(format: "%.\(decimals)f", value)
        return formatted == "-" + String(format: "%.\(decimals)f", 0.0) ? String(format: "%.\(decimals)f", 0.0) : formatted
    }

    /// Nanoseconds as milliseconds with three decimals.
    public static func milliseconds(_ nanoseconds: Int64) -> String {
        fixed(Double(nanoseconds) / 1_000_000, 3)
    }
}

/// Writes files so that a reader sees either the old file or the whole new
/// one, never a part: the text goes to a temporary file in the same folder,
/// which is then renamed over the destination.
public enum AtomicFile {
    public static func write(_ text: String, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
