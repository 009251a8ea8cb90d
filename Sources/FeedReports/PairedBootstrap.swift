import Determinism
import FeedScenario

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

/// How an interval of a mean was computed.
package enum IntervalMethod: String, Hashable, Sendable {
    /// The studentized bootstrap (bootstrap-t; Efron and Tibshirani, 1993,
    /// ch. 12.5; Hall, 1988): up to `PairedBootstrap.largestResampledSample`
    /// pairs, wherever its interval is defined (`StudentizedResamples`).
    case studentized
    /// The bias-corrected and accelerated bootstrap (Efron, 1987), for a
    /// sample whose studentized interval is not defined: its differences
    /// are all the same, or an end would be infinite (more than α/2 of the
    /// resamples on one side of the mean have no spread).
    case bca
    /// BCa over batch means, above `PairedBootstrap.largestResampledSample`
    /// pairs: the pairs are cut, in order, into that many batches of
    /// nearly equal size, and the batches are resampled (each resample's
    /// statistic is its batches' total over their pair count). Resampling
    /// every pair would cost B · n draws per comparison (10¹⁰ for a
    /// million pairs); the batch means keep the mean's variance and
    /// skewness, so its interval is the full one's (a test measures it).
    case batchedBCa = "bca-batched"
}

/// What a bootstrap says of one mean.
package struct BootstrapSummary: Hashable, Sendable {
    /// The interval of the mean.
    package var interval: ConfidenceInterval
    /// The two-sided p-value of "the mean is 0".
    package var pValue: Double
    /// The p-value of "the mean lies at or beyond ±threshold": small when
    /// the interval of the mean lies inside ±threshold (two one-sided
    /// tests, Schuirmann 1987); 1 or near it for a threshold of 0.
    package var equivalencePValue: Double
    /// The two-sided p-value of "the mean lies within ±threshold", tested
    /// on the side of the observed mean: small when the interval lies
    /// wholly beyond the threshold, so the difference matters.
    package var mattersPValue: Double
    /// How the interval and p-values were computed.
    package var method: IntervalMethod
}

