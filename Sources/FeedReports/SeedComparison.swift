import CSVCodec

/// The variants of multi-seed results (`feedsim run --seeds N`) compared
/// per scenario and refresh rate, each variant's runs paired by seed: one
/// `PairedComparison` per (scenario, refresh_hz), in the order the summary
/// first lists them.
package struct SeedComparison: Hashable, Sendable {
    /// One scenario at one refresh rate.
    package struct Group: Hashable, Sendable {
        /// The scenario's name.
        package var scenario: String
        /// The refresh rate in hertz.
        package var refreshHz: Int
        /// The distinct seeds of its runs.
        package var seeds: Int
        /// Its variants compared, paired by seed.
        package var comparison: PairedComparison
    }

    /// The groups, in order of first appearance.
    package let groups: [Group]
    /// The bootstrap every interval comes from, its resamples raised to
    /// what the family needs.
    package let bootstrap: PairedBootstrap
    /// The baseline named, when one was (`VariantPairing.baseline`).
    package let baseline: String?

    /// Compares the variants of each (scenario, refresh_hz) of `summary` on
    /// `metrics` (`nil`: the default metrics the summary has), paired by
    /// seed (see `PairedComparison`).
    ///
    /// With `baseline`, a group without that variant has its population
    /// table but no differences; without it, each group's first variant is
    /// its baseline (the same as `pairing: .firstVariant`).
    ///
    /// - Throws: `StrategyComparisonError` when a metric is not a column of
    ///   the summary or `baseline` is a variant of no group.
    ///
    /// Every difference of every group is one family: the correction
    /// covers them all, and the resamples are raised to what it needs.
    package init(
        summary: SummaryFile, metrics: [String]? = nil, baseline: String? = nil,
        bootstrap: PairedBootstrap = PairedBootstrap(),
        smallestDifferences: ToleranceSet = ToleranceSet(), correction: MultipleComparisons = .default
    ) throws(StrategyComparisonError) {
        try self.init(
            summary: summary, metrics: metrics, pairing: baseline.map(VariantPairing.baseline) ?? .firstVariant,
            bootstrap: bootstrap, smallestDifferences: smallestDifferences, correction: correction)
    }

    /// Compares the variants of each (scenario, refresh_hz) of `summary`,
    /// the pairs of variants chosen by `pairing` within each group.
    package init(
        summary: SummaryFile, metrics: [String]? = nil, pairing: VariantPairing,
        bootstrap: PairedBootstrap = PairedBootstrap(),
        smallestDifferences: ToleranceSet = ToleranceSet(), correction: MultipleComparisons = .default
    ) throws(StrategyComparisonError) {
        if case let .baseline(baseline) = pairing, !summary.rows.contains(where: { $0.key.variant == baseline }) {
            var variants: [String] = []
            for row in summary.rows where !variants.contains(row.key.variant) { variants.append(row.key.variant) }
            throw StrategyComparisonError(
                problem:
                    "\(summary.file) has no variant \"\(baseline)\"; choose from: \(variants.joined(separator: ", "))")
        }
        let available = summary.metricColumns.filter(Metric.isComparable)
        for metric in metrics ?? [] {
            if let refusal = StrategyComparisonError.hash(metric, available: available) { throw refusal }
            guard available.contains(metric) else {
                throw StrategyComparisonError(
                    problem: "\(summary.file) has no metric \"\(metric)\"; choose from: "
                        + available.joined(separator: ", "))
            }
        }
        struct ScenarioRate: Hashable {
            var scenario: String
            var refreshHz: Int
        }
        var order: [ScenarioRate] = []
        var rows: [ScenarioRate: [SummaryRow]] = [:]
        for row in summary.rows {
            let group = ScenarioRate(scenario: row.key.scenario, refreshHz: row.key.refreshHz)
            if rows[group] == nil { order.append(group) }
            rows[group, default: []].append(row)
        }
        var plans: [PairedComparison.Plan] = []
        for group in order {
            do {
                plans.append(
                    try PairedComparison.Plan(
                        rows: rows[group]!, metrics: metrics, pairing: pairing,
                        smallestDifferences: smallestDifferences,
                        requireBaseline: false))
            } catch {
                throw StrategyComparisonError(
                    problem: "\(summary.file), \(group.scenario) @ \(group.refreshHz) Hz: \(error.problem)")
            }
        }
        // One family across the groups: its size sets the resamples, and
        // all its differences are corrected together.
        let raised = bootstrap.raised(forFamilyOf: plans.reduce(0) { $0 + $1.tested }, correction: correction)
        var groups: [Group] = []
        for (group, plan) in zip(order, plans) {
            var comparison = PairedComparison(plan: plan, bootstrap: raised, correction: correction)
            comparison.requestedResamples = bootstrap.resamples
            groups.append(
                Group(
                    scenario: group.scenario, refreshHz: group.refreshHz, seeds: Set(rows[group]!.map(\.seed)).count,
                    comparison: comparison))
        }
        var family = groups.flatMap(\.comparison.differences)
        var comparisons = 0
        PairedComparison.decide(&family, comparisons: &comparisons, correction: correction, bootstrap: raised)
        var next = 0
        for g in groups.indices {
            let count = groups[g].comparison.differences.count
            groups[g].comparison.differences = Array(family[next..<next + count])
            groups[g].comparison.comparisons = comparisons
            next += count
        }
        self.groups = groups
        self.bootstrap = raised
        if case let .baseline(name) = pairing { baseline = name } else { baseline = nil }
    }

    /// The groups that do not have the named baseline, so have no
    /// differences.
    package var groupsWithoutBaseline: [Group] {
        groups.filter { $0.comparison.missingBaseline != nil }
    }

    /// The group's title: `scenario @ 60 Hz, 20 seeds`.
    static func title(_ group: Group) -> String {
        "\(group.scenario) @ \(group.refreshHz) Hz, \(group.seeds) seed\(group.seeds == 1 ? "" : "s")"
    }

    /// A line naming the groups that lack the baseline, when one was named
    /// and some do; `nil` otherwise.
    package var missingBaselineNote: String? {
        let lacking = groupsWithoutBaseline
        guard let baseline, !lacking.isEmpty else { return nil }
        return "baseline \"\(baseline)\" is not a variant of \(lacking.count) of \(groups.count) scenario groups, "
            + "which have no differences: "
            + lacking.map { "\($0.scenario) @ \($0.refreshHz) Hz" }.joined(separator: ", ")
    }

    /// Each group's population and differences as terminal text, a blank
    /// line between groups; ends with a line break.
    package var terminalText: String {
        (missingBaselineNote.map { $0 + "\n\n" } ?? "")
            + groups.map { group in
                "== \(SeedComparison.title(group)) ==\n" + group.comparison.terminalText
            }.joined(separator: "\n")
    }

    /// A Markdown section per group; ends with a line break.
    package var markdown: String {
        (missingBaselineNote.map { $0 + "\n\n" } ?? "")
            + groups.map { group in
                "### \(StrategyComparison.markdownEscaped(SeedComparison.title(group)))\n\n" + group.comparison.markdown
            }.joined(separator: "\n")
    }

    /// The differences of every group as CSV: `scenario, refresh_hz, seeds`
    /// and then `PairedComparison.differenceColumns`.
    package var csv: CSVTable {
        var table = CSVTable(columns: ["scenario", "refresh_hz", "seeds"] + PairedComparison.differenceColumns)
        for group in groups {
            for row in group.comparison.differenceRows {
                table.append([group.scenario, String(group.refreshHz), String(group.seeds)] + row)
            }
        }
        return table
    }
}
