import FoundationEssentials
import Glibc

/// A distribution of round-trip latencies, in milliseconds: a link draws one
/// value per request attempt.
///
/// One type for the scenario file (`network.latency`) and for the simulated
/// link. Every case has a closed-form ``mean`` and ``quantile(_:)``, so tests
/// can hold samples against analytic values and reports can say what a
/// profile means without simulating it; the simulator draws from it with our
/// own generator (`sample(using:)`, in FeedSimulator, where the generators are).
package enum LatencyDistribution: Sendable, Equatable {
    /// Always `ms`.
    case constant(ms: Double)
    /// Uniform on `[minMs, maxMs)`.
    case uniform(minMs: Double, maxMs: Double)
    /// A normal distribution truncated at 0 by resampling: a negative draw is
    /// thrown away and drawn again, so the density above 0 keeps its shape
    /// (scaled up) instead of piling the negative mass onto 0 as clamping would.
    /// ``mean`` and ``quantile(_:)`` are those of the truncated distribution.
    case normal(meanMs: Double, stdDevMs: Double)
    /// A lognormal distribution: `ln X ~ N(ln medianMs, sigma²)`. `sigma` is
    /// the standard deviation of `ln X`, so `medianMs · e^(±sigma)` bounds the
    /// middle 68% of draws.
    case lognormal(medianMs: Double, sigma: Double)
    /// A Pareto (type I) distribution with scale `x_m = scaleMs` and shape
    /// `α = shape`: `P(X > x) = (x_m / x)^α` for `x ≥ x_m`. The mean is
    /// finite only for `α > 1`, the variance only for `α > 2`.
    case pareto(scaleMs: Double, shape: Double)

    /// The analytic mean, in milliseconds; `.infinity` for a Pareto shape ≤ 1.
    ///
    /// - normal (truncated at 0, `α = −μ/σ`): `μ + σ·φ(α) / (1 − Φ(α))`.
    /// - lognormal: `median·e^(σ²/2)`.
    /// - pareto: `α·x_m / (α − 1)` for `α > 1`.
    package var mean: Double {
        switch self {
        case .constant(let ms):
            return ms
        case .uniform(let minMs, let maxMs):
            return (minMs + maxMs) / 2
        case .normal(let meanMs, let stdDevMs):
            guard stdDevMs > 0 else { return meanMs }
            let alpha = -meanMs / stdDevMs
            return meanMs + stdDevMs * Self.standardNormalDensity(alpha) / Self.standardNormalUpperTail(alpha)
        case .lognormal(let medianMs, let sigma):
            return medianMs * exp(sigma * sigma / 2)
        case .pareto(let scaleMs, let shape):
            guard shape > 1 else { return .infinity }
            return shape * scaleMs / (shape - 1)
        }
    }

    /// The analytic `p`-quantile, in milliseconds: the latency that a fraction
    /// `p` of draws stay at or below.
    ///
    /// - uniform: `min + p·(max − min)`.
    /// - normal (truncated at 0): `μ + σ·Φ⁻¹(Φ(α) + p·(1 − Φ(α)))`, `α = −μ/σ`.
    /// - lognormal: `median·e^(σ·Φ⁻¹(p))`.
    /// - pareto: `x_m·(1 − p)^(−1/α)`.
    ///
    /// `Φ⁻¹` is Wichura's AS 241 (see ``standardNormalQuantile(_:)``).
    /// `p = 1` gives `.infinity` for the unbounded cases.
    package func quantile(_ p: Double) -> Double {
        precondition((0...1).contains(p), "quantile probability \(p) is outside [0, 1]")
        switch self {
        case .constant(let ms):
            return ms
        case .uniform(let minMs, let maxMs):
            return minMs + p * (maxMs - minMs)
        case .normal(let meanMs, let stdDevMs):
            guard stdDevMs > 0 else { return meanMs }
            let below = Self.standardNormalCDF(-meanMs / stdDevMs)
            let z = Self.standardNormalQuantile(below + p * (1 - below))
            return max(0, meanMs + stdDevMs * z)
        case .lognormal(let medianMs, let sigma):
            guard sigma > 0 else { return medianMs }
            return medianMs * exp(sigma * Self.standardNormalQuantile(p))
        case .pareto(let scaleMs, let shape):
            return scaleMs * pow(1 - p, -1 / shape)
        }
    }

    /// The median, in milliseconds: `quantile(0.5)`.
    package var median: Double { quantile(0.5) }

    /// Checks that the parameters describe a distribution of non-negative,
    /// finite latencies, and says which parameter is wrong if not.
    package func validate() throws(NetworkConfigurationError) {
        func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(NetworkConfigurationError) {
            if !condition { throw NetworkConfigurationError(message()) }
        }
        switch self {
        case .constant(let ms):
            try require(ms.isFinite && ms >= 0, "constant latency \(ms) ms must be a finite number ≥ 0")
        case .uniform(let minMs, let maxMs):
            try require(
                minMs.isFinite && maxMs.isFinite && minMs >= 0 && minMs <= maxMs,
                "uniform latency needs 0 ≤ minMs ≤ maxMs, both finite; got \(minMs) and \(maxMs)"
            )
        case .normal(let meanMs, let stdDevMs):
            try require(
                meanMs.isFinite && meanMs >= 0,
                "normal latency mean \(meanMs) ms must be finite and ≥ 0 (the distribution is truncated at 0)"
            )
            try require(
                stdDevMs.isFinite && stdDevMs >= 0,
                "normal latency standard deviation \(stdDevMs) ms must be finite and ≥ 0")
        case .lognormal(let medianMs, let sigma):
            try require(
                medianMs.isFinite && medianMs > 0, "lognormal latency median \(medianMs) ms must be finite and > 0")
            try require(sigma.isFinite && sigma >= 0, "lognormal sigma \(sigma) must be finite and ≥ 0")
        case .pareto(let scaleMs, let shape):
            try require(scaleMs.isFinite && scaleMs > 0, "pareto scale \(scaleMs) ms must be finite and > 0")
            try require(shape.isFinite && shape > 0, "pareto shape \(shape) must be finite and > 0")
        }
    }
}

