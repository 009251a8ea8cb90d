import Determinism
import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

@Suite("Latency distributions")
struct LatencyDistributionTests {
    /// One distribution to hold against its analytic moments.
    struct Case: Sendable, CustomTestStringConvertible {
        var distribution: LatencyDistribution
        var seed: UInt64
        var testDescription: String { "\(distribution) seed \(seed)" }
    }

    static let sampleCount = 200_000

    static let cases: [Case] = [
        Case(distribution: .uniform(minMs: 50, maxMs: 150), seed: 11),
        Case(distribution: .normal(meanMs: 100, stdDevMs: 20), seed: 12),
        // Truncation matters here: a quarter of the parent's mass is below 0.
        Case(distribution: .normal(meanMs: 20, stdDevMs: 30), seed: 13),
        Case(distribution: .lognormal(medianMs: 100, sigma: 0.5), seed: 14),
        Case(distribution: .lognormal(medianMs: 200, sigma: 1), seed: 15),
        // Shape ≥ 3 so the sample mean converges (the variance is finite).
        Case(distribution: .pareto(scaleMs: 100, shape: 3), seed: 16),
        Case(distribution: .pareto(scaleMs: 50, shape: 4), seed: 17),
    ]

    static func samples(_ distribution: LatencyDistribution, seed: UInt64, count: Int) -> [Double] {
        var generator = Xoshiro256StarStar(seed: seed)
        return (0..<count).map { _ in distribution.sample(using: &generator) }
    }

    static func relativeError(_ measured: Double, _ expected: Double) -> Double {
        abs(measured - expected) / abs(expected)
    }

    @Test("200,000 samples: mean within 2% and p50, p90, p99 within 3% of the analytic values", arguments: cases)
    func momentsMatchAnalyticValues(_ testCase: Case) throws {
        let distribution = testCase.distribution
        try distribution.validate()
        var samples = Self.samples(distribution, seed: testCase.seed, count: Self.sampleCount)
        let mean = samples.reduce(0, +) / Double(samples.count)
        #expect(Self.relativeError(mean, distribution.mean) < 0.02, "mean \(mean) vs \(distribution.mean)")
        samples.sort()
        for p in [0.5, 0.9, 0.99] {
            let measured = samples[min(samples.count - 1, Int(p * Double(samples.count)))]
            let expected = distribution.quantile(p)
            #expect(Self.relativeError(measured, expected) < 0.03, "p\(Int(p * 100)) \(measured) vs \(expected)")
        }
        #expect(samples.first! >= 0, "no negative latency")
    }

