/// What matches a run of one variant with a run of another: the same
/// scenario (for `feedsim explore`, the same session), refresh rate and
/// seed. Two runs with the same key shared every random draw, so their
/// difference is the variants' difference alone.
package struct PairKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The scenario's name (a session's name in explore results).
    package var scenario: String
    /// The display refresh rate in hertz.
    package var refreshHz: Int
    /// The run's seed.
    package var seed: UInt64

    /// A key from its parts.
    package init(scenario: String, refreshHz: Int, seed: UInt64) {
        self.scenario = scenario
        self.refreshHz = refreshHz
        self.seed = seed
    }

    /// The key of `row`.
    package init(_ row: SummaryRow) {
        self.init(scenario: row.key.scenario, refreshHz: row.key.refreshHz, seed: row.seed)
    }

    /// Orders by scenario, refresh rate, then seed.
    package static func < (lhs: PairKey, rhs: PairKey) -> Bool {
        (lhs.scenario, lhs.refreshHz, lhs.seed) < (rhs.scenario, rhs.refreshHz, rhs.seed)
    }

    /// The key as people read it: `scenario @ 60 Hz, seed 7`.
    package var description: String { "\(scenario) @ \(refreshHz) Hz, seed \(seed)" }
}

/// What a paired comparison says of variant B against variant A on one
/// metric, from the bootstrap of the mean difference B − A, the smallest
/// difference that matters (δ) and the correction for the family of
/// comparisons made at once.
package enum PairedVerdict: String, Hashable, Sendable, CaseIterable {
    /// A difference is shown (corrected p ≤ α) and its mean is at least δ,
    /// on the metric's good side.
    case better = "better"
    /// A difference is shown and its mean is at least δ, on the bad side.
    case worse = "worse"
    /// The difference lies inside ±δ: two one-sided tests, corrected,
    /// reject that it is δ or more either way.
    case equivalent = "equivalent"
    /// Neither: the pairs show no difference that matters, nor that there
    /// is none.
    case noDifferenceShown = "no difference shown"
    /// A neutral metric, shown higher by at least δ.
    case higher = "higher"
    /// A neutral metric, shown lower by at least δ.
    case lower = "lower"
    /// Fewer than `PairedComparison.minimumPairs` pairs: nothing is shown.
    case tooFewPairs = "too few pairs"

    /// The verdict on a mean difference of `mean`, for a metric going
    /// `direction`, whose smallest difference that matters is `threshold`,
    /// given whether a difference is shown and whether equivalence is.
    package init(mean: Double, threshold: Double, differenceShown: Bool, equivalenceShown: Bool, direction: MetricDirection) {
        if differenceShown, abs(mean) >= threshold, mean != 0 {
            let above = mean > 0
            switch direction {
            case .lowerIsBetter: self = above ? .worse : .better
            case .higherIsBetter: self = above ? .better : .worse
            case .neutral: self = above ? .higher : .lower
            }
        } else if equivalenceShown {
            self = .equivalent
        } else {
            self = .noDifferenceShown
        }
    }
}

