import CSVCodec
import Determinism
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReports

/// Summary rows of `variant`, one per seed, with `values` of each metric.
private func runs(variant: String, _ values: [String: [Double]]) -> [SummaryRow] {
    let count = values.values.first?.count ?? 0
    return (0..<count).map { i in
        let fields = Metric.all.map { metric in
            SummaryField(name: metric.name, value: values[metric.name].map { ReportNumber.fixed($0[i], 3) } ?? "0")
        }
        return SummaryRow(
            key: SummaryKey(scenario: "feed", variant: variant, refreshHz: 60), seed: UInt64(i), metrics: fields,
            line: i + 2)
    }
}

/// `count` values of noise from a fixed stream, in thousandths.
private func noise(seed: UInt64, count: Int, scale: Double) -> [Double] {
    var generator = Xoshiro256StarStar(seed: seed)
    return (0..<count).map { _ in ((generator.nextUnit() - 0.5) * scale * 1000).rounded() / 1000 }
}

@Suite("Verdicts: differences that matter, equivalence, and families corrected together")
struct VerdictTests {
    @Test("Holm's adjusted p-values and rejections agree with statsmodels' multipletests")
    func holmAgreesWithStatsmodels() throws {
        var generator = Xoshiro256StarStar(seed: 31)
        let families: [[Double]] = [
            [0.01, 0.04, 0.03, 0.005],
            [0.2, 0.2, 0.01, 0.01, 0.5, 1],
            (0..<84).map { _ in pow(generator.nextUnit(), 3) },
            (0..<7).map { _ in generator.nextUnit() * 0.02 },
            [0.0001],
        ]
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(String(decoding: try JSONEncoder().encode(families), as: UTF8.self), to: "pvalues.json")
        let script = PackageRoot.appending("Tests/FeedReportsTests/Fixtures/holm_reference.py")
        let python = try ChildProcess.run(
            ChildProcess.env, ["python3", script.path, folder.appending("pvalues.json").path], timeout: 300)
        try #require(python.status == 0, "statsmodels is needed (scripts/bootstrap installs it): \(python)")
        struct Reference: Decodable {
            var adjusted: [Double]
            var reject: [Bool]
        }
        let references = try JSONDecoder().decode([Reference].self, from: Data(python.stdout.utf8))
        for (family, reference) in zip(families, references) {
            let ours = MultipleComparisons.holm.adjusted(family)
            for (mine, theirs) in zip(ours, reference.adjusted) {
                #expect(abs(mine - theirs) < 1e-12, "family of \(family.count): \(ours) against \(reference.adjusted)")
            }
            #expect(ours.map { $0 <= 0.05 } == reference.reject, "family of \(family.count)")
        }
        #expect(MultipleComparisons.none.adjusted([0.3, 0.01]) == [0.3, 0.01])
    }