/// The seeded bias-corrected and accelerated (BCa) bootstrap of a mean
/// (Efron, "Better Bootstrap Confidence Intervals", JASA 82, 1987; Efron
/// and Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 14.3):
/// the sample is resampled with replacement `resamples` times and the mean
/// of each resample taken; the interval's ends are quantiles of those means
/// at levels moved by a bias correction z₀ (how far the observed mean sits
/// from the resampled means' middle) and an acceleration a (the sample's
/// skewness, from the jackknife). With z₀ = a = 0 it is the percentile
/// interval.
///
/// Up to `largestResampledSample` pairs the interval and p-values are the
/// studentized bootstrap's (`StudentizedResamples`), which holds its level
/// better than BCa on the skewed and zero-inflated differences drift and
/// hitches take (docs/explore.md has the measured table, and a test
/// measures it); BCa is kept for the samples whose studentized interval is
/// not defined, and above that size. The percentile interval covers less
/// than it says there (83–88% for a nominal 95% at 20 pairs). BCa's
/// z₀, a and the quantiles are computed as
/// `scipy.stats.bootstrap(method='BCa')` computes them: the score's
/// percentile counts ties as half, quantiles interpolate linearly between
/// order statistics (Hyndman and Fan type 7, NumPy's default).
///
/// p-values invert the same interval: the p-value of "the mean is at most
/// t" is the one-sided level at which the interval's lower end reaches t
/// (the bootstrap's distribution function at t, moved by z₀ and a). They
/// are never below the bootstrap's resolution, 1/(B + 1) one-sided and
/// 2/(B + 1) two-sided (Davison and Hinkley, 1997, §4.4).
///
/// Above `largestResampledSample` values the sample is cut into that many
/// batches and the batches are resampled (`IntervalMethod.batchedBCa`):
/// resampling a million pairs 10,000 times would be 10¹⁰ draws.
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
    /// The most resamples a family may raise the count to: beyond it a
    /// bootstrap of thousands of pairs takes minutes.
    package static let maximumResamples = 200_000
    /// The bootstrap's seed when none is chosen.
    package static let defaultSeed: UInt64 = 1
    /// The interval's confidence level when none is chosen.
    package static let defaultConfidence = 0.95
    /// Samples of more values than this are resampled as this many batches
    /// (`IntervalMethod.batchedBCa`).
    package static let largestResampledSample = 5_000

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

    /// The significance level, 1 − confidence.
    package var alpha: Double { 1 - confidence }

    /// The smallest two-sided p-value a resampled comparison can show:
    /// 2/(B + 1).
    package var smallestPValue: Double { 2 / Double(resamples + 1) }

    /// The resamples a family of `comparisons` corrected together needs so
    /// that a difference lying outside every resample can be shown: the
    /// smallest p-value, corrected (at worst multiplied by the family's
    /// size), must reach α with room to spare, so 2/(B + 1) ≤ α/(2m), that is
    /// B ≥ 4m/α − 1.
    package static func resamplesNeeded(comparisons: Int, alpha: Double) -> Int {
        Int((4 * Double(max(comparisons, 1)) / alpha).rounded(.up)) - 1
    }

    /// This bootstrap with its resamples raised, up to `maximumResamples`,
    /// to what a family of `comparisons` under `correction` needs
    /// (`resamplesNeeded`); never lowered.
    package func raised(forFamilyOf comparisons: Int, correction: MultipleComparisons) -> PairedBootstrap {
        let family = correction == .none ? 1 : comparisons
        let needed = min(
            PairedBootstrap.resamplesNeeded(comparisons: family, alpha: alpha), PairedBootstrap.maximumResamples)
        var raised = self
        raised.resamples = max(resamples, needed)
        return raised
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
    /// mean is 0", the p-value of "the mean lies at or beyond
    /// ±`thresholds[c]`" (two one-sided tests) and that of "the mean lies
    /// within ±`thresholds[c]`". `nil` when there are no rows.
    ///
    /// - Complexity: O(*n* · *c* + *B* · *K* · *c* + *c* · *B* log *B*)
    ///   with *K* = min(*n*, `largestResampledSample`).
    package func summaries(ofMeans samples: [[Double]], columns: Int, thresholds: [Double]) -> [BootstrapSummary]? {
        precondition(thresholds.count == columns, "one threshold per column")
        guard !samples.isEmpty else { return nil }
        precondition(samples.allSatisfy { $0.count == columns }, "every row must have \(columns) values")
        return summaries(ofColumns: (0..<columns).map { c in samples.map { $0[c] } }, thresholds: thresholds)
    }

    /// As `summaries(ofMeans:columns:thresholds:)`, the sample given column
    /// by column (every column of one length, at least 1).
    func summaries(ofColumns sampleColumns: [[Double]], thresholds: [Double]) -> [BootstrapSummary] {
        let n = sampleColumns[0].count
        return summaries(
            batchSums: sampleColumns.map { PairedBootstrap.batchSums($0) }, pairs: n, thresholds: thresholds)
    }

    /// The batch a sample of `pairs` values puts value `i` in: the values
    /// are cut, in order, into min(pairs, `largestResampledSample`) batches
    /// of nearly equal size.
    static func batch(of i: Int, pairs: Int) -> Int {
        i * min(pairs, largestResampledSample) / pairs
    }

    /// The sums of `values` over its batches (`batch(of:pairs:)`); the
    /// values themselves up to `largestResampledSample` of them.
    static func batchSums(_ values: [Double]) -> [Double] {
        guard values.count > largestResampledSample else { return values }
        var sums = [Double](repeating: 0, count: largestResampledSample)
        for (i, value) in values.enumerated() { sums[batch(of: i, pairs: values.count)] += value }
        return sums
    }

    /// What the bootstrap says of samples of `pairs` values each, given as
    /// their batch sums (`batchSums`).
    func summaries(batchSums sampleColumns: [[Double]], pairs n: Int, thresholds: [Double]) -> [BootstrapSummary] {
        let columns = sampleColumns.count
        // Rows (or batches of rows, in order) as their sums and counts: a
        // resample's statistic is its rows' total over their count, the mean.
        let batches = min(n, PairedBootstrap.largestResampledSample)
        var flat = [Double](repeating: 0, count: batches * columns)
        var counts = [Int](repeating: 0, count: batches)
        for i in 0..<n { counts[PairedBootstrap.batch(of: i, pairs: n)] += 1 }
        for (c, column) in sampleColumns.enumerated() {
            for (b, sum) in column.enumerated() { flat[b * columns + c] = sum }
        }
        let studentize = batches == n
        let centres = studentize ? sampleColumns.map { $0.reduce(0, +) / Double(n) } : nil
        let moments = resampledMoments(flat: flat, counts: counts, columns: columns, centres: centres)
        return (0..<columns).map { c in
            if studentize,
                let t = StudentizedResamples(
                    means: moments.means[c], meanSquares: moments.meanSquares[c], sample: sampleColumns[c],
                    confidence: confidence)
            {
                return t.summary(confidence: confidence, threshold: thresholds[c])
            }
            let sorted = moments.means[c].sorted()
            let resampled =
                studentize
                ? ResampledMeans(sorted: sorted, sample: sampleColumns[c])
                : ResampledMeans(
                    sorted: sorted, batchSums: (0..<batches).map { flat[$0 * columns + c] }, counts: counts)
            return resampled.summary(confidence: confidence, threshold: thresholds[c])
        }
    }

    /// Each resample's mean of every column of `flat` (rows, or batches of
    /// `counts` rows, of `columns` values each), in resample order; with
    /// `centres` (one a column), also each resample's mean square of the
    /// values less their column's centre, for the studentized bootstrap's
    /// spread (centred first, so that the variance is not a difference of
    /// two large numbers).
    func resampledMoments(
        flat: [Double], counts: [Int], columns: Int, centres: [Double]?
    )
        -> (means: [[Double]], meanSquares: [[Double]])
    {
        let batches = counts.count
        var means = Array(repeating: [Double](repeating: 0, count: resamples), count: columns)
        var meanSquares = Array(
            repeating: [Double](repeating: 0, count: centres == nil ? 0 : resamples), count: columns)
        var generator = Xoshiro256StarStar(seed: seed)
        var sums = [Double](repeating: 0, count: columns), squares = sums
        flat.withUnsafeBufferPointer { flat in
            for r in 0..<resamples {
                for c in 0..<columns {
                    sums[c] = 0
                    squares[c] = 0
                }
                var count = 0
                for _ in 0..<batches {
                    let batch = generator.nextIndex(below: batches)
                    count += counts[batch]
                    let base = batch * columns
                    for c in 0..<columns { sums[c] += flat[base + c] }
                    if let centres {
                        for c in 0..<columns {
                            squares[c] += (flat[base + c] - centres[c]) * (flat[base + c] - centres[c])
                        }
                    }
                }
                for c in 0..<columns { means[c][r] = sums[c] / Double(count) }
                if centres != nil { for c in 0..<columns { meanSquares[c][r] = squares[c] / Double(count) } }
            }
        }
        return (means, meanSquares)
    }

    /// The sorted resampled means of `sample` with BCa's z₀ and a: what
    /// `summaries` computes for a column, for tests to read.
    func resampled(_ sample: [Double]) -> ResampledMeans {
        var means = [Double](repeating: 0, count: resamples)
        var generator = Xoshiro256StarStar(seed: seed)
        let n = sample.count
        for r in 0..<resamples {
            var sum = 0.0
            for _ in 0..<n { sum += sample[generator.nextIndex(below: n)] }
            means[r] = sum / Double(n)
        }
        means.sort()
        return ResampledMeans(sorted: means, sample: sample)
    }

    /// The studentized resamples of `sample` (at least 1 value), drawn as
    /// `summaries` draws them; `nil` where the studentized interval is not
    /// defined (`StudentizedResamples.init`): what `summaries` computes
    /// for a column, for tests to read.
    func studentized(_ sample: [Double]) -> StudentizedResamples? {
        let counts = [Int](repeating: 1, count: sample.count)
        let moments = resampledMoments(
            flat: sample, counts: counts, columns: 1, centres: [sample.reduce(0, +) / Double(sample.count)])
        return StudentizedResamples(
            means: moments.means[0], meanSquares: moments.meanSquares[0], sample: sample, confidence: confidence)
    }

}

