import Determinism

/// A two-sided interval from `lower` to `upper`, both included.
package struct ConfidenceInterval: Hashable, Sendable {
    /// The lower end.
    package var lower: Double
    /// The upper end.
    package var upper: Double

    /// An interval from its ends.
    package init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// Whether `value` lies in the interval, ends included.
    package func contains(_ value: Double) -> Bool { lower <= value && value <= upper }
}

/// What a bootstrap says of one mean.
package struct BootstrapSummary: Hashable, Sendable {
    /// The percentile interval of the mean.
    package var interval: ConfidenceInterval
    /// The two-sided p-value of "the mean is 0".
    package var pValue: Double
    /// The p-value of "the mean lies at or beyond ±threshold": small when
    /// the interval of the mean lies inside ±threshold (two one-sided
    /// tests, Schuirmann 1987); 1 or near it for a threshold of 0.
    package var equivalencePValue: Double
}

/// The seeded percentile bootstrap of a mean (Efron, 1979; Efron and
/// Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13): the
/// sample is resampled with replacement `resamples` times, the mean of each
/// resample taken, and the interval's ends are the (1 − confidence)/2 and
/// (1 + confidence)/2 quantiles of those means.
///
/// Applied to paired differences (one value per pair: B − A for the same
/// session under two variants) it gives the interval of the paired mean
/// difference. The quantiles interpolate linearly between order statistics
/// (Hyndman and Fan's type 7, NumPy's default), as SciPy's
/// `scipy.stats.bootstrap(method='percentile')` takes them, so the two agree
/// up to resampling noise.
///
/// Resample indices come from `Xoshiro256StarStar` seeded with `seed` and
/// our own range reduction, never the standard library's random numbers:
/// the same sample and seed always give the same interval, on every
/// platform and Swift release. Every interval starts the stream afresh from
/// `seed`, so an interval depends only on its own sample, never on which
/// other intervals were computed with it or in which order.
package struct PairedBootstrap: Hashable, Sendable {
    /// Resamples drawn when none are chosen.
    package static let defaultResamples = 10_000
    /// The bootstrap's seed when none is chosen.
    package static let defaultSeed: UInt64 = 1
    /// The interval's confidence level when none is chosen.
    package static let defaultConfidence = 0.95

    /// How many resamples are drawn, at least 1.
    package var resamples: Int
    /// The seed of the resampling stream.
    package var seed: UInt64
    /// The confidence level, in (0, 1).
    package var confidence: Double

    /// A bootstrap with the given settings (defaults: 10,000 resamples,
    /// seed 1, 95%).
    package init(
        resamples: Int = PairedBootstrap.defaultResamples, seed: UInt64 = PairedBootstrap.defaultSeed,
        confidence: Double = PairedBootstrap.defaultConfidence
    ) {
        precondition(resamples >= 1, "resamples must be at least 1")
        precondition(confidence > 0 && confidence < 1, "confidence must be in (0, 1)")
        self.resamples = resamples
        self.seed = seed
        self.confidence = confidence
    }

    /// The interval of the mean of `sample`; `nil` when it is empty.
    ///
    /// - Complexity: O(*B* · *n* + *B* log *B*) for *B* resamples of *n* values.
    package func interval(ofMean sample: [Double]) -> ConfidenceInterval? {
        intervals(ofMeans: sample.map { [$0] }, columns: 1)?.first
    }

    /// The interval of the mean of each column of `samples`, a table of *n*
    /// rows of `columns` values each (row `i` holds every column's value for
    /// observation `i`); `nil` when there are no rows.
    ///
    /// The columns share the resample indices, which is what resampling
    /// them one at a time from the same seed would draw: each column's
    /// interval is the one `interval(ofMean:)` gives for it alone.
    ///
    /// - Complexity: O(*B* · *n* · *c* + *c* · *B* log *B*) for *B*
    ///   resamples and *c* columns.
    package func intervals(ofMeans samples: [[Double]], columns: Int) -> [ConfidenceInterval]? {
        summaries(ofMeans: samples, columns: columns, thresholds: Array(repeating: 0, count: columns))?.map(\.interval)
    }

    /// What the bootstrap says of the mean of each column of `samples` (as
    /// `intervals(ofMeans:columns:)`): its interval, the p-value of "the
    /// mean is 0", and the p-value of "the mean lies at or beyond
    /// ±`thresholds[c]`" (two one-sided tests). `nil` when there are no rows.
    ///
    /// Both p-values invert the percentile interval (Efron and Tibshirani,
    /// 1993, ch. 15–16): the smallest 1 − level at which the interval of
    /// that level excludes 0, or lies inside ±threshold. Counted with one
    /// added above and below, (k + 1) / (B + 1) (Davison and Hinkley, 1997,
    /// §4.4), so no p-value is 0.
    ///
    /// - Complexity: as `intervals(ofMeans:columns:)`.
    package func summaries(ofMeans samples: [[Double]], columns: Int, thresholds: [Double]) -> [BootstrapSummary]? {
        precondition(thresholds.count == columns, "one threshold per column")
        let n = samples.count
        guard n > 0 else { return nil }
        precondition(samples.allSatisfy { $0.count == columns }, "every row must have \(columns) values")
        let flat = samples.flatMap { $0 }
        var means = Array(repeating: [Double](repeating: 0, count: resamples), count: columns)
        var generator = Xoshiro256StarStar(seed: seed)
        var sums = [Double](repeating: 0, count: columns)
        let count = Double(n)
        for r in 0..<resamples {
            for c in 0..<columns { sums[c] = 0 }
            for _ in 0..<n {
                let base = generator.nextIndex(below: n) * columns
                for c in 0..<columns { sums[c] += flat[base + c] }
            }
            for c in 0..<columns { means[c][r] = sums[c] / count }
        }
        let tail = (1 - confidence) / 2
        let resampled = Double(resamples + 1)
        return zip(means, thresholds).map { column, threshold in
            let sorted = column.sorted()
            /// The share of resampled means at or below `x`, and at or above it.
            func shares(_ x: Double) -> (below: Double, above: Double) {
                let atOrBelow = PairedBootstrap.count(sorted) { $0 > x }
                let atOrAbove = sorted.count - PairedBootstrap.count(sorted) { $0 >= x }
                return (Double(atOrBelow + 1) / resampled, Double(atOrAbove + 1) / resampled)
            }
            let zero = shares(0)
            return BootstrapSummary(
                interval: ConfidenceInterval(
                    lower: PairedBootstrap.quantile(sorted, tail), upper: PairedBootstrap.quantile(sorted, 1 - tail)),
                pValue: min(1, 2 * min(zero.below, zero.above)),
                equivalencePValue: min(1, max(shares(-threshold).below, shares(threshold).above)))
        }
    }

    /// How many of `sorted` (ascending) come before the first that
    /// `isPast` holds for: a binary search.
    static func count(_ sorted: [Double], before isPast: (Double) -> Bool) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if isPast(sorted[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The `q` quantile of `sorted` by linear interpolation between order
    /// statistics (Hyndman and Fan type 7, NumPy's default): position
    /// (n − 1)·q, 0-based.
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        let position = Double(sorted.count - 1) * q
        let below = Int(position.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        let fraction = position - Double(below)
        return sorted[below] + fraction * (sorted[above] - sorted[below])
    }
}
