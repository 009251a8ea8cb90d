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
/// metric, from the interval of the mean difference B − A, the smallest
/// difference that matters (δ) and the correction for the family of
/// comparisons made at once. Four outcomes, each its own words in every
/// format: a difference that matters (better, worse; higher, lower for a
/// neutral metric), equivalence, a difference whose size is unclear, and
/// nothing shown.
package enum PairedVerdict: String, Hashable, Sendable, CaseIterable {
    /// The difference is shown to be beyond δ (corrected p of "within ±δ"
    /// ≤ α: the interval lies wholly past δ), on the metric's good side.
    case better = "better"
    /// The difference is shown to be beyond δ, on the bad side.
    case worse = "worse"
    /// The difference lies inside ±δ: two one-sided tests, corrected,
    /// reject that it is δ or more either way.
    case equivalent = "equivalent"
    /// A difference is shown (corrected p of "B − A is 0" ≤ α), but
    /// neither that it reaches δ nor that it stays inside ±δ: the interval
    /// excludes 0 and straddles δ.
    case differentSizeUnclear = "different, size unclear"
    /// Nothing is shown: the interval holds 0 and reaches past δ.
    case noDifferenceShown = "no difference shown"
    /// A neutral metric, shown higher by more than δ.
    case higher = "higher"
    /// A neutral metric, shown lower by more than δ.
    case lower = "lower"
    /// Fewer than `PairedComparison.minimumPairs` pairs: nothing is shown.
    case tooFewPairs = "too few pairs"

    /// The verdict on a mean difference of `mean`, for a metric going
    /// `direction`, given which of the corrected tests reject: that the
    /// difference lies within ±δ (`mattersShown`), that it lies at or
    /// beyond ±δ (`equivalenceShown`), that it is 0 (`differenceShown`).
    /// The first that holds decides, in that order.
    package init(
        mean: Double, mattersShown: Bool, equivalenceShown: Bool, differenceShown: Bool, direction: MetricDirection
    ) {
        if mattersShown, mean != 0 {
            let above = mean > 0
            switch direction {
            case .lowerIsBetter: self = above ? .worse : .better
            case .higherIsBetter: self = above ? .better : .worse
            case .neutral: self = above ? .higher : .lower
            }
        } else if equivalenceShown {
            self = .equivalent
        } else if differenceShown {
            self = .differentSizeUnclear
        } else {
            self = .noDifferenceShown
        }
    }
}

/// The paired values of one comparison as the bootstrap reads them: the
/// differences B − A (or, above `PairedBootstrap.largestResampledSample`
/// pairs, their sums over each batch), and the means.
struct PairedSample: Hashable, Sendable {
    /// Pairs in which both runs have a number.
    var pairs: Int
    /// The mean of A, of B and of B − A (`nan` with no pairs).
    var baselineMean: Double
    var candidateMean: Double
    var meanDifference: Double
    /// `PairedBootstrap.batchSums` of the differences.
    var batchSums: [Double]

    /// The sample of `count` pairs that `pairs` visits, in order, as (A, B).
    init(count: Int, pairs: ((Double, Double) -> Void) -> Void) {
        var sumA = 0.0, sumB = 0.0, sumDifference = 0.0
        var batchSums = [Double](repeating: 0, count: min(count, PairedBootstrap.largestResampledSample))
        var i = 0
        pairs { a, b in
            sumA += a
            sumB += b
            sumDifference += b - a
            batchSums[PairedBootstrap.batch(of: i, pairs: count)] += b - a
            i += 1
        }
        precondition(i == count, "the pairs visited must number count")
        let n = Double(count)
        self.pairs = count
        baselineMean = count == 0 ? .nan : sumA / n
        candidateMean = count == 0 ? .nan : sumB / n
        meanDifference = count == 0 ? .nan : sumDifference / n
        self.batchSums = batchSums
    }
}

/// Which pairs of variants a comparison makes.
package enum VariantPairing: Hashable, Sendable {
    /// Each other variant against the first variant (of each scenario,
    /// for multi-seed results).
    case firstVariant
    /// Each other variant against the named one, where it exists.
    case baseline(String)
    /// Every pair (A, B), A first.
    case allPairs
}