/// A bootstrap's resampled statistics of one mean, from which an interval
/// and the one-sided p-values that invert it follow.
protocol ResampledStatistic {
    /// The sample's mean.
    var mean: Double { get }
    /// How many resamples were drawn.
    var resampleCount: Int { get }
    /// How the interval and p-values are computed.
    var method: IntervalMethod { get }
    /// The interval of the mean at `confidence`.
    func interval(confidence: Double) -> ConfidenceInterval
    /// The one-sided p-value of "the mean is at most `t`", never below 1/(B + 1).
    func pAtMost(_ t: Double) -> Double
    /// The one-sided p-value of "the mean is at least `t`", never below 1/(B + 1).
    func pAtLeast(_ t: Double) -> Double
}

extension ResampledStatistic {
    /// The interval and the p-values, with `threshold` the smallest
    /// difference that matters.
    func summary(confidence: Double, threshold: Double) -> BootstrapSummary {
        let floor = 2 / Double(resampleCount + 1)
        let difference = min(1, 2 * min(pAtMost(0), pAtLeast(0)))
        let matters = mean == 0 ? 1 : min(1, 2 * (mean > 0 ? pAtMost(threshold) : pAtLeast(-threshold)))
        return BootstrapSummary(
            interval: interval(confidence: confidence),
            pValue: max(floor, difference),
            equivalencePValue: min(1, max(pAtMost(-threshold), pAtLeast(threshold))),
            mattersPValue: max(floor, matters),
            method: method)
    }
}