    @Test(
        "Four outcomes: beyond δ is better or worse, inside ±δ equivalent, a difference of unclear size, or nothing",
        arguments: [
            (0.3, true, false, true, MetricDirection.higherIsBetter, PairedVerdict.better),
            (0.3, true, false, true, .lowerIsBetter, .worse),
            (-0.3, true, false, true, .lowerIsBetter, .better),
            (0.3, true, false, true, .neutral, .higher),
            (-0.3, true, false, true, .neutral, .lower),
            (0.05, false, true, true, .lowerIsBetter, .equivalent),
            (0.08, false, false, true, .lowerIsBetter, .differentSizeUnclear),
            (0.08, false, false, true, .neutral, .differentSizeUnclear),
            (0.3, false, false, false, .lowerIsBetter, .noDifferenceShown),
            (0, false, true, false, .lowerIsBetter, .equivalent),
        ])
    func rule(
        mean: Double, matters: Bool, equivalent: Bool, shown: Bool, direction: MetricDirection, verdict: PairedVerdict
    ) {
        #expect(
            PairedVerdict(
                mean: mean, mattersShown: matters, equivalenceShown: equivalent, differenceShown: shown,
                direction: direction) == verdict)
    }

    @Test("A real but tiny difference (+0.004 overrun frames a run) is equivalent, not worse; one of 2 frames is worse")
    func tinyDifferenceIsEquivalent() throws {
        let base = noise(seed: 5, count: 200, scale: 4).map { ($0 + 10).rounded() }
        let tiny = base.enumerated().map { i, v in v + (i % 250 == 0 ? 1 : 0) }  // one frame more in one run of 200
        let large = base.map { $0 + 2 }
        let rows =
            runs(variant: "anchor", ["overrun_frames": base]) + runs(variant: "tiny", ["overrun_frames": tiny])
            + runs(variant: "large", ["overrun_frames": large])
        let comparison = try PairedComparison(rows: rows, metrics: ["overrun_frames"], baseline: "anchor")
        let differences = comparison.differences(of: "overrun_frames")
        #expect(differences[0].meanDifference == 0.005)
        #expect(differences[0].smallestDifference == 1)
        #expect(differences[0].verdict == .equivalent, "\(differences[0])")
        #expect(differences[1].verdict == .worse, "\(differences[1])")
        #expect(comparison.comparisons == 2)
    }

    @Test("A smallest difference given as a tolerance replaces the default; a percentage is of A's mean")
    func overriddenThreshold() throws {
        let base = noise(seed: 7, count: 60, scale: 2).map { $0 + 100 }
        let rows =
            runs(variant: "a", ["allocations": base, "drift_max_pt": base])
            + runs(variant: "b", ["allocations": base.map { $0 + 3 }, "drift_max_pt": base.map { $0 + 3 }])
        var tolerances = ToleranceSet()
        try tolerances.apply(flag: "drift_max_pt=5")
        let comparison = try PairedComparison(
            rows: rows, metrics: ["allocations", "drift_max_pt"], baseline: "a", smallestDifferences: tolerances)
        let allocations = try #require(comparison.differences(of: "allocations").first)
        #expect(abs(allocations.smallestDifference - PairedComparison.mean(base) * 0.05) < 1e-9)
        #expect(allocations.verdict == .equivalent, "3 allocations on 100 is inside the default 5%")
        let drift = try #require(comparison.differences(of: "drift_max_pt").first)
        #expect(drift.smallestDifference == 5)
        #expect(drift.verdict == .equivalent, "3 pt is inside the 5 pt asked for")
        let strict = try PairedComparison(rows: rows, metrics: ["drift_max_pt"], baseline: "a")
        #expect(strict.differences[0].verdict == .worse, "3 pt is more than the default 1 pt")
    }

    @Test("Over pure noise, Holm calls fewer strategies better or worse than no correction, and says what it covered")
    func familyCorrection() throws {
        // Eight variants of one noise, each with its own small noise on top:
        // no true difference anywhere.
        let base = noise(seed: 11, count: 30, scale: 10)
        var rows: [SummaryRow] = []
        for v in 0..<8 {
            let mine = zip(base, noise(seed: 100 + UInt64(v), count: 30, scale: 3)).map { $0 + $1 + 20 }
            rows += runs(
                variant: "v\(v)", ["hitch_ratio_ms_per_s": mine, "drift_max_pt": mine, "overrun_frames": mine])
        }
        let metrics = ["hitch_ratio_ms_per_s", "drift_max_pt", "overrun_frames"]
        var tight = ToleranceSet()
        for metric in metrics { try tight.apply(flag: "\(metric)=0.01") }
        let corrected = try PairedComparison(
            rows: rows, metrics: metrics, smallestDifferences: tight, correction: .holm)
        let uncorrected = try PairedComparison(
            rows: rows, metrics: metrics, smallestDifferences: tight, correction: .none)
        func called(_ c: PairedComparison) -> Int {
            c.differences.count { $0.verdict == .better || $0.verdict == .worse }
        }
        #expect(corrected.comparisons == 84)
        #expect(called(uncorrected) > 0, "the uncorrected family should call some of the 84 ties")
        #expect(called(corrected) < called(uncorrected))
        #expect(corrected.differences.allSatisfy { $0.adjustedPValue >= $0.pValue })
        #expect(corrected.terminalText.contains("corrected by Holm's method over 84 comparisons"))
        #expect(corrected.differencesCSV.text.contains(",Holm,84,"))
        #expect(corrected.json.contains("\"method\":\"Holm\"") || corrected.json.contains("\"method\" : \"Holm\""))
    }

    @Test(
        """
        The bootstrap's p-values: 0 outside every resample is the smallest p; all-equal zero differences are \
        equivalent
        """
    )
    func bootstrapPValues() throws {
        let bootstrap = PairedBootstrap(resamples: 999)
        let positive = try #require(
            bootstrap.summaries(ofMeans: [[1], [2], [3], [2]], columns: 1, thresholds: [0.5])?.first)
        #expect(positive.method == .studentized)
        #expect(positive.pValue == 2.0 / 1000, "0 lies beyond every t*: the smallest p")
        #expect(positive.equivalencePValue > 0.95)
        // Every studentized resample past δ = 0.5 but those without spread (t* from the smallest se*).
        #expect(positive.mattersPValue < 0.05)
        let bca = bootstrap.resampled([1, 2, 3, 2]).summary(confidence: bootstrap.confidence, threshold: 0.5)
        #expect(bca.pValue == 2.0 / 1000)
        #expect(bca.equivalencePValue == 1)
        let zero = try #require(bootstrap.summaries(ofMeans: [[0], [0], [0]], columns: 1, thresholds: [0.5])?.first)
        #expect(zero.pValue == 1)
        #expect(zero.equivalencePValue == 1.0 / 1000)
        let noThreshold = try #require(
            bootstrap.summaries(ofMeans: [[0], [0], [0]], columns: 1, thresholds: [0])?.first)
        #expect(noThreshold.equivalencePValue == 1, "with δ = 0 nothing is equivalent")
        #expect(positive.interval == bootstrap.interval(ofMean: [1, 2, 3, 2]))
        #expect(bca.mattersPValue == 2.0 / 1000, "every resampled mean is past δ = 0.5")
        #expect(zero.mattersPValue == 1)
    }

    /// Rows of `variants` variants over `pairs` seeds: variant k's drift is
    /// 5·k pt above the first's, with noise; the differences lie far from 0.
    private func spread(variants: Int, pairs: Int) -> [SummaryRow] {
        let base = noise(seed: 41, count: pairs, scale: 10).map { $0 + 50 }
        return (0..<variants).flatMap { k in
            runs(
                variant: "v\(k)",
                [
                    "drift_max_pt": zip(base, noise(seed: 500 + UInt64(k), count: pairs, scale: 1)).map {
                        $0 + $1 + 5 * Double(k)
                    }
                ])
        }
    }

    @Test(
        """
        A difference far from 0 is better or worse in a family of 300 (it was not: 300 × 2/10,001 > 0.05); the \
        run states its smallest p
        """
    )
    func largeFamilyReachesVerdicts() throws {
        let comparison = try PairedComparison(rows: spread(variants: 25, pairs: 30), metrics: ["drift_max_pt"])
        #expect(comparison.comparisons == 300)
        #expect(comparison.requestedResamples == 10_000)
        #expect(comparison.bootstrap.resamples == PairedBootstrap.resamplesNeeded(comparisons: 300, alpha: 0.05))
        #expect(comparison.bootstrap.resamples == 23_999)
        #expect(comparison.differences.allSatisfy { $0.verdict == .worse }, "\(comparison.differences.map(\.verdict))")
        #expect(abs(comparison.smallestAdjustedPValue - 300 * 2 / 24_000) < 1e-12)
        #expect(!comparison.verdictUnreachable)
        #expect(
            comparison.intervalNote.contains(
                """
                23999 resamples of the pairs, seed 1; 10000 asked for, raised so that 300 comparisons can each be \
                shown
                """
            ))
        #expect(comparison.intervalNote.contains("The smallest p adj this run can show is 0.0250 (2/(B + 1) × 300)."))
        #expect(comparison.differencesCSV.rows[0].suffix(3) == ["studentized", "0.025000", "worse"])
        // Past the most resamples allowed, the run says no verdict can be reached.
        let huge = PairedBootstrap().raised(forFamilyOf: 6_000, correction: .holm)
        #expect(huge.resamples == PairedBootstrap.maximumResamples)
        #expect(huge.smallestPValue * 6_000 > huge.alpha)
        #expect(PairedBootstrap(resamples: 50).raised(forFamilyOf: 5_000, correction: .none).resamples == 79)
    }

    @Test(
        "Each of the four outcomes on its own numbers, with the same words in table, Markdown, CSV, JSON and the report"
    )
    func fourOutcomes() throws {
        let base = noise(seed: 61, count: 40, scale: 20).map { $0 + 100 }
        func shifted(_ shift: Double, noiseSeed: UInt64, scale: Double) -> [Double] {
            zip(base, noise(seed: noiseSeed, count: 40, scale: scale)).map { $0 + $1 + shift }
        }
        let rows =
            runs(variant: "a", ["drift_max_pt": base])
            + runs(variant: "matters", ["drift_max_pt": shifted(5, noiseSeed: 62, scale: 1)])
            + runs(variant: "same", ["drift_max_pt": shifted(0, noiseSeed: 63, scale: 0.5)])
            + runs(variant: "unclear", ["drift_max_pt": shifted(1, noiseSeed: 64, scale: 1)])
            + runs(variant: "noisy", ["drift_max_pt": shifted(0, noiseSeed: 65, scale: 40)])
        let comparison = try PairedComparison(rows: rows, metrics: ["drift_max_pt"], baseline: "a")
        let verdicts = comparison.differences.map(\.verdict)
        #expect(
            verdicts == [.worse, .equivalent, .differentSizeUnclear, .noDifferenceShown], "\(comparison.terminalText)")
        let unclear = comparison.differences[2]
        let interval = try #require(unclear.interval)
        #expect(interval.lower > 0 && interval.contains(unclear.smallestDifference), "excludes 0, holds δ: \(interval)")
        let html = try HTMLReport(summary: nil, drift: nil, frames: nil).populationTables(comparison)
        for verdict in verdicts {
            let words = verdict.rawValue
            #expect(comparison.terminalText.contains("  \(words)\n"), "\(words)")
            #expect(comparison.markdown.contains("| \(words) |"), "\(words)")
            #expect(
                comparison.differencesCSV.text.contains(words.contains(",") ? "\"\(words)\"" : ",\(words)\n"),
                "\(words)")
            #expect(
                comparison.json.contains("\"verdict\" : \"\(words)\"")
                    || comparison.json.contains("\"verdict\":\"\(words)\""), "\(words)")
            #expect(html.contains(">\(words)</td>"), "\(words)")
        }
    }
}