/// Variants compared over a population of paired runs: for each metric and
/// each pair of variants (A, B), the mean of A, the mean of B, the mean
/// paired difference B − A with its seeded studentized bootstrap interval, and a
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
///
/// The bootstrap's resamples are raised to what the family needs
/// (`PairedBootstrap.raised(forFamilyOf:correction:)`), so that a
/// difference lying outside every resample is shown in a family of any
/// size; `requestedResamples` keeps what was asked for.
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
        /// The interval of the mean difference; `nil` with fewer than
        /// `minimumPairs` pairs.
        package var interval: ConfidenceInterval?
        /// How the interval was computed (`nil` without one).
        package var method: IntervalMethod?
        /// The smallest difference that matters, in the metric's unit (δ).
        package var smallestDifference: Double
        /// The p-value of "B − A is 0", before correction (`nan` without an
        /// interval).
        package var pValue: Double
        /// `pValue` corrected for the family of comparisons.
        package var adjustedPValue: Double
        /// The p-value of "B − A is δ or more either way", before
        /// correction (`nan` without an interval).
        package var equivalencePValue: Double
        /// `equivalencePValue` corrected for the family.
        package var adjustedEquivalencePValue: Double
        /// The p-value of "B − A lies within ±δ" on the observed side,
        /// before correction (`nan` without an interval).
        package var mattersPValue: Double
        /// `mattersPValue` corrected for the family.
        package var adjustedMattersPValue: Double
        /// What the comparison says of B against A.
        package var verdict: PairedVerdict
    }

    /// The variants, in order of first appearance.
    package let variants: [String]
    /// The metrics compared, in the order chosen.
    package let metrics: [String]
    /// The bootstrap the intervals come from, its resamples raised to what
    /// the family needs.
    package internal(set) var bootstrap: PairedBootstrap
    /// The resamples asked for.
    package internal(set) var requestedResamples: Int
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
    /// Why there are no differences when there are none: one variant, or
    /// the baseline is not a variant here.
    package let missingBaseline: String?

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
        rows: [SummaryRow], metrics: [String]? = nil, baseline: String? = nil,
        bootstrap: PairedBootstrap = PairedBootstrap(),
        smallestDifferences: ToleranceSet = ToleranceSet(), correction: MultipleComparisons = .default
    ) throws(StrategyComparisonError) {
        let plan = try Plan(
            rows: rows, metrics: metrics, pairing: baseline.map(VariantPairing.baseline) ?? .allPairs,
            smallestDifferences: smallestDifferences, requireBaseline: true)
        self.init(
            plan: plan, bootstrap: bootstrap.raised(forFamilyOf: plan.tested, correction: correction),
            correction: correction)
        self.requestedResamples = bootstrap.resamples
        PairedComparison.decide(
            &differences, comparisons: &comparisons, correction: correction, bootstrap: self.bootstrap)
    }

    /// Compares the variants of every row of `summary` (see
    /// `init(rows:metrics:baseline:bootstrap:)`); errors name the file.
    package init(
        summary: SummaryFile, metrics: [String]? = nil, baseline: String? = nil,
        bootstrap: PairedBootstrap = PairedBootstrap(),
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

    /// The paired values of each comparison, before any resampling: what
    /// the family's size (and so its resamples) is counted from.
    struct Plan {
        var variants: [String]
        var metrics: [String]
        var variantPairs: [(String, String)]
        /// Per metric, per variant pair: the paired sample.
        var values: [[PairedSample]]
        /// The smallest difference of each comparison, metric by metric.
        var thresholds: [Double]
        var population: PopulationTable
        var missingBaseline: String?

        /// The comparisons that will have an interval.
        var tested: Int { values.reduce(0) { $0 + $1.count { $0.pairs >= PairedComparison.minimumPairs } } }

        /// Pairs the runs of `rows` (see `PairedComparison.init(rows:…)`);
        /// without `requireBaseline`, rows that do not have the baseline
        /// variant give no differences instead of an error (one scenario of
        /// many may lack it).
        init(
            rows: [SummaryRow], metrics: [String]?, pairing: VariantPairing, smallestDifferences: ToleranceSet,
            requireBaseline: Bool
        ) throws(StrategyComparisonError) {
            var available: [String] = []
            var knownColumns: Set<String> = []
            for row in rows {
                for field in row.metrics where knownColumns.insert(field.name).inserted { available.append(field.name) }
            }
            let chosen = try Plan.chosenMetrics(metrics, available: available)

            var variants: [String] = []
            var runs: [String: [PairKey: SummaryRow]] = [:]
            var order: [String: [PairKey]] = [:]
            for row in rows {
                let variant = row.key.variant
                if runs[variant] == nil { variants.append(variant) }
                let key = PairKey(row)
                if let first = runs[variant]?[key] {
                    throw StrategyComparisonError(
                        problem:
                            """
                            two runs of variant \(variant) for \(key), on lines \(first.line) and \(row.line); \
                            each run must be in the results once
                            """
                    )
                }
                runs[variant, default: [:]][key] = row
                order[variant, default: []].append(key)
            }
            let (variantPairs, missingBaseline) = try Plan.variantPairs(
                variants, pairing: pairing, requireBaseline: requireBaseline)

            var values: [[PairedSample]] = []
            var thresholds: [Double] = []
            for metric in chosen {
                let amount = smallestDifferences.override(for: metric)?.amount ?? SmallestDifference.of(metric)
                values.append(
                    variantPairs.map { a, b in
                        var baselineValues: [Double] = [], candidateValues: [Double] = []
                        for key in order[a] ?? [] {
                            guard let rowB = runs[b]?[key],
                                let x = runs[a]?[key]?.value(of: metric).flatMap(SummaryFile.parseNumber), x.isFinite,
                                let y = rowB.value(of: metric).flatMap(SummaryFile.parseNumber), y.isFinite
                            else { continue }
                            baselineValues.append(x)
                            candidateValues.append(y)
                        }
                        let sample = PairedSample(count: baselineValues.count) { visit in
                            for i in baselineValues.indices { visit(baselineValues[i], candidateValues[i]) }
                        }
                        thresholds.append(Tolerance(amount: amount).limit(baseline: sample.baselineMean))
                        return sample
                    })
            }
            self.variants = variants
            self.metrics = chosen
            self.variantPairs = variantPairs
            self.values = values
            self.thresholds = thresholds
            self.population = PopulationTable(rows: rows)
            self.missingBaseline = missingBaseline
        }
    }
}

