import Determinism
import FeedScenario
import FoundationEssentials
import Glibc

/// One fitted distribution of the usage model and how well it fits the
/// values it was fitted to.
///
/// The parametric candidate is a lognormal (durations, distances and speeds
/// are positive and right-skewed), fitted by maximum likelihood: the mean
/// and standard deviation of the logs. Its fit is the Kolmogorov–Smirnov
/// distance D between the values' empirical CDF and the fitted CDF, judged
/// against Lilliefors' 5% critical value 0.886/√n rather than Kolmogorov's
/// 1.36/√n, because the parameters come from the same values (Lilliefors
/// 1967, "On the Kolmogorov–Smirnov test for normality with mean and
/// variance unknown", JASA 62, table 1, n > 30; on the logs a lognormal is
/// a normal). A lognormal the test rejects is not used: the model keeps
/// the empirical quantile table, which every fit carries anyway.
package struct UsageFit: Sendable, Equatable {
    /// Which of the two the model samples from.
    package enum Kind: String, Sendable {
        case lognormal
        case empirical
    }

    /// Values fitted.
    package var count: Int
    /// exp(μ): the lognormal's median.
    package var median: Double
    /// σ of the logs.
    package var sigma: Double
    /// Kolmogorov–Smirnov distance between the values and the lognormal.
    package var ksDistance: Double
    /// Lilliefors' 5% critical value for `count` values.
    package var ksCritical: Double
    /// The 21 quantiles at 0, 0.05, …, 1 of the values.
    package var quantiles: [Double]

    /// Lognormal where the test keeps it, else the empirical table.
    package var kind: Kind { ksDistance <= ksCritical ? .lognormal : .empirical }

    /// Lilliefors' asymptotic 5% critical value is 0.886/√n.
    package static let lillieforsCoefficient = 0.886
    /// Fewer values than this are refused: Lilliefors' asymptotic value
    /// holds from n > 30.
    package static let minimumCount = 30

    /// The fit of `values`, all positive; nil when there are fewer than
    /// `minimumCount`.
    /// - Complexity: O(n log n).
    package static func fit(_ values: [Double]) -> UsageFit? {
        guard values.count >= minimumCount, values.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        let sorted = values.sorted()
        let logs = sorted.map { log($0) }
        let n = Double(logs.count)
        let mu = logs.reduce(0, +) / n
        let sigma = max((logs.map { ($0 - mu) * ($0 - mu) }.reduce(0, +) / n).squareRoot(), 1e-12)
        let distance = ksDistance(sorted: logs) { normalCDF(($0 - mu) / sigma) }
        return UsageFit(
            count: sorted.count, median: exp(mu), sigma: sigma, ksDistance: distance,
            ksCritical: lillieforsCoefficient / n.squareRoot(), quantiles: quantileTable(sorted))
    }

    /// sup |F_n − F| over `sorted`, checked on both sides of each step.
    package static func ksDistance(sorted: [Double], cdf: (Double) -> Double) -> Double {
        let n = Double(sorted.count)
        var distance = 0.0
        for (index, value) in sorted.enumerated() {
            let f = cdf(value)
            distance = max(distance, Double(index + 1) / n - f, f - Double(index) / n)
        }
        return distance
    }

    /// The standard normal CDF.
    package static func normalCDF(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }

    /// Quantiles at 0, 0.05, …, 1, linear between order statistics
    /// (Hyndman and Fan's type 7, numpy's default).
    package static func quantileTable(_ sorted: [Double]) -> [Double] {
        (0...20).map { Quantiles.quantile(sorted, Double($0) / 20) }
    }
}

/// A rate of app events per minute of a session, as a Poisson process,
/// with how well per-session counts fit it.
///
/// λ is the maximum-likelihood rate: events over minutes. The fit is the
/// KS distance from the uniform of the sessions' randomized probability
/// integral transforms u = F(k−1) + V·(F(k) − F(k−1)) under
/// Poisson(λ·minutes), V uniform: for counts the plain transform is not
/// uniform even when the model holds, the randomized one is (Dunn and
/// Smyth 1996, "Randomized quantile residuals", J. Comput. Graph. Stat.
/// 5:236). V comes from a fixed seed, so the same logs give the same D.
/// Its 5% critical value 1.36/√n is approximate, λ being estimated.
package struct UsageRate: Sendable, Equatable {
    package var sessions: Int
    package var events: Int
    package var perMinute: Double
    package var ksDistance: Double
    package var ksCritical: Double

    /// The seed of the randomized transforms' uniform draws.
    static let pitSeed: UInt64 = 0x5EED_0044

    /// Kolmogorov's asymptotic 5% critical value is 1.36/√n.
    package static let kolmogorovCoefficient = 1.36

    /// The rate of `counts[i]` events over `minutes[i]`, session by session.
    package static func fit(counts: [Int], minutes: [Double]) -> UsageRate? {
        let total = minutes.reduce(0, +)
        guard counts.count >= UsageFit.minimumCount, total > 0 else { return nil }
        let events = counts.reduce(0, +)
        let rate = Double(events) / total
        var random = SplitMix64(seed: pitSeed)
        let pits = zip(counts, minutes).map { count, length in
            let mean = rate * length
            let below = poissonCDF(count - 1, mean: mean)
            return below + random.nextUnit() * (poissonCDF(count, mean: mean) - below)
        }.sorted()
        let distance = UsageFit.ksDistance(sorted: pits) { $0 }
        let n = Double(counts.count)
        return UsageRate(
            sessions: counts.count, events: events, perMinute: rate, ksDistance: distance,
            ksCritical: kolmogorovCoefficient / n.squareRoot())
    }

    /// P(X ≤ k) for X ~ Poisson(mean).
    package static func poissonCDF(_ k: Int, mean: Double) -> Double {
        guard k >= 0 else { return 0 }
        var term = exp(-mean), sum = term
        if k > 0 {
            for i in 1...k {
                term *= mean / Double(i)
                sum += term
            }
        }
        return min(sum, 1)
    }
}

/// A proportion (a drag released as a fling, a drag that reverses the one
/// before) with its 95% Wilson score interval: a single proportion is its
/// own maximum-likelihood fit, so the interval says how well the logs pin
/// it down instead.
package struct UsageProportion: Sendable, Equatable {
    package var trials: Int
    package var successes: Int
    package var low: Double
    package var high: Double
    package var value: Double { Double(successes) / Double(trials) }

    /// z of a two-sided 95% interval.
    static let z = 1.959964

    package static func fit(successes: Int, trials: Int) -> UsageProportion? {
        guard trials >= UsageFit.minimumCount else { return nil }
        let n = Double(trials), p = Double(successes) / n, z2 = z * z
        let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / (1 + z2 / n)
        return UsageProportion(
            trials: trials, successes: successes, low: max(0, centre - half), high: min(1, centre + half))
    }
}
