import Testing

@testable import FeedReports

@Suite("Studentized bootstrap: against arch, resamples without spread, p-values that invert the interval")
struct StudentizedBootstrapTests {
    /// Samples and arch's studentized 95% interval of their mean, from
    /// `python3 Tests/FeedReportsTests/Fixtures/studentized_reference.py`
    /// (arch 8.0.0, NumPy 2.x): `IIDBootstrap(x, seed=1).conf_int(np.mean,
    /// reps=100000, method='studentized', std_err_func=analytic)`, with
    /// `analytic` returning x.std() / sqrt(len(x)) (divisor n). The samples
    /// are that script's, drawn with NumPy's generator seeded 42 and
    /// rounded to 2 decimals.
    static let references: [(name: String, values: [Double], arch: ConfidenceInterval)] = [
        (
            "20 lognormal",
            [
                1.36, 0.35, 2.12, 2.56, 0.14, 0.27, 1.14, 0.73, 0.98, 0.43, 2.41, 2.18, 1.07, 3.09, 1.6, 0.42, 1.45,
                0.38, 2.41, 0.95,
            ],
            ConfidenceInterval(lower: 0.914908, upper: 1.764157)
        ),
        (
            "30 zero-inflated Pareto",
            [
                0, 0, 0, 0, 0, 183.49, 0, 139.99, 106.21, 0, 0, 0, 0, 0, 0, 138.07, 138.77, 0, 101.26, 0, 0, 0, 0, 0, 0,
                0, 0, 154.31,
                0, 184.56,
            ],
            ConfidenceInterval(lower: 17.010448, upper: 69.996211)
        ),
        (
            "60 zero-inflated exponential",
            [
                0, 0, 0, 1.85, 3.12, 2.11, 0, 0, 2.45, 0, 6.35, 0, 0, 13.62, 0.67, 0, 1.46, 2.67, 9.75, 0, 0, 0, 3.93,
                0, 0, 0, 0, 1.43,
                3.06, 0, 0, 8.53, 2.23, 0, 1.21, 0, 0, 0, 0, 0, 0, 0, 9.02, 0, 2.65, 0, 5.61, 3.38, 9.76, 0, 0.56, 0, 0,
                0.46, 0, 13.9,
                0, 0, 0, 8.27,
            ],
            ConfidenceInterval(lower: 1.207163, upper: 3.141535)
        ),
    ]

    @Test("The interval agrees with arch's studentized interval on the same samples, up to resampling noise")
    func agreesWithArch() throws {
        let bootstrap = PairedBootstrap(resamples: 100_000, seed: 1)
        for reference in StudentizedBootstrapTests.references {
            let summary = bootstrap.summaries(ofColumns: [reference.values], thresholds: [0])[0]
            #expect(summary.method == .studentized, "\(reference.name)")
            let width = reference.arch.upper - reference.arch.lower
            // At 100,000 resamples arch's ends move by at most 1.2% of the
            // width between seeds 1 to 5 (the script prints the spread); two
            // implementations with their own draws, 3% of the width apart at most.
            #expect(
                abs(summary.interval.lower - reference.arch.lower) <= 0.03 * width,
                "\(reference.name): \(summary.interval) vs arch \(reference.arch)")
            #expect(
                abs(summary.interval.upper - reference.arch.upper) <= 0.03 * width,
                "\(reference.name): \(summary.interval) vs arch \(reference.arch)")
            print("\(reference.name): FeedSim \(summary.interval), arch \(reference.arch), width \(width)")
        }
    }

    @Test(
        """
        Resamples without spread give finite intervals; too many of them on one side, or a sample without spread, \
        give BCa
        """
    )
    func resamplesWithoutSpread() throws {
        let bootstrap = PairedBootstrap(resamples: 2_000, seed: 3)
        // 2 values of 40 nonzero: an all-zero resample comes 1 time in
        // (38/40)^-40 ≈ 7.7, more than α/2, so the upper end would be infinite.
        let rare = [Double](repeating: 0, count: 38) + [50, 80]
        let rareSummary = bootstrap.summaries(ofColumns: [rare], thresholds: [1])[0]
        #expect(rareSummary.method == .bca)
        #expect(bootstrap.studentized(rare) == nil)
        // 8 values of 40 nonzero: all-zero resamples, 1 in 7,500, keep their
        // place in the lower tail with a finite t*.
        let some = [Double](repeating: 0, count: 32) + [3, 50, 80, 7, 12, 1, 90, 4]
        let t = try #require(bootstrap.studentized(some))
        #expect(t.sorted.allSatisfy { $0.isFinite })
        let summary = bootstrap.summaries(ofColumns: [some], thresholds: [1])[0]
        #expect(summary.method == .studentized)
        #expect(
            summary.interval.lower.isFinite && summary.interval.upper.isFinite
                && summary.interval.lower < summary.interval.upper)
        #expect(
            [summary.pValue, summary.mattersPValue, summary.equivalencePValue].allSatisfy {
                $0.isFinite && $0 > 0 && $0 <= 1
            })
        // Every difference the same: no spread, BCa's point interval.
        let same = bootstrap.summaries(ofColumns: [[Double](repeating: 2, count: 20)], thresholds: [1])[0]
        #expect(same.method == .bca && same.interval == ConfidenceInterval(lower: 2, upper: 2))
    }

    @Test("p-values invert the interval: p ≤ α exactly when the interval leaves out the value tested")
    func pValuesInvertTheInterval() throws {
        let bootstrap = PairedBootstrap(resamples: 9_999, seed: 7)
        for reference in StudentizedBootstrapTests.references {
            let t = try #require(bootstrap.studentized(reference.values))
            let interval = t.interval(confidence: 0.95)
            let width = interval.upper - interval.lower
            for share in stride(from: -0.5, through: 1.5, by: 0.05) {
                let value = interval.lower + share * width
                let p = min(1, 2 * min(t.pAtMost(value), t.pAtLeast(value)))
                // Within 1% of the width of an end the two differ only by the (k + 1)/(B + 1) count.
                let nearEnd = abs(value - interval.lower) < 0.01 * width || abs(value - interval.upper) < 0.01 * width
                if !nearEnd {
                    #expect(
                        (p <= 0.05) == !interval.contains(value), "\(reference.name) at \(value): p \(p), \(interval)")
                }
            }
        }
    }
}