extension PairedComparison.Plan {
    /// The metrics to compare: `metrics` (repeats ignored), or those of
    /// `defaultMetrics` in `available`.
    /// Columns compared as text (`trace_digest`) are neither offered nor
    /// compared.
    static func chosenMetrics(_ metrics: [String]?, available all: [String]) throws(StrategyComparisonError) -> [String]
    {
        let available = all.filter(Metric.isComparable)
        let known = Set(available)
        var chosen: [String] = []
        for metric in metrics ?? PairedComparison.defaultMetrics.filter(known.contains) where !chosen.contains(metric) {
            if let refusal = StrategyComparisonError.hash(metric, available: available) { throw refusal }
            guard known.contains(metric) else {
                throw StrategyComparisonError(
                    problem:
                        "the results have no metric \"\(metric)\"; choose from: \(available.joined(separator: ", "))")
            }
            chosen.append(metric)
        }
        return chosen
    }

    /// The pairs (A, B) of `variants` that `pairing` makes, and the
    /// baseline named when the variants lack it (without
    /// `requireBaseline`; with it, that is an error).
    static func variantPairs(
        _ variants: [String], pairing: VariantPairing, requireBaseline: Bool
    ) throws(StrategyComparisonError) -> ([(String, String)], String?) {
        switch pairing {
        case let .baseline(baseline) where !variants.contains(baseline):
            guard !requireBaseline else {
                throw StrategyComparisonError(
                    problem:
                        "the results have no variant \"\(baseline)\"; choose from: \(variants.joined(separator: ", "))")
            }
            return ([], baseline)
        case let .baseline(baseline):
            return (variants.filter { $0 != baseline }.map { (baseline, $0) }, nil)
        case .firstVariant:
            return (variants.dropFirst().map { (variants[0], $0) }, nil)
        case .allPairs:
            return (variants.indices.flatMap { i in variants[(i + 1)...].map { (variants[i], $0) } }, nil)
        }
    }
}

