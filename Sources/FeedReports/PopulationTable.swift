import FeedSimulator

/// Each variant over a population of runs: how many runs, the nearest-rank
/// p50, p95 and largest of the largest drift, the mean and p95 of the hitch
/// ratio, the overrun frames in all, and, when the results have a
/// `violations` column (explore results), the violations in all and the
/// runs with at least one.
///
/// Variants come in the order they first appear. Percentiles are
/// `NearestRank` percentiles, as every other percentile of the project; a
/// run whose value is not a finite number counts as a run but not in that
/// column's statistics.
package struct PopulationTable: Hashable, Sendable {
    /// The column of explore results holding a run's violation count.
    package static let violationsColumn = "violations"
    /// The column whose distribution the drift statistics describe.
    package static let driftColumn = "drift_max_pt"
    /// The column whose distribution the hitch statistics describe.
    package static let hitchColumn = "hitch_ratio_ms_per_s"
    /// The column summed as overruns.
    package static let overrunColumn = "overrun_frames"
    /// The columns a file of explore results must have to be read as a
    /// population (explore.csv leaves out summary.csv's allocation counts):
    /// the key columns, the seed, the table's metrics and `violations`.
    package static let exploreColumns =
        SummaryFile.keyColumns + [SummaryFile.seedColumn]
        + [driftColumn, hitchColumn, overrunColumn, violationsColumn]
    /// The columns the table reads.
    static let populationColumns = [driftColumn, hitchColumn, overrunColumn, violationsColumn]

    /// One variant's population.
    package struct Row: Hashable, Sendable {
        /// The variant.
        package var variant: String
        /// Its runs.
        package var runs: Int
        /// Nearest-rank median of `drift_max_pt`, pt (`nan` with no values).
        package var driftP50: Double
        /// Nearest-rank 95th percentile of `drift_max_pt`, pt.
        package var driftP95: Double
        /// Largest `drift_max_pt`, pt.
        package var driftMax: Double
        /// Mean of `hitch_ratio_ms_per_s`, ms/s.
        package var hitchMean: Double
        /// Nearest-rank 95th percentile of `hitch_ratio_ms_per_s`, ms/s.
        package var hitchP95: Double
        /// Σ `overrun_frames` (a whole number; kept as a `Double` so that no
        /// value a file can hold overflows it).
        package var overrunFrames: Double
        /// Σ `violations`; `nil` when the results have no such column.
        package var violations: Double?
        /// Runs with at least one violation; `nil` without the column.
        package var runsWithViolations: Int?
        /// The runs behind the extremes, so that a number leads to a run to
        /// replay: the session (explore results) or the seed (multi-seed
        /// results) of the p95 and the largest drift and of the p95 hitch
        /// ratio; empty with no values.
        package var driftP95Run: String
        package var driftMaxRun: String
        package var hitchP95Run: String
    }

    /// One row per variant, in order of first appearance.
    package let rows: [Row]
    /// Whether the results have a `violations` column.
    package let hasViolations: Bool

    /// The population table of `rows`.
    ///
    /// - Complexity: O(*r* log *r*) for *r* rows.
    package init(rows summaryRows: [SummaryRow]) {
        var variants: [String] = []
        var byVariant: [String: [SummaryRow]] = [:]
        for row in summaryRows {
            if byVariant[row.key.variant] == nil { variants.append(row.key.variant) }
            byVariant[row.key.variant, default: []].append(row)
        }
        let hasViolations = summaryRows.contains { $0.value(of: PopulationTable.violationsColumn) != nil }
        self.hasViolations = hasViolations
        self.rows = variants.map { variant in
            let runs = byVariant[variant]!
            // A run is named by its session when each run is a session of
            // its own (explore results), else by its seed.
            let bySession = Set(runs.map(\.key.scenario)).count == runs.count
            return PopulationTable.row(
                variant: variant, runs: runs.count, hasViolations: hasViolations,
                column: { column in runs.map { $0.value(of: column).flatMap(SummaryFile.parseNumber) ?? .nan } },
                runName: { i in bySession ? runs[i].key.scenario : "seed \(runs[i].seed)" })
        }
    }

    /// The population table of explore results read as columns: the same
    /// table `init(rows:)` gives for the same file.
    init(columns: PopulationColumns) {
        hasViolations = columns.hasViolations
        rows = columns.variants.indices.map { v in
            let order = columns.order[v]
            let bySession = Set(order.map { columns.keys[Int($0)].scenario }).count == order.count
            return PopulationTable.row(
                variant: columns.variants[v], runs: order.count, hasViolations: columns.hasViolations,
                column: { columns.column($0, of: v) ?? Array(repeating: .nan, count: order.count) },
                runName: { i in columns.runName(order[i], bySession: bySession) })
        }
    }

    /// One variant's row from its runs' values of each column, in the order
    /// of its runs (`nan` where a run has no number), and the name of each
    /// run.
    private static func row(
        variant: String, runs: Int, hasViolations: Bool, column: (String) -> [Double], runName: (Int) -> String
    ) -> Row {
        func values(_ column: [Double]) -> [Double] { column.filter(\.isFinite).sorted() }
        func ranked(_ column: [Double]) -> [(value: Double, run: Int)] {
            column.enumerated().filter { $0.element.isFinite }
                .sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
                .map { (value: $0.element, run: $0.offset) }
        }
        let driftColumn = column(PopulationTable.driftColumn)
        let hitchColumn = column(PopulationTable.hitchColumn)
        let drift = values(driftColumn)
        let hitch = values(hitchColumn)
        let overruns = values(column(PopulationTable.overrunColumn))
        let violations = hasViolations ? values(column(PopulationTable.violationsColumn)) : []
        let rankedDrift = ranked(driftColumn)
        let rankedHitch = ranked(hitchColumn)
        return Row(
            variant: variant, runs: runs,
            driftP50: NearestRank.percentile(drift, 0.50) ?? .nan,
            driftP95: NearestRank.percentile(drift, 0.95) ?? .nan,
            driftMax: drift.last ?? .nan,
            hitchMean: PairedComparison.mean(hitch),
            hitchP95: NearestRank.percentile(hitch, 0.95) ?? .nan,
            overrunFrames: overruns.reduce(0, +),
            violations: hasViolations ? violations.reduce(0, +) : nil,
            runsWithViolations: hasViolations ? violations.count { $0 > 0 } : nil,
            driftP95Run: NearestRank.percentile(rankedDrift, 0.95).map { runName($0.run) } ?? "",
            driftMaxRun: rankedDrift.last.map { runName($0.run) } ?? "",
            hitchP95Run: NearestRank.percentile(rankedHitch, 0.95).map { runName($0.run) } ?? "")
    }
}
