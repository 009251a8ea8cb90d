import FeedSimulator

/// The short table `feedsim run` prints: one line per run.
public enum RunTable {
    public static func render(_ results: [RunResult]) -> String {
        let header = ["scenario", "variant", "Hz", "frames", "overrun", "dropped", "hitch ms/s", "p99 ms", "drift max pt", "allocs"]
        let rows = results.map { r -> [String] in
            let f = r.frameSummary
            let drifts = r.drift.compactMap { $0.anchorID == nil ? nil : abs($0.drift) }
            return [
                r.scenario, r.variant, String(r.refreshHz), String(f.frames), String(f.overrunFrames),
                String(f.droppedFrames), ReportNumber.fixed(f.hitchRatioMsPerS, 2),
                ReportNumber.milliseconds(f.workP99), ReportNumber.fixed(drifts.max() ?? 0, 1),
                String(r.allocations.requests),
            ]
        }
        return TextGrid.render(header: header, rows: rows)
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
