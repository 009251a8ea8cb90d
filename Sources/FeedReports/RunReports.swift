import CSVCodec
import FeedSimulator

/// The CSV files of a set of runs, with the columns DESIGN.md fixes.
public enum RunReports {
    /// The key columns, `seed`, then one column per `Metric`.
    public static let summaryColumns = SummaryFile.keyColumns + [SummaryFile.seedColumn] + Metric.all.map(\.name)

    public static let frameColumns = [
        "scenario", "variant", "refresh_hz", "frame", "time_ms", "work_ms",
        "budget_ms", "overrun", "dropped", "content_offset_pt", "first_visible",
        "last_visible", "allocations", "commit_ms", "render_ms", "presented_ms", "hitch_type",
    ]

    public static let driftColumns = [
        "scenario", "variant", "refresh_hz", "time_ms", "cause", "anchor_id",
        "before_y_pt", "after_y_pt", "drift_pt", "clamped_pt",
    ]

    /// One row per run.
    public static func summary(_ results: [RunResult]) -> CSVTable {
        var table = CSVTable(columns: summaryColumns)
        for r in results { table.append(summaryRow(r)) }
        return table
    }

    /// One row per rendered frame of every run that kept its frames.
    public static func frames(_ results: [RunResult]) -> CSVTable {
        var table = CSVTable(columns: frameColumns)
        for r in results {
            for row in frameRows(r) { table.append(row) }
        }
        return table
    }

    /// One row per drift event.
    public static func drift(_ results: [RunResult]) -> CSVTable {
        var table = CSVTable(columns: driftColumns)
        for r in results {
            for row in driftRows(r) { table.append(row) }
        }
        return table
    }

    /// The run's summary.csv row.
    public static func summaryRow(_ r: RunResult) -> [String] {
        [r.scenario, r.variant, String(r.refreshHz), String(r.seed)] + Metric.all.map { $0.value(of: r) }
    }

    /// The run's frames.csv rows.
    public static func frameRows(_ r: RunResult) -> [[String]] {
            r.frames.map { frame in [
                    r.scenario, r.variant, String(r.refreshHz), String(frame.frame),
                    ReportNumber.milliseconds(frame.time), ReportNumber.milliseconds(frame.work),
                    ReportNumber.milliseconds(frame.budget), frame.isOverrun ? "1" : "0", String(frame.dropped),
                    ReportNumber.fixed(frame.contentOffset, 2),
                    frame.visible.isEmpty ? "-1" : String(frame.visible.lowerBound),
                    frame.visible.isEmpty ? "-1" : String(frame.visible.upperBound - 1),
                    String(frame.allocations),
                    ReportNumber.milliseconds(frame.work), ReportNumber.milliseconds(frame.render),
                    ReportNumber.milliseconds(frame.presented), frame.hitchType.rawValue,
                ]
            }
    }

    /// The run's drift.csv rows.
    public static func driftRows(_ r: RunResult) -> [[String]] {
            r.drift.map { event in [
                    r.scenario, r.variant, String(r.refreshHz), ReportNumber.milliseconds(event.time), event.cause,
                    String(event.anchorID),
                    ReportNumber.fixed(event.beforeY, 2),
                    event.afterY.map { ReportNumber.fixed($0, 2) } ?? "",
                    event.drift.map { ReportNumber.fixed($0, 2) } ?? "lost",
                    ReportNumber.fixed(event.clampedBy, 2),
                ]
            }
    }
}