/// The studentized bootstrap of a mean (bootstrap-t: Efron and Tibshirani,
/// 1993, ch. 12.5; Hall, "Theoretical comparison of bootstrap confidence
/// intervals", Annals of Statistics 16, 1988). Each resample gives
/// t* = (x̄* − x̄)/se*, with se = sd/√n (sd with divisor n, as the
/// bootstrap's own spread of the mean has it); the interval is
/// [x̄ − t*₍₁₋α/2₎·se, x̄ − t*₍α/2₎·se], quantiles interpolated as NumPy
/// does. The p-value of "the mean is at most c" is the share of t* at or
/// above (x̄ − c)/se, counted as (k + 1)/(B + 1): the level at which the
/// interval's lower end reaches c, so p-values and interval agree.
///
/// A resample with no spread (se* = 0, its values all the same: the
/// all-zero resamples of zero-inflated differences) has an infinite t*.
/// Where more than α/2 of the resamples on one side of the mean are such,
/// an end of the interval would be infinite, so the studentized interval
/// is not defined and the sample gets BCa's (`init` returns nil), as it
/// does when the sample itself has no spread. Fewer such resamples keep
/// their place in the tail: their se* is taken as the smallest se* of the
/// resamples that have spread, so every t* is finite and none is NaN.
struct StudentizedResamples: ResampledStatistic {
    /// The resamples' t*, ascending.
    var sorted: [Double]
    var mean: Double
    /// The sample's standard error of the mean, sd/√n (divisor n).
    var standardError: Double
    var resampleCount: Int { sorted.count }
    var method: IntervalMethod { .studentized }

    /// A resample's variance at or below this share of the sample's counts
    /// as none: its values are all the same, up to rounding.
    static let noSpread = 1e-12

    /// The t* of resamples with means `means` and mean squares about the
    /// sample's mean `meanSquares`, in the same order; `nil` where the
    /// studentized interval at `confidence` is not defined.
    init?(means: [Double], meanSquares: [Double], sample: [Double], confidence: Double) {
        let n = Double(sample.count)
        let mean = sample.reduce(0, +) / n
        let variance = sample.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n
        guard variance > 0 else { return nil }
        let standardError = (variance / n).squareRoot()
        let shifts = means.map { $0 - mean }
        // Σ(x* − x̄)²/n − (x̄* − x̄)² is the resample's variance.
        let errors = zip(meanSquares, shifts).map { (max(0, $0 - $1 * $1) / n).squareRoot() }
        let spread = errors.map { $0 * $0 * n > StudentizedResamples.noSpread * variance }
        let tail = (1 - confidence) / 2 * Double(means.count)
        let flatBelow = spread.indices.count { !spread[$0] && shifts[$0] < 0 }
        let flatAbove = spread.indices.count { !spread[$0] && shifts[$0] > 0 }
        guard Double(flatBelow) <= tail, Double(flatAbove) <= tail else { return nil }
        let smallest = zip(errors, spread).lazy.filter(\.1).map(\.0).min() ?? standardError
        sorted = zip(shifts, errors).map { shift, error in shift / max(error, smallest) }.sorted()
        self.mean = mean
        self.standardError = standardError
    }

