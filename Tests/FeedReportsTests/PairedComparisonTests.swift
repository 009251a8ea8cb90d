import CSVCodec
import Determinism
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReports

/// Summary rows of `variant` for `scenario`, one per seed, with `values`
/// of each metric (seed `i` gets the `i`-th value of every metric).
private func runs(
    _ scenario: String = "feed", variant: String, hz: Int = 60, seeds: Range<UInt64>, _ values: [String: [Double]],
    extra: [String: [String]] = [:]
) -> [SummaryRow] {
    seeds.enumerated().map { i, seed in
        var fields = Metric.all.map { metric in
            SummaryField(name: metric.name, value: values[metric.name].map { ReportNumber.fixed($0[i], 2) } ?? "0")
        }
        for (name, column) in extra.sorted(by: { $0.key < $1.key }) {
            fields.append(SummaryField(name: name, value: column[i]))
        }
        return SummaryRow(
            key: SummaryKey(scenario: scenario, variant: variant, refreshHz: hz), seed: seed, metrics: fields,
            line: i + 2)
    }
}

/// `count` values from a fixed stream: multiples of 0.25 (so sums are
/// exact in any order) shaped by `shape`.
private func fixedSample(seed: UInt64, count: Int, shape: (Double) -> Double) -> [Double] {
    var generator = Xoshiro256StarStar(seed: seed)
    return (0..<count).map { _ in (shape(generator.nextUnit()) * 4).rounded() / 4 }
}

@Suite("Paired comparison: bootstrap against SciPy, verdicts, population table")
struct PairedComparisonTests {
    /// Fixed samples of paired differences: small and symmetric, skewed
    /// with a long tail (drift-like), and many ties (overrun-like counts).
    static let samples: [(name: String, values: [Double])] = [
        ("12 symmetric", fixedSample(seed: 1, count: 12) { ($0 - 0.5) * 20 }),
        ("40 long-tailed", fixedSample(seed: 2, count: 40) { exp($0 * 5) - 3 }),
        ("200 with ties", fixedSample(seed: 3, count: 200) { ($0 * 7).rounded(.down) - 2 }),
    ]