/// Variants compared over a population of paired runs: for each metric and
/// each pair of variants (A, B), the mean of A, the mean of B, the mean
/// paired difference B − A with its seeded bootstrap interval, and a
/// verdict; and for each variant, its population table.
///
/// Runs are paired by `PairKey` (scenario, refresh rate, seed): the
/// multi-seed results of `feedsim run --seeds N` pair each seed of a
/// scenario, explore results (one scenario per session) pair each session.
/// A pair counts for a metric when both runs have a finite number in its
/// column. Variants come in the order they first appear; with a baseline,
/// each other variant is compared with it, otherwise every pair (A, B)
/// with A first. The same rows, metrics and bootstrap always give the same
/// result, and the same bytes in every format.
package struct PairedComparison: Hashable, Sendable {
    /// The metrics compared when none are chosen: those `compare` shows by
    /// default, with the largest drift and the hitch ratio always among them.
    package static let defaultMetrics: [String] = Metric.all
        .filter { $0.comparedByDefault || $0.name == "drift_max_pt" || $0.name == "hitch_ratio_ms_per_s" }
        .map(\.name)
    /// Fewer pairs than this give no interval and no verdict: one pair is
    /// an anecdote, and its "interval" would be a single point.
    package static let minimumPairs = 2

    /// B against A on one metric.
    package struct Difference: Hashable, Sendable {
        /// The summary column.
        package var metric: String
        /// Which way is better.
        package var direction: MetricDirection
        /// Variant A, the one compared against.
        package var baseline: String
        /// Variant B.
        package var candidate: String
        /// Pairs in which both runs have a number for the metric.
        package var pairs: Int
        /// The mean of A over those pairs (`nan` with no pairs).
        package var baselineMean: Double
        /// The mean of B over those pairs (`nan` with no pairs).
        package var candidateMean: Double
        /// The mean of B − A over the pairs (`nan` with no pairs).
        package var meanDifference: Double
        /// The bootstrap interval of the mean difference; `nil` with fewer
        /// than `minimumPairs` pairs.
        package var interval: ConfidenceInterval?
        /// The smallest difference that matters, in the metric's unit (δ).
        package var smallestDifference: Double
        /// The bootstrap p-value of "B − A is 0", before correction (`nan`
        /// without an interval).
        package var pValue: Double
        /// `pValue` corrected for the family of comparisons.
        package var adjustedPValue: Double
        /// The bootstrap p-value of "B − A is δ or more either way", before
        /// correction (`nan` without an interval).
        package var equivalencePValue: Double
        /// `equivalencePValue` corrected for the family.
        package var adjustedEquivalencePValue: Double
        /// What the comparison says of B against A.
        package var verdict: PairedVerdict
    }

    /// The variants, in order of first appearance.
    package let variants: [String]
    /// The metrics compared, in the order chosen.
    package let metrics: [String]
    /// The bootstrap the intervals come from.
    package let bootstrap: PairedBootstrap
    /// The correction for making every comparison at once.
    package let correction: MultipleComparisons
    /// How many comparisons the correction covered: the differences with
    /// an interval, of this comparison alone or of the family it is part
    /// of (`SeedComparison` corrects its groups together).
    package internal(set) var comparisons: Int
    /// One difference per metric and variant pair: metric by metric, the
    /// variant pairs in order within each.
    package internal(set) var differences: [Difference]
    /// Each variant's population.
    package let population: PopulationTable

    /// Compares the variants of `rows`, paired by `PairKey`, on `metrics`
    /// (repeats ignored; `nil`: those of `defaultMetrics` the rows have, so
    /// explore results, which leave out the allocation counts, compare on
    /// the rest). With `baseline`, every other variant is compared with it;
    /// otherwise every pair of variants.
    ///
    /// - Throws: `StrategyComparisonError` when a metric named is not a
    ///   column of the rows, two rows of a variant share a pair key, or
    ///   `baseline` is not one of the variants.
    /// - Complexity: O(*r* · *m* + *p* · *B* · *n*) for *r* rows, *m*
    ///   metrics, *p* variant pairs and *B* resamples of *n* pairs.
    ///
    /// `smallestDifferences` overrides a metric's smallest difference that
    /// matters (`Metric.smallestDifference`); a relative amount is taken of
    /// A's mean. The verdicts of all differences are corrected together by
    /// `correction`.
    package init(
        rows: [SummaryRow], metrics: [String]? = nil, baseline: String? = nil, bootstrap: PairedBootstrap = PairedBootstrap(),
        smallestDifferences: ToleranceSet = ToleranceSet(), correction: MultipleComparisons = .default
    ) throws(StrategyComparisonError) {
        try self.init(
            rows: rows, metrics: metrics, baseline: baseline, bootstrap: bootstrap, smallestDifferences: smallestDifferences,
            correction: correction, requireBaseline: true)
    }

    /// As the public initializer; without `requireBaseline`, rows that do
    /// not have the baseline variant give no differences instead of an
    /// error (one scenario of many may lack it).
    init(
        rows: [SummaryRow], metrics: [String]?, baseline: String?, bootstrap: PairedBootstrap,
        smallestDifferences: ToleranceSet, correction: MultipleComparisons, requireBaseline: Bool
    ) throws(StrategyComparisonError) {
        var available: [String] = []
        var knownColumns: Set<String> = []
        for row in rows {
            for field in row.metrics where Metric.isComparable(field.name) && knownColumns.insert(field.name).inserted {
                available.append(field.name)
            }
        }
        var chosen: [String] = []
        let wanted = metrics ?? PairedComparison.defaultMetrics.filter(knownColumns.contains)
        for metric in wanted where !chosen.contains(metric) {
            if let refusal = StrategyComparisonError.hash(metric, available: available) { throw refusal }
            guard knownColumns.contains(metric) else {
                throw StrategyComparisonError(
                    problem: "the results have no metric \"\(metric)\"; choose from: \(available.joined(separator: ", "))")
            }
            chosen.append(metric)
        }

        var variants: [String] = []
        var runs: [String: [PairKey: SummaryRow]] = [:]
        var order: [String: [PairKey]] = [:]
        for row in rows {
            let variant = row.key.variant
            if runs[variant] == nil { variants.append(variant) }
            let key = PairKey(row)
            if let first = runs[variant]?[key] {
                throw StrategyComparisonError(
                    problem: "two runs of variant \(variant) for \(key), on lines \(first.line) and \(row.line); each run must be in the results once")
            }
            runs[variant, default: [:]][key] = row
            order[variant, default: []].append(key)
        }
        let variantPairs: [(String, String)]
        if let baseline, !variants.contains(baseline), !requireBaseline {
            variantPairs = []
        } else if let baseline {
            guard variants.contains(baseline) else {
                throw StrategyComparisonError(
                    problem: "the results have no variant \"\(baseline)\"; choose from: \(variants.joined(separator: ", "))")
            }
            variantPairs = variants.filter { $0 != baseline }.map { (baseline, $0) }
        } else {
            variantPairs = variants.indices.flatMap { i in variants[(i + 1)...].map { (variants[i], $0) } }
        }

        // Each comparison's paired values; comparisons over the same pairs
        // are bootstrapped together (they would draw the same indices).
        struct Paired {
            var baselineValues: [Double] = []
            var candidateValues: [Double] = []
        }
        var paired: [[Paired]] = []
        for metric in chosen {
            paired.append(variantPairs.map { a, b in
                var values = Paired()
                for key in order[a] ?? [] {
                    guard let rowB = runs[b]?[key],
                          let x = runs[a]?[key]?.value(of: metric).flatMap(SummaryFile.parseNumber), x.isFinite,
                          let y = rowB.value(of: metric).flatMap(SummaryFile.parseNumber), y.isFinite
                    else { continue }
                    values.baselineValues.append(x)
                    values.candidateValues.append(y)
                }
                return values
            })
        }
        var thresholds: [Double] = []
        for (m, metric) in chosen.enumerated() {
            let amount = smallestDifferences.override(for: metric)?.amount ?? SmallestDifference.of(metric)
            for values in paired[m] {
                thresholds.append(Tolerance(amount: amount).limit(baseline: PairedComparison.mean(values.baselineValues)))
            }
        }
        let summaries = PairedComparison.summaries(
            paired.flatMap { $0.map { zip($0.candidateValues, $0.baselineValues).map { $0 - $1 } } },
            thresholds: thresholds, bootstrap: bootstrap)

        var differences: [Difference] = []
        for (m, metric) in chosen.enumerated() {
            let direction = SummaryMetrics.direction(of: metric)
            for (p, (a, b)) in variantPairs.enumerated() {
                let values = paired[m][p]
                let n = values.baselineValues.count
                let index = m * variantPairs.count + p
                let summary = summaries[index]
                let meanA = PairedComparison.mean(values.baselineValues)
                let meanB = PairedComparison.mean(values.candidateValues)
                let meanDifference = PairedComparison.mean(zip(values.candidateValues, values.baselineValues).map { $0 - $1 })
                differences.append(Difference(
                    metric: metric, direction: direction, baseline: a, candidate: b, pairs: n,
                    baselineMean: meanA, candidateMean: meanB, meanDifference: meanDifference, interval: summary?.interval,
                    smallestDifference: thresholds[index],
                    pValue: summary?.pValue ?? .nan, adjustedPValue: .nan,
                    equivalencePValue: summary?.equivalencePValue ?? .nan, adjustedEquivalencePValue: .nan,
                    verdict: .tooFewPairs))
            }
        }
        self.variants = variants
        self.metrics = chosen
        self.bootstrap = bootstrap
        self.correction = correction
        self.comparisons = 0
        self.differences = differences
        self.population = PopulationTable(rows: rows)
        PairedComparison.decide(&self.differences, comparisons: &self.comparisons, correction: correction, bootstrap: bootstrap)
    }

    /// Corrects the p-values of `differences`, one family, and gives each
    /// its verdict; `comparisons` becomes the family's size (the
    /// differences with an interval).
    static func decide(
        _ differences: inout [Difference], comparisons: inout Int, correction: MultipleComparisons, bootstrap: PairedBootstrap
    ) {
        let tested = differences.indices.filter { differences[$0].interval != nil }
        let alpha = 1 - bootstrap.confidence
        let adjusted = correction.adjusted(tested.map { differences[$0].pValue })
        let adjustedEquivalence = correction.adjusted(tested.map { differences[$0].equivalencePValue })
        for (k, i) in tested.enumerated() {
            differences[i].adjustedPValue = adjusted[k]
            differences[i].adjustedEquivalencePValue = adjustedEquivalence[k]
            let d = differences[i]
            differences[i].verdict = PairedVerdict(
                mean: d.meanDifference, threshold: d.smallestDifference, differenceShown: adjusted[k] <= alpha,
                equivalenceShown: adjustedEquivalence[k] <= alpha, direction: d.direction)
        }
        comparisons = tested.count
    }

    /// Compares the variants of every row of `summary` (see
    /// `init(rows:metrics:baseline:bootstrap:)`); errors name the file.
    package init(
        summary: SummaryFile, metrics: [String]? = nil, baseline: String? = nil, bootstrap: PairedBootstrap = PairedBootstrap(),
        smallestDifferences: ToleranceSet = ToleranceSet(), correction: MultipleComparisons = .default
    ) throws(StrategyComparisonError) {
        do {
            try self.init(
                rows: summary.rows, metrics: metrics, baseline: baseline, bootstrap: bootstrap,
                smallestDifferences: smallestDifferences, correction: correction)
        } catch {
            throw StrategyComparisonError(problem: "\(summary.file): \(error.problem)")
        }
    }

    /// The differences of `metric`, in variant-pair order.
    package func differences(of metric: String) -> [Difference] {
        differences.filter { $0.metric == metric }
    }

    /// The bootstrap summary of each sample's mean (its threshold for the
    /// equivalence test beside it), `nil` for a sample with fewer than
    /// `minimumPairs` values. Samples of one size are bootstrapped
    /// together, which gives each the summary it would get alone.
    static func summaries(_ samples: [[Double]], thresholds: [Double], bootstrap: PairedBootstrap) -> [BootstrapSummary?] {
        var result: [BootstrapSummary?] = Array(repeating: nil, count: samples.count)
        var sizes: [Int] = []
        var bySize: [Int: [Int]] = [:]
        for (i, sample) in samples.enumerated() where sample.count >= minimumPairs {
            if bySize[sample.count] == nil { sizes.append(sample.count) }
            bySize[sample.count, default: []].append(i)
        }
        for size in sizes {
            let members = bySize[size]!
            let table = (0..<size).map { row in members.map { samples[$0][row] } }
            let found = bootstrap.summaries(ofMeans: table, columns: members.count, thresholds: members.map { thresholds[$0] })!
            for (member, summary) in zip(members, found) { result[member] = summary }
        }
        return result
    }

    /// The arithmetic mean, `nan` for no values.
    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }
}
