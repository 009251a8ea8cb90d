import FeedSimulator

/// The short table `feedsim run` prints: one line per run.
package enum RunTable {
    /// The columns shown, with their headings.
    static let shown: [(column: String, heading: String)] =
        SummaryFile.keyHeadings + Metric.all.filter(\.inRunTable).map { ($0.name, $0.heading) }

    /// Renders one line per run, with each run's seed after its key when
    /// `seeded` (the runs of `feedsim run --seeds N`).
    package static func render(_ results: [RunResult], seeded: Bool = false) -> String {
        let keyCount = SummaryFile.keyColumns.count
        let metrics = shown.dropFirst(keyCount).compactMap { Metric.named($0.column) }
        let rows = results.map { r in
            [r.scenario, r.variant, String(r.refreshHz)] + (seeded ? [String(r.seed)] : [])
                + metrics.map { $0.value(of: r) }
        }
        let headings = shown.map(\.heading)
        let header = seeded ? Array(headings.prefix(keyCount)) + ["seed"] + headings.dropFirst(keyCount) : headings
        return TextGrid.render(header: header, rows: rows)
    }
}

/// Plain-text columns: text left-aligned, numbers right-aligned.
package enum TextGrid {
    package static func render(header: [String], rows: [[String]]) -> String {
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