    func interval(confidence: Double) -> ConfidenceInterval {
        let tail = (1 - confidence) / 2
        return ConfidenceInterval(
            lower: mean - PairedBootstrap.quantile(sorted, 1 - tail) * standardError,
            upper: mean - PairedBootstrap.quantile(sorted, tail) * standardError)
    }

    func pAtMost(_ t: Double) -> Double {
        let score = (mean - t) / standardError
        let atOrAbove = sorted.count - PairedBootstrap.count(sorted) { $0 >= score }
        return min(1, Double(atOrAbove + 1) / Double(sorted.count + 1))
    }

    func pAtLeast(_ t: Double) -> Double {
        let score = (mean - t) / standardError
        let atOrBelow = PairedBootstrap.count(sorted) { $0 > score }
        return min(1, Double(atOrBelow + 1) / Double(sorted.count + 1))
    }
}

/// The sorted means of the resamples of one sample, and what BCa makes of
/// them.
struct ResampledMeans: ResampledStatistic {
    /// The resamples' means, ascending.
    var sorted: [Double]
    /// The sample's mean.
    var mean: Double
    /// The bias correction z₀ = Φ⁻¹(share of resampled means below the
    /// sample's mean, ties counted half), as SciPy takes it; the share is
    /// kept within [1/(2B), 1 − 1/(2B)], where SciPy gives up (no resample
    /// on one side of the mean).
    var biasCorrection: Double
    /// The acceleration a = Σ(xᵢ − x̄)³ / (6 (Σ(xᵢ − x̄)²)^{3/2}): the
    /// jackknife's for a mean (Efron and Tibshirani, 1993, eq. 14.15); 0
    /// when every value is the same.
    var acceleration: Double
    /// Whether the pairs or batches of them were resampled.
    var method: IntervalMethod

    init(sorted: [Double], sample: [Double]) {
        let mean = sample.reduce(0, +) / Double(sample.count)
        self.init(sorted: sorted, mean: mean, acceleration: ResampledMeans.acceleration(of: sample), method: .bca)
    }

    /// The resampled means of batches with sums `batchSums` of `counts`
    /// pairs each; the acceleration is the delete-one-batch jackknife's of
    /// the mean, Σ total / Σ count (Efron and Tibshirani, 1993, eq. 14.15,
    /// with Uᵢ = (K − 1)(θ̄ − θ₍ᵢ₎)).
    init(sorted: [Double], batchSums: [Double], counts: [Int]) {
        let total = batchSums.reduce(0, +)
        let pairs = Double(counts.reduce(0, +))
        let jackknife = zip(batchSums, counts).map { (total - $0) / (pairs - Double($1)) }
        let centre = jackknife.reduce(0, +) / Double(jackknife.count)
        self.init(
            sorted: sorted, mean: total / pairs,
            acceleration: ResampledMeans.acceleration(influence: jackknife.lazy.map { centre - $0 }),
            method: .batchedBCa)
    }

    init(sorted: [Double], mean: Double, acceleration: Double, method: IntervalMethod) {
        self.sorted = sorted
        self.mean = mean
        let resamples = Double(sorted.count)
        let below = Double(PairedBootstrap.count(sorted) { $0 >= mean })
        let atOrBelow = Double(PairedBootstrap.count(sorted) { $0 > mean })
        let share = min(max((below + atOrBelow) / (2 * resamples), 1 / (2 * resamples)), 1 - 1 / (2 * resamples))
        biasCorrection = StandardNormal.quantile(share)
        self.acceleration = acceleration
        self.method = method
    }

    /// The jackknife acceleration of the mean of `sample`: each value's
    /// influence on the mean is its distance from it.
    static func acceleration(of sample: [Double]) -> Double {
        let mean = sample.reduce(0, +) / Double(sample.count)
        return acceleration(influence: sample.lazy.map { $0 - mean })
    }

