import CSVCodec
import FeedReports
import FeedSimulator

/// explore.csv and violations.csv: what `feedsim explore` writes.
package enum ExploreReport {
    /// The summary metrics explore.csv carries: all of summary.csv's but
    /// the allocation counts, which need a process of their own per run to
    /// be exact and independent of which runs shared a worker.
    package static let metrics = Metric.all.filter { !["allocations", "allocated_bytes"].contains($0.name) }

    /// summary.csv's key columns (`scenario` is the session, `variant` the
    /// strategy), its metrics but the allocation counts, then `violations`.
    package static let columns =
        SummaryFile.keyColumns + [SummaryFile.seedColumn] + metrics.map(\.name) + ["violations"]

    package static let violationColumns = ["session", "strategy", "property", "cause", "time_ms", "detail"]

    static func row(_ r: RunResult, violations: Int) -> [String] {
        [r.scenario, r.variant, String(r.refreshHz), String(r.seed)] + metrics.map { $0.value(of: r) } + [
            String(violations)
        ]
    }

    /// `row` with its violation count (the last column) replaced.
    static func row(replacingViolations row: [String], with violations: Int) -> [String] {
        row.dropLast() + [String(violations)]
    }

    /// One row per session × strategy, sessions in index order.
    package static func exploreTable(_ runs: [SessionRunner.StrategyRun]) -> CSVTable {
        var table = CSVTable(columns: columns)
        for run in runs { if let row = run.row { table.append(row) } }
        return table
    }

    /// One row per violation.
    package static func violationTable(_ violations: [Violation]) -> CSVTable {
        var table = CSVTable(columns: violationColumns)
        for v in violations { table.append(violationRow(v)) }
        return table
    }

    /// The row of `v` in violations.csv.
    package static func violationRow(_ v: Violation) -> [String] {
        [v.session, v.strategy, v.property.rawValue, v.cause, ReportNumber.milliseconds(v.timeNs), v.detail]
    }
}