    @Test("a constant is exact and draws nothing")
    func constantIsExact() {
        let distribution = LatencyDistribution.constant(ms: 42.5)
        var generator = Xoshiro256StarStar(seed: 3)
        var untouched = generator
        for _ in 0..<1_000 { #expect(distribution.sample(using: &generator) == 42.5) }
        #expect(generator.next() == untouched.next())
        #expect(distribution.mean == 42.5)
        for p in [0, 0.5, 0.99, 1] { #expect(distribution.quantile(p) == 42.5) }
    }

    @Test("uniform samples stay in [min, max) and reach both ends")
    func uniformBounds() {
        let samples = Self.samples(.uniform(minMs: 20, maxMs: 30), seed: 4, count: 100_000)
        #expect(samples.allSatisfy { $0 >= 20 && $0 < 30 })
        #expect(samples.min()! < 20.01)
        #expect(samples.max()! > 29.99)
        #expect(LatencyDistribution.uniform(minMs: 20, maxMs: 30).quantile(0) == 20)
        #expect(LatencyDistribution.uniform(minMs: 20, maxMs: 30).quantile(1) == 30)
    }

    @Test("the truncated normal never goes below 0, and its analytic p0 is 0")
    func normalTruncatedAtZero() {
        let distribution = LatencyDistribution.normal(meanMs: 0, stdDevMs: 50)
        let samples = Self.samples(distribution, seed: 5, count: 50_000)
        #expect(samples.allSatisfy { $0 >= 0 })
        #expect(abs(distribution.quantile(0)) < 1e-9)
        // Half-normal: mean σ·√(2/π).
        #expect(abs(distribution.mean - 50 * (2 / Double.pi).squareRoot()) < 1e-9)
        var generator = Xoshiro256StarStar(seed: 0)
        #expect(LatencyDistribution.normal(meanMs: 80, stdDevMs: 0).sample(using: &generator) == 80)
    }

    @Test("the same seed gives the same samples; another seed gives others", arguments: cases)
    func deterministic(_ testCase: Case) {
        let first = Self.samples(testCase.distribution, seed: 99, count: 1_000)
        let second = Self.samples(testCase.distribution, seed: 99, count: 1_000)
        let other = Self.samples(testCase.distribution, seed: 100, count: 1_000)
        #expect(first == second)
        #expect(first != other)
    }

    @Test("AS 241 gives the known percentage points")
    func normalQuantileKnownValues() {
        #expect(LatencyDistribution.standardNormalQuantile(0.5) == 0)
        #expect(abs(LatencyDistribution.standardNormalQuantile(0.975) - 1.959963984540054) < 1e-14)
        #expect(abs(LatencyDistribution.standardNormalQuantile(0.99) - 2.326347874040841) < 1e-14)
        #expect(abs(LatencyDistribution.standardNormalQuantile(0.1) + 1.2815515655446004) < 1e-14)
        #expect(LatencyDistribution.standardNormalQuantile(0) == -.infinity)
        #expect(LatencyDistribution.standardNormalQuantile(1) == .infinity)
    }

    @Test(
        "AS 241 inverts Φ to 1e-12 relative in all three regions, far tails included",
        arguments: [1e-300, 1e-20, 1e-12, 1e-6, 0.01, 0.07, 0.1, 0.3, 0.5, 0.7, 0.9, 0.93, 0.99])
    func normalQuantileInvertsCDF(_ p: Double) {
        let x = LatencyDistribution.standardNormalQuantile(p)
        let back = LatencyDistribution.standardNormalCDF(x)
        #expect(abs(back - p) <= 1e-12 * p, "p \(p): Φ(\(x)) = \(back)")
        if p >= 0.01 && p < 0.5 {
            #expect(abs(LatencyDistribution.standardNormalQuantile(1 - p) + x) < 1e-9 * max(1, abs(x)))
        }
    }

    @Test("closed forms on hand-computed cases")
    func closedForms() {
        // Lognormal: mean = median·e^(σ²/2); p99 = median·e^(σ·2.326…).
        let lognormal = LatencyDistribution.lognormal(medianMs: 100, sigma: 0.5)
        #expect(abs(lognormal.mean - 100 * exp(0.125)) < 1e-9)
        #expect(abs(lognormal.median - 100) < 1e-9)
        #expect(abs(lognormal.quantile(0.99) - 100 * exp(0.5 * 2.326347874040841)) < 1e-9)
        // Pareto x_m = 100, α = 3: mean 150, median 100·2^(1/3), p99 100·100^(1/3).
        let pareto = LatencyDistribution.pareto(scaleMs: 100, shape: 3)
        #expect(abs(pareto.mean - 150) < 1e-12)
        #expect(abs(pareto.median - 100 * pow(2, 1.0 / 3)) < 1e-9)
        #expect(abs(pareto.quantile(0.99) - 100 * pow(100, 1.0 / 3)) < 1e-9)
        #expect(LatencyDistribution.pareto(scaleMs: 100, shape: 1).mean == .infinity)
        #expect(LatencyDistribution.pareto(scaleMs: 100, shape: 0.5).mean == .infinity)
        #expect(pareto.quantile(1) == .infinity)
        // A normal far from 0 is its untruncated self.
        let normal = LatencyDistribution.normal(meanMs: 500, stdDevMs: 10)
        #expect(abs(normal.mean - 500) < 1e-9)
        #expect(abs(normal.quantile(0.975) - (500 + 10 * 1.959963984540054)) < 1e-9)
    }

    @Test(
        "validation names the wrong parameter",
        arguments: [
            LatencyDistribution.constant(ms: -1),
            .constant(ms: .nan),
            .uniform(minMs: 10, maxMs: 5),
            .uniform(minMs: -1, maxMs: 5),
            .normal(meanMs: -5, stdDevMs: 10),
            .normal(meanMs: 5, stdDevMs: -1),
            .lognormal(medianMs: 0, sigma: 0.5),
            .lognormal(medianMs: 100, sigma: .infinity),
            .pareto(scaleMs: 0, shape: 3),
            .pareto(scaleMs: 100, shape: 0),
        ])
    func rejectsBadParameters(_ distribution: LatencyDistribution) {
        #expect(throws: NetworkConfigurationError.self) { try distribution.validate() }
    }

    @Test("good parameters pass validation")
    func acceptsGoodParameters() throws {
        for testCase in Self.cases { try testCase.distribution.validate() }
        try LatencyDistribution.constant(ms: 0).validate()
        try LatencyDistribution.normal(meanMs: 0, stdDevMs: 0).validate()
        try LatencyDistribution.lognormal(medianMs: 1, sigma: 0).validate()
    }
}