    @Test(
        """
        BCa agrees with SciPy: exactly on our own resamples (z₀, a, levels, ends), and up to resampling noise on \
        SciPy's
        """
    )
    func agreesWithSciPy() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let bootstrap = PairedBootstrap()
        let samples =
            PairedComparisonTests.samples + [
                (
                    "25 zero-inflated",
                    fixedSample(seed: 4, count: 25) { $0 < 0.8 ? 0 : 100 / pow(1 - ($0 - 0.8) / 0.2, 1 / 2.5) }
                )
            ]
        let resampled = samples.map { bootstrap.resampled($0.values) }
        let request: [String: Any] = [
            "resamples": bootstrap.resamples, "confidence": bootstrap.confidence,
            "samples": zip(samples, resampled).map { sample, means in ["values": sample.values, "means": means.sorted]
            },
        ]
        try folder.write(
            String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self), to: "samples.json")
        let script = PackageRoot.appending("Tests/FeedReportsTests/Fixtures/bca_reference.py")
        let python = try ChildProcess.run(
            ChildProcess.env, ["python3", script.path, folder.appending("samples.json").path], timeout: 300)
        try #require(python.status == 0, "SciPy is the reference; scripts/bootstrap installs it. \(python)")
        struct Reference: Decodable {
            var given: [Double]
            var scipy: [Double]
        }
        let references = try JSONDecoder().decode([Reference].self, from: Data(python.stdout.utf8))
        try #require(references.count == samples.count)
        for ((sample, means), reference) in zip(zip(samples, resampled), references) {
            let interval = means.interval(confidence: bootstrap.confidence)
            // summaries draw as resampled(_:) does; they give BCa's interval where the studentized one is not defined.
            let chosen = bootstrap.studentized(sample.values)?.interval(confidence: bootstrap.confidence) ?? interval
            #expect(
                chosen == bootstrap.interval(ofMean: sample.values),
                "\(sample.name): summaries resample as resampled(_:) does")
            // The same resampled means: every step is arithmetic, so only rounding may differ.
            #expect(abs(means.adjustedLevel(0.025) - reference.given[0]) < 1e-12, "\(sample.name): lower level")
            #expect(abs(means.adjustedLevel(0.975) - reference.given[1]) < 1e-12, "\(sample.name): upper level")
            #expect(abs(means.acceleration - reference.given[2]) < 1e-12, "\(sample.name): acceleration")
            let width = reference.given[4] - reference.given[3]
            #expect(width > 0, "\(sample.name)")
            #expect(
                abs(interval.lower - reference.given[3]) <= 1e-9 * width,
                "\(sample.name): \(interval) vs \(reference.given)")
            #expect(
                abs(interval.upper - reference.given[4]) <= 1e-9 * width,
                "\(sample.name): \(interval) vs \(reference.given)")
            // Two bootstraps with different random streams: their ends
            // differ by resampling noise, a few percent of the width at
            // 10,000 resamples.
            #expect(
                abs(interval.lower - reference.scipy[0]) <= 0.05 * width,
                "\(sample.name): lower \(interval.lower) vs SciPy \(reference.scipy[0]), width \(width)")
            #expect(
                abs(interval.upper - reference.scipy[1]) <= 0.05 * width,
                "\(sample.name): upper \(interval.upper) vs SciPy \(reference.scipy[1]), width \(width)")
        }
    }

    @Test("Intervals computed together are each the interval computed alone")
    func jointEqualsAlone() {
        let bootstrap = PairedBootstrap(resamples: 2_000, seed: 9)
        let a = PairedComparisonTests.samples[1].values
        let b = a.map { $0 * -3 + 1 }
        let together = bootstrap.intervals(ofMeans: zip(a, b).map { [$0, $1] }, columns: 2)
        #expect(together == [bootstrap.interval(ofMean: a)!, bootstrap.interval(ofMean: b)!])
    }

    @Test("The same rows and seed give the same bytes; another seed moves the interval")
    func seeded() throws {
        let noise = PairedComparisonTests.samples[1].values
        let rows =
            runs(variant: "none", seeds: 0..<40, ["drift_max_pt": noise.map { $0 + 10 }])
            + runs(variant: "anchor", seeds: 0..<40, ["drift_max_pt": noise.reversed().map { $0 + 10 }])
        let first = try PairedComparison(rows: rows, metrics: ["drift_max_pt"])
        let again = try PairedComparison(rows: rows, metrics: ["drift_max_pt"])
        #expect(first.terminalText == again.terminalText)
        #expect(first.markdown == again.markdown)
        #expect(first.differencesCSV.text == again.differencesCSV.text)
        let other = try PairedComparison(rows: rows, metrics: ["drift_max_pt"], bootstrap: PairedBootstrap(seed: 2))
        #expect(other.differences[0].meanDifference == first.differences[0].meanDifference)
        #expect(other.differences[0].interval != first.differences[0].interval)
    }

    @Test("A variant always 5 pt better is better, with an interval excluding 0; identical variants are equivalent")
    func clearCut() throws {
        let drift = PairedComparisonTests.samples[1].values.map { $0 + 20 }
        let hitch = drift.map { $0 / 4 }
        let rows =
            runs(variant: "none", seeds: 0..<40, ["drift_max_pt": drift, "hitch_ratio_ms_per_s": hitch])
            + runs(
                variant: "anchor", seeds: 0..<40, ["drift_max_pt": drift.map { $0 - 5 }, "hitch_ratio_ms_per_s": hitch])
            + runs(
                variant: "worse", seeds: 0..<40, ["drift_max_pt": drift.map { $0 + 5 }, "hitch_ratio_ms_per_s": hitch])
        let comparison = try PairedComparison(
            rows: rows, metrics: ["drift_max_pt", "hitch_ratio_ms_per_s"], baseline: "none")
        #expect(comparison.variants == ["none", "anchor", "worse"])
        let drifts = comparison.differences(of: "drift_max_pt")
        #expect(drifts.map(\.candidate) == ["anchor", "worse"])
        #expect(drifts[0].verdict == .better)
        #expect(drifts[0].meanDifference == -5 && drifts[0].pairs == 40)
        let interval = try #require(drifts[0].interval)
        #expect(interval.upper < 0 && !interval.contains(0))
        #expect(drifts[1].verdict == .worse)
        for same in comparison.differences(of: "hitch_ratio_ms_per_s") {
            #expect(same.verdict == .equivalent, "\(same)")
            #expect(same.interval == ConfidenceInterval(lower: 0, upper: 0))
        }
    }

    @Test("Every pair of variants when no baseline is named; one pair gives no interval")
    func pairsAndTooFew() throws {
        let rows =
            runs(variant: "a", seeds: 0..<1, ["overrun_frames": [1]])
            + runs(variant: "b", seeds: 0..<1, ["overrun_frames": [2]])
            + runs(variant: "c", seeds: 0..<1, ["overrun_frames": [3]])
        let comparison = try PairedComparison(rows: rows, metrics: ["overrun_frames"])
        #expect(comparison.differences.map { "\($0.baseline)-\($0.candidate)" } == ["a-b", "a-c", "b-c"])
        #expect(comparison.differences.allSatisfy { $0.verdict == .tooFewPairs && $0.interval == nil && $0.pairs == 1 })
        #expect(comparison.differencesCSV.rows[0][8] == "" && comparison.differencesCSV.rows[0].last == "too few pairs")
    }

    @Test("Runs pair by scenario, rate and seed; unmatched runs are left out")
    func pairing() throws {
        let rows =
            runs("s1", variant: "a", seeds: 0..<3, ["overrun_frames": [1, 2, 3]])
            + runs("s2", variant: "a", seeds: 0..<2, ["overrun_frames": [10, 20]])
            + runs("s1", variant: "b", seeds: 1..<4, ["overrun_frames": [4, 5, 6]])
            + runs("s2", variant: "b", hz: 120, seeds: 0..<2, ["overrun_frames": [10, 20]])
        let difference = try PairedComparison(rows: rows, metrics: ["overrun_frames"]).differences[0]
        // s1 seeds 1 and 2 match: (2, 4) and (3, 5).
        #expect(difference.pairs == 2)
        #expect(difference.baselineMean == 2.5 && difference.candidateMean == 4.5 && difference.meanDifference == 2)
    }

    @Test(
        "Per scenario, a baseline some scenarios lack leaves them without differences; one no scenario has is an error")
    func seedGroupsWithoutBaseline() throws {
        var table = CSVTable(columns: RunReports.summaryColumns)
        for (scenario, variant) in [("s1", "none"), ("s1", "anchor"), ("s2", "default")] {
            for seed in 1...3 {
                table.append(
                    SummaryFixture.row(
                        scenario, variant: variant, ["seed": String(seed), "drift_max_pt": "\(seed).00"]))
            }
        }
        let summary = try SummaryFile(text: table.text, file: "summary.csv")
        #expect(summary.isMultiSeed)
        let comparison = try SeedComparison(summary: summary, metrics: ["drift_max_pt"], baseline: "none")
        #expect(comparison.groups.map(\.scenario) == ["s1", "s2"] && comparison.groups.map(\.seeds) == [3, 3])
        // The same drift under both variants for every seed: inside ±1 pt both ways.
        #expect(comparison.groups[0].comparison.differences.map(\.verdict) == [.equivalent])
        #expect(comparison.groups[1].comparison.differences.isEmpty)
        #expect(comparison.terminalText.contains("no paired differences: no variant \"none\" (the baseline) here"))
        #expect(
            comparison.missingBaselineNote?.contains("1 of 2 scenario groups, which have no differences: s2 @ 60 Hz")
                == true)
        #expect(comparison.csv.rows.count == 1)
        #expect(throws: StrategyComparisonError.self) { try SeedComparison(summary: summary, baseline: "anchor2") }
    }

    @Test("Explore results read without the allocation counts; the default metrics are those the rows have")
    func exploreColumns() throws {
        let columns =
            RunReports.summaryColumns.filter { $0 != "allocations" && $0 != "allocated_bytes" } + ["violations"]
        func text(violations: String) -> String {
            var table = CSVTable(columns: columns)
            for (variant, seed) in [("none", "1"), ("anchor", "1"), ("none", "2"), ("anchor", "2")] {
                let row = SummaryFixture.row("session-000001", variant: variant, ["seed": seed])
                let byColumn = Dictionary(uniqueKeysWithValues: zip(RunReports.summaryColumns, row))
                table.append(columns.map { $0 == "violations" ? violations : byColumn[$0]! })
            }
            return table.text
        }
        #expect(throws: SummaryFileError.self) { try SummaryFile(text: text(violations: "1"), file: "explore.csv") }
        let explore = try SummaryFile(
            text: text(violations: "1"), file: "explore.csv", requiredColumns: PopulationTable.exploreColumns)
        let comparison = try PairedComparison(summary: explore)
        #expect(comparison.metrics == PairedComparison.defaultMetrics.filter { $0 != "allocations" })
        #expect(comparison.population.rows.map(\.violations) == [2, 2])
        #expect {
            try SummaryFile(
                text: text(violations: "many"), file: "explore.csv", requiredColumns: PopulationTable.exploreColumns)
        } throws: { error in
            (error as? SummaryFileError)?.problem == "violations is \"many\", expected a number"
        }
        #expect(throws: StrategyComparisonError.self) {
            try PairedComparison(summary: explore, metrics: ["allocations"])
        }
    }

    @Test("Bad input is an error naming the problem")
    func errors() {
        let rows = runs(variant: "a", seeds: 0..<2, [:])
        #expect(throws: StrategyComparisonError.self) { try PairedComparison(rows: rows, metrics: ["no_such_metric"]) }
        #expect(throws: StrategyComparisonError.self) { try PairedComparison(rows: rows, baseline: "zzz") }
        #expect {
            try PairedComparison(rows: rows + runs(variant: "a", seeds: 1..<2, [:]))
        } throws: { error in
            (error as? StrategyComparisonError)?.problem.contains("two runs of variant a for feed @ 60 Hz, seed 1")
                == true
        }
    }

    @Test("The population table: nearest-rank percentiles, totals and violations per variant")
    func population() throws {
        let drift: [Double] = [5, 1, 4, 2, 3, 9, 8, 7, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
        let rows = runs(
            variant: "anchor", seeds: 0..<20,
            [
                "drift_max_pt": drift, "hitch_ratio_ms_per_s": drift.map { $0 / 2 },
                "overrun_frames": Array(repeating: 3, count: 20),
            ], extra: ["violations": (0..<20).map { $0 % 5 == 0 ? "2" : "0" }])
        let table = PopulationTable(rows: rows)
        #expect(table.hasViolations)
        let row = try #require(table.rows.first)
        #expect(row.variant == "anchor" && row.runs == 20)
        // Ranks ⌈0.5·20⌉ = 10 and ⌈0.95·20⌉ = 19 of 1…20.
        #expect(row.driftP50 == 10 && row.driftP95 == 19 && row.driftMax == 20)
        #expect(row.hitchMean == 5.25 && row.hitchP95 == 9.5)
        #expect(row.overrunFrames == 60 && row.violations == 8 && row.runsWithViolations == 4)
        #expect(
            table.csv.columns.suffix(5) == [
                "violations", "runs_with_violations", "drift_p95_run", "drift_max_run", "hitch_p95_run",
            ])
        // The runs behind the extremes: drift 19 (p95) and hitch 9.5 are seed 18's, drift 20 seed 19's.
        #expect(
            table.csv.rows == [
                [
                    "anchor", "20", "10.00", "19.00", "20.00", "5.250", "9.500", "60", "8", "4", "seed 18", "seed 19",
                    "seed 18",
                ]
            ])
        #expect(!PopulationTable(rows: runs(variant: "a", seeds: 0..<2, [:])).hasViolations)
    }
}
