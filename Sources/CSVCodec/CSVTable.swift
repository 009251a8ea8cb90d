/// A CSV table: a header and rows of already formatted fields, written as
/// RFC 4180 (comma-separated, fields quoted when they hold a comma, quote or
/// line break, lines ending in LF). `CSVReader` reads what it writes.
package struct CSVTable: Sendable, Equatable {
    package var columns: [String]
    package private(set) var rows: [[String]] = []

    /// An empty table with `columns`.
    package init(columns: [String]) {
        self.columns = columns
    }

    /// Appends a row; it must have one field per column.
    package mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "row has \(row.count) fields for \(columns.count) columns")
        rows.append(row)
    }

    /// The table as CSV text.
    ///
    /// - Complexity: O(*n*) in the length of the text.
    package var text: String {
        var out = ""
        out += CSVTable.line(columns)
        for row in rows { out += CSVTable.line(row) }
        return out
    }

    /// One record: `fields` escaped, joined by commas, ended by LF.
    package static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",") + "\n"
    }

    /// `field` as it stands in a record: quoted, with its quotes doubled,
    /// when it holds a comma, a quote or a line break; as it is otherwise.
    package static func escape(_ field: String) -> String {
        // By byte: "\r\n" is one `Character`, equal to neither "\r" nor "\n".
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return field }
        var quoted = "\""
        for character in field {
            if character == "\"" { quoted.append("\"") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