    /// The acceleration from the jackknife's influence values u
    /// (Efron and Tibshirani, 1993, eq. 14.15): Σu³ / (6 (Σu²)^3/2), 0 when
    /// every u is 0.
    static func acceleration(influence: some Sequence<Double>) -> Double {
        var squares = 0.0, cubes = 0.0
        for u in influence {
            squares += u * u
            cubes += u * u * u
        }
        guard squares > 0 else { return 0 }
        return cubes / (6 * squares * squares.squareRoot())
    }

    /// The quantile level BCa takes for the nominal level `level`:
    /// Φ(z₀ + (z₀ + z)/(1 − a(z₀ + z))) with z = Φ⁻¹(level).
    func adjustedLevel(_ level: Double) -> Double {
        let u = biasCorrection + StandardNormal.quantile(level)
        return StandardNormal.cdf(biasCorrection + u / (1 - acceleration * u))
    }

    /// The BCa interval at `confidence`.
    func interval(confidence: Double) -> ConfidenceInterval {
        let tail = (1 - confidence) / 2
        return ConfidenceInterval(
            lower: PairedBootstrap.quantile(sorted, adjustedLevel(tail)),
            upper: PairedBootstrap.quantile(sorted, adjustedLevel(1 - tail)))
    }

    /// The one-sided p-value of "the mean is at most `t`": the level β at
    /// which the BCa interval's lower end reaches t. With G the share of
    /// resampled means at or below t (one added above and below), solve
    /// Φ(z₀ + u/(1 − a·u)) = G for u = z₀ + Φ⁻¹(β): u = w/(1 + a·w) with
    /// w = Φ⁻¹(G) − z₀. Where 1 + a·w ≤ 0 no level reaches t (BCa's lower
    /// end never falls below the Φ(z₀ − 1/a) quantile), so the p-value is
    /// the smallest there is. Never below 1/(B + 1).
    ///
    /// When no resampled mean is at or below t, the interval's lower end
    /// lies above t at every level: the p-value is the smallest, 1/(B + 1).
    /// (With a < 0 BCa's level formula turns back on itself past
    /// z = −1/|a| − z₀, where the lower end has reached the smallest
    /// resampled mean; inverting it there would put a floor of
    /// Φ(−1/|a| − z₀) under the p-value of a difference lying outside every
    /// resample.)
    func pAtMost(_ t: Double) -> Double {
        let atOrBelow = PairedBootstrap.count(sorted) { $0 > t }
        guard atOrBelow > 0 else { return 1 / Double(sorted.count + 1) }
        return ResampledMeans.invert(
            share: Double(atOrBelow + 1) / Double(sorted.count + 1), biasCorrection: biasCorrection,
            acceleration: acceleration, floor: 1 / Double(sorted.count + 1))
    }

    /// The one-sided p-value of "the mean is at least `t`": `pAtMost` of
    /// the negated sample (z₀ and a change sign).
    func pAtLeast(_ t: Double) -> Double {
        let atOrAbove = sorted.count - PairedBootstrap.count(sorted) { $0 >= t }
        guard atOrAbove > 0 else { return 1 / Double(sorted.count + 1) }
        return ResampledMeans.invert(
            share: Double(atOrAbove + 1) / Double(sorted.count + 1), biasCorrection: -biasCorrection,
            acceleration: -acceleration, floor: 1 / Double(sorted.count + 1))
    }

    /// The level whose BCa lower end sits at the quantile `share`.
    static func invert(share: Double, biasCorrection z0: Double, acceleration a: Double, floor: Double) -> Double {
        guard share < 1 else { return 1 }
        let w = StandardNormal.quantile(share) - z0
        let denominator = 1 + a * w
        guard denominator > 0 else { return w < 0 ? floor : 1 }
        return min(1, max(floor, StandardNormal.cdf(w / denominator - z0)))
    }

    var resampleCount: Int { sorted.count }
}

extension PairedBootstrap {
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
        Quantiles.quantile(sorted, min(max(q, 0), 1))
    }
}

/// The standard normal distribution, as the scenario's latency model
/// computes it (erfc for the tails, Wichura's AS 241 for the quantile).
enum StandardNormal {
    static func cdf(_ x: Double) -> Double { LatencyDistribution.standardNormalCDF(x) }
    static func quantile(_ p: Double) -> Double { LatencyDistribution.standardNormalQuantile(p) }
}
