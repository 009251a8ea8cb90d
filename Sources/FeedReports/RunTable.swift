/// The short table `feedsim run` prints: one line per run, from summary rows.
public enum RunTable {
    /// The summary columns shown, with their headings.
    static let shown: [(column: String, heading: String)] = [
        ("scenario", "scenario"), ("variant", "variant"), ("refresh_hz", "Hz"), ("frames", "frames"),
        ("overrun_frames", "overrun"), ("dropped_frames", "dropped"), ("hitch_ratio_ms_per_s", "hitch ms/s"),
        ("frame_work_p99_ms", "p99 ms"), ("drift_max_pt", "drift max pt"), ("allocations", "allocs"),
    ]

    /// Renders summary rows (fields in `RunReports.summaryColumns` order).
    public static func render(summaryRows: [[String]]) -> String {
        let indices = shown.map { RunReports.summaryColumns.firstIndex(of: $0.column)! }
        let rows = summaryRows.map { row in indices.map { row[$0] } }
        return TextGrid.render(header: shown.map(\.heading), rows: rows)
    }
}

/// Plain-text columns: text left-aligned, numbers right-aligned.
public enum TextGrid {
    public static func render(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (i, field) in row.enumerated() { widths[i] = max(widths[i], field.count) }
        }
        func isNumeric(_ s: String) -> Bool {
            !s.isEmpty && s.allSatisfy { $0.isNumber || $0 == "." || $0 == "-" }
        }
        func line(_ fields: [String]) -> String {
            fields.enumerated().map { i, field in
                let pad = String(repeating: " ", count: widths[i] - field.count)
                return isNumeric(field) ? pad + field : field + pad
            }.joined(separator: "  ")
        }
        var lines = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        lines += rows.map(line)
        return lines.joined(separator: "\n")
    }
}
