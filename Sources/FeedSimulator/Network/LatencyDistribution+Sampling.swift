import Determinism
import FeedScenario
import FoundationEssentials
import Glibc

/// Drawing latencies: the one part of a distribution that needs the
/// simulator's seeded generators.
extension LatencyDistribution {
    /// The most draws a truncated normal may reject before sampling gives up.
    /// ``validate()`` requires a non-negative mean, so each draw is accepted
    /// with probability at least 1/2 and reaching this limit has probability
    /// at most 2⁻¹⁰⁰⁰: hitting it means the parameters were never validated.
    static let normalRedrawLimit = 1_000

    /// One latency, in milliseconds, drawn from `generator`.
    ///
    /// - constant: no draw.
    /// - uniform: `min + (max − min)·U`, one draw.
    /// - normal: `mean + sd·Z` with `Z` from Box–Muller, redrawn while negative.
    /// - lognormal: `median·e^(σZ)`, `Z` from Box–Muller (two draws).
    /// - pareto: inverse transform of `F(x) = 1 − (x_m/x)^α`, that is
    ///   `x = x_m·U^(−1/α)` with `U` in `(0, 1]` (one draw).
    ///
    /// - Complexity: O(1); the truncated normal redraws a bounded number of times.
    package func sample(using generator: inout Xoshiro256StarStar) -> Double {
        switch self {
        case .constant(let ms):
            return ms
        case .uniform(let minMs, let maxMs):
            return minMs + (maxMs - minMs) * generator.nextUnit()
        case .normal(let meanMs, let stdDevMs):
            guard stdDevMs > 0 else { return meanMs }
            for _ in 0..<Self.normalRedrawLimit {
                let x = meanMs + stdDevMs * Self.standardNormal(using: &generator)
                if x >= 0 { return x }
            }
            preconditionFailure(
                """
                normal(meanMs: \(meanMs), stdDevMs: \(stdDevMs)) rejected \(Self.normalRedrawLimit) draws; \
                validate() requires meanMs ≥ 0
                """
            )
        case .lognormal(let medianMs, let sigma):
            return medianMs * exp(sigma * Self.standardNormal(using: &generator))
        case .pareto(let scaleMs, let shape):
            let u = 1 - generator.nextUnit()
            return scaleMs * pow(u, -1 / shape)
        }
    }

    /// One standard normal draw (`Gaussian.boxMuller`) from two uniforms,
    /// `U₁` in `(0, 1]` so the logarithm is finite: every normal draw costs
    /// exactly two uniforms and the enum stays stateless.
    static func standardNormal(using generator: inout Xoshiro256StarStar) -> Double {
        let u1 = 1 - generator.nextUnit()
        let u2 = generator.nextUnit()
        return Gaussian.boxMuller(u1, u2)
    }
}
