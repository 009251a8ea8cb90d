import CSVCodec
import FeedSimulator

/// The CSV files of a set of runs, with the columns docs/design.md
/// ("CSV columns") fixes.
package enum RunReports {
    /// The key columns, `seed`, then one column per `Metric`.
    package static let summaryColumns = SummaryFile.keyColumns + [SummaryFile.seedColumn] + Metric.all.map(\.name)

    package static let frameColumns = [
        "scenario", "variant", "refresh_hz", "frame", "time_ms", "work_ms",
        "budget_ms", "overrun", "dropped", "content_offset_pt", "first_visible",
        "last_visible", "allocations", "commit_ms", "render_ms", "presented_ms", "hitch_type",
    ]

    package static let driftColumns = [
        "scenario", "variant", "refresh_hz", "time_ms", "cause", "anchor_id",
        "before_y_pt", "after_y_pt", "drift_pt", "clamped_pt",
    ]

    /// The column drift.csv and frames.csv end with when each scenario ran
    /// under several seeds (`feedsim run --seeds N`), so that every row names
    /// its run. Without `--seeds` the files keep the columns above, byte for
    /// byte as before.
    package static let seedColumn = "seed"

    /// The columns of drift.csv, ending with `seed` when `seeded`.
    package static func driftColumns(seeded: Bool) -> [String] {
        driftColumns + (seeded ? [seedColumn] : [])
    }

    /// The columns of frames.csv, ending with `seed` when `seeded`.
    package static func frameColumns(seeded: Bool) -> [String] {
        frameColumns + (seeded ? [seedColumn] : [])
    }

    /// One row per run.
    package static func summary(_ results: [RunResult]) -> CSVTable {
        var table = CSVTable(columns: summaryColumns)
        for r in results { table.append(summaryRow(r)) }
        return table
    }

    /// One row per rendered frame of every run that kept its frames, each
    /// ending with its run's seed when `seeded`.
    package static func frames(_ results: [RunResult], seeded: Bool = false) -> CSVTable {
        var table = CSVTable(columns: frameColumns(seeded: seeded))
        for r in results {
            for row in frameRows(r) { table.append(seeded ? row + [String(r.seed)] : row) }
        }
        return table
    }

    /// One row per drift event, each ending with its run's seed when `seeded`.
    package static func drift(_ results: [RunResult], seeded: Bool = false) -> CSVTable {
        var table = CSVTable(columns: driftColumns(seeded: seeded))
        for r in results {
            for row in driftRows(r) { table.append(seeded ? row + [String(r.seed)] : row) }
        }
        return table
    }

    /// The run's summary.csv row.
    package static func summaryRow(_ r: RunResult) -> [String] {
        [r.scenario, r.variant, String(r.refreshHz), String(r.seed)] + Metric.all.map { $0.value(of: r) }
    }

    /// The run's frames.csv rows.
    package static func frameRows(_ r: RunResult) -> [[String]] {
        r.frames.map { frame in
            [
                r.scenario, r.variant, String(r.refreshHz), String(frame.frame),
                ReportNumber.milliseconds(frame.time), ReportNumber.milliseconds(frame.work),
                ReportNumber.milliseconds(frame.budget), frame.isOverrun ? "1" : "0", String(frame.dropped),
                ReportNumber.fixed(frame.contentOffset, 2),
                frame.visible.isEmpty ? "-1" : String(frame.visible.lowerBound),
                frame.visible.isEmpty ? "-1" : String(frame.visible.upperBound - 1),
                r.allocations == nil ? "" : String(frame.allocations),
                ReportNumber.milliseconds(frame.work), ReportNumber.milliseconds(frame.render),
                ReportNumber.milliseconds(frame.presented), frame.hitchType.rawValue,
            ]
        }
    }

    /// The run's drift.csv rows.
    package static func driftRows(_ r: RunResult) -> [[String]] {
        r.drift.map { event in
            [
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

extension SummaryRow {
    /// The summary row of `result`, exactly as `summary.csv` would hold it
    /// and `SummaryFile` read it back, followed by `extra` fields (explore's
    /// `violations`); `line` is the line it would stand on.
    package init(_ result: RunResult, extra: [SummaryField] = [], line: Int = 0) {
        self.init(
            key: SummaryKey(scenario: result.scenario, variant: result.variant, refreshHz: result.refreshHz),
            seed: result.seed,
            metrics: Metric.all.map { SummaryField(name: $0.name, value: $0.value(of: result)) } + extra,
            line: line)
    }
}