extension PairedComparison {
    /// The differences of `plan` with their intervals and uncorrected
    /// p-values, verdicts still to come (`decide`).
    init(plan: Plan, bootstrap: PairedBootstrap, correction: MultipleComparisons) {
        let samples = plan.values.flatMap { $0 }
        let summaries = PairedComparison.summaries(samples, thresholds: plan.thresholds, bootstrap: bootstrap)
        var differences: [Difference] = []
        for (m, metric) in plan.metrics.enumerated() {
            let direction = SummaryMetrics.direction(of: metric)
            for (p, (a, b)) in plan.variantPairs.enumerated() {
                let values = plan.values[m][p]
                let index = m * plan.variantPairs.count + p
                let summary = summaries[index]
                differences.append(
                    Difference(
                        metric: metric, direction: direction, baseline: a, candidate: b, pairs: values.pairs,
                        baselineMean: values.baselineMean, candidateMean: values.candidateMean,
                        meanDifference: values.meanDifference, interval: summary?.interval, method: summary?.method,
                        smallestDifference: plan.thresholds[index],
                        pValue: summary?.pValue ?? .nan, adjustedPValue: .nan,
                        equivalencePValue: summary?.equivalencePValue ?? .nan, adjustedEquivalencePValue: .nan,
                        mattersPValue: summary?.mattersPValue ?? .nan, adjustedMattersPValue: .nan,
                        verdict: .tooFewPairs))
            }
        }
        self.variants = plan.variants
        self.metrics = plan.metrics
        self.bootstrap = bootstrap
        self.requestedResamples = bootstrap.resamples
        self.correction = correction
        self.comparisons = 0
        self.differences = differences
        self.population = plan.population
        self.missingBaseline = plan.missingBaseline
    }

    /// Corrects the p-values of `differences`, one family, and gives each
    /// its verdict; `comparisons` becomes the family's size (the
    /// differences with an interval). Each of the three tests is corrected
    /// over the family on its own.
    static func decide(
        _ differences: inout [Difference], comparisons: inout Int, correction: MultipleComparisons,
        bootstrap: PairedBootstrap
    ) {
        let tested = differences.indices.filter { differences[$0].interval != nil }
        let alpha = bootstrap.alpha
        let adjusted = correction.adjusted(tested.map { differences[$0].pValue })
        let adjustedEquivalence = correction.adjusted(tested.map { differences[$0].equivalencePValue })
        let adjustedMatters = correction.adjusted(tested.map { differences[$0].mattersPValue })
        for (k, i) in tested.enumerated() {
            differences[i].adjustedPValue = adjusted[k]
            differences[i].adjustedEquivalencePValue = adjustedEquivalence[k]
            differences[i].adjustedMattersPValue = adjustedMatters[k]
            differences[i].verdict = PairedVerdict(
                mean: differences[i].meanDifference, mattersShown: adjustedMatters[k] <= alpha,
                equivalenceShown: adjustedEquivalence[k] <= alpha, differenceShown: adjusted[k] <= alpha,
                direction: differences[i].direction)
        }
        comparisons = tested.count
    }

    /// The smallest corrected p-value a comparison of this family can show:
    /// the bootstrap's 2/(B + 1), times the family's size under Holm.
    package var smallestAdjustedPValue: Double {
        min(1, bootstrap.smallestPValue * Double(correction == .none ? 1 : max(comparisons, 1)))
    }

    /// Whether the family is too large for its resamples: a difference
    /// outside every resample could still not be shown (the resamples it
    /// needs are past `PairedBootstrap.maximumResamples`).
    package var verdictUnreachable: Bool {
        comparisons > 0 && smallestAdjustedPValue > bootstrap.alpha
    }

    /// The differences of `metric`, in variant-pair order.
    package func differences(of metric: String) -> [Difference] {
        differences.filter { $0.metric == metric }
    }

    /// The bootstrap summary of each sample's mean (its threshold for the
    /// tests beside it), `nil` for a sample with fewer than `minimumPairs`
    /// values. Samples of one size are bootstrapped together, which gives
    /// each the summary it would get alone.
    static func summaries(
        _ samples: [PairedSample], thresholds: [Double], bootstrap: PairedBootstrap
    ) -> [BootstrapSummary?] {
        var result: [BootstrapSummary?] = Array(repeating: nil, count: samples.count)
        var sizes: [Int] = []
        var bySize: [Int: [Int]] = [:]
        for (i, sample) in samples.enumerated() where sample.pairs >= minimumPairs {
            if bySize[sample.pairs] == nil { sizes.append(sample.pairs) }
            bySize[sample.pairs, default: []].append(i)
        }
        for size in sizes {
            let members = bySize[size]!
            let found = bootstrap.summaries(
                batchSums: members.map { samples[$0].batchSums }, pairs: size,
                thresholds: members.map { thresholds[$0] })
            for (member, summary) in zip(members, found) { result[member] = summary }
        }
        return result
    }

    /// The arithmetic mean, `nan` for no values.
    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }
}