// MARK: - The standard normal distribution

extension LatencyDistribution {
    /// The standard normal density `φ(x) = e^(−x²/2) / √(2π)`.
    package static func standardNormalDensity(_ x: Double) -> Double {
        exp(-x * x / 2) / (2 * Double.pi).squareRoot()
    }

    /// The standard normal distribution function `Φ(x) = erfc(−x/√2) / 2`,
    /// written with `erfc` so it keeps full relative accuracy in the lower tail.
    package static func standardNormalCDF(_ x: Double) -> Double {
        erfc(-x / 2.0.squareRoot()) / 2
    }

    /// The upper tail `1 − Φ(x) = erfc(x/√2) / 2`, accurate where `Φ(x)` is near 1.
    package static func standardNormalUpperTail(_ x: Double) -> Double {
        erfc(x / 2.0.squareRoot()) / 2
    }

    /// The standard normal quantile `Φ⁻¹(p)` by Wichura's algorithm AS 241,
    /// PPND16 ("The percentage points of the normal distribution", Applied
    /// Statistics 37(3), 477–484, 1988): three rational approximations
    /// (central `|p − ½| ≤ 0.425`, then `r = √(−ln min(p, 1−p))` up to 5 and
    /// beyond), accurate to about 1 part in 10¹⁶. Returns `∓∞` at `p = 0, 1`.
    package static func standardNormalQuantile(_ p: Double) -> Double {
        if p <= 0 { return -.infinity }
        if p >= 1 { return .infinity }
        let q = p - 0.5
        if abs(q) <= 0.425 {
            let r = 0.180625 - q * q
            return q * polynomial(AS241.a, at: r) / polynomial(AS241.b, at: r)
        }
        var r = (-log(q < 0 ? p : 1 - p)).squareRoot()
        let value: Double
        if r <= 5 {
            r -= 1.6
            value = polynomial(AS241.c, at: r) / polynomial(AS241.d, at: r)
        } else {
            r -= 5
            value = polynomial(AS241.e, at: r) / polynomial(AS241.f, at: r)
        }
        return q < 0 ? -value : value
    }

    /// `c₀ + c₁x + … + cₙxⁿ` by Horner's rule, coefficients lowest power first.
    private static func polynomial(_ coefficients: [Double], at x: Double) -> Double {
        coefficients.reversed().reduce(0) { $0 * x + $1 }
    }

    /// The coefficients of AS 241 (PPND16), lowest power first, exactly as
    /// published by Wichura (1988).
    private enum AS241 {
        static let a: [Double] = [
            3.3871328727963666080e0, 1.3314166789178437745e+2, 1.9715909503065514427e+3,
            1.3731693765509461125e+4, 4.5921953931549871457e+4, 6.7265770927008700853e+4,
            3.3430575583588128105e+4, 2.5090809287301226727e+3,
        ]
        static let b: [Double] = [
            1.0, 4.2313330701600911252e+1, 6.8718700749205790830e+2,
            5.3941960214247511077e+3, 2.1213794301586595867e+4, 3.9307895800092710610e+4,
            2.8729085735721942674e+4, 5.2264952788528545610e+3,
        ]
        static let c: [Double] = [
            1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0,
            3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1,
            2.27238449892691845833e-2, 7.74545014278341407640e-4,
        ]
        static let d: [Double] = [
            1.0, 2.05319162663775882187e0, 1.67638483018380384940e0,
            6.89767334985100004550e-1, 1.48103976427480074590e-1, 1.51986665636164571966e-2,
            5.47593808499534494600e-4, 1.05075007164441684324e-9,
        ]
        static let e: [Double] = [
            6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0,
            2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
            2.71155556874348757815e-5, 2.01033439929228813265e-7,
        ]
        static let f: [Double] = [
            1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1,
            1.48753612908506148525e-2, 7.86869131145613259100e-4, 1.84631831751005468180e-5,
            1.42151175831644588870e-7, 2.04426310338993978564e-15,
        ]
    }
}

// MARK: - Configuration errors

/// A network setting that cannot be simulated, with a sentence saying which
/// value is wrong and what it must be.
package struct NetworkConfigurationError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in a sentence a person can act on.
    package let message: String

    /// An error carrying `message`.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}
