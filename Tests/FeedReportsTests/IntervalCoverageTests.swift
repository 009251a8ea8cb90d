import CSVCodec
import Determinism
import Foundation
import Testing

@testable import FeedReports

/// A shape of paired differences with a known mean, drawn from a seeded
/// stream.
private struct Shape: Sendable, CustomStringConvertible {
    var description: String
    var trueMean: Double
    var draw: @Sendable (inout Xoshiro256StarStar) -> Double

    /// A standard normal draw (Box and Muller, 1958).
    static func normal(_ generator: inout Xoshiro256StarStar) -> Double {
        let u = 1 - generator.nextUnit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * generator.nextUnit())
    }

    /// The shapes drift and hitch differences take: skewed, and zero
    /// except in the few sessions a rare change reaches.
    static let all: [Shape] = [
        Shape(description: "lognormal σ 1", trueMean: exp(0.5)) { exp(normal(&$0)) },
        Shape(description: "zero-inflated exponential (30%, mean 4)", trueMean: 0.3 * 4) { generator in
            generator.nextUnit() < 0.3 ? -4 * log(1 - generator.nextUnit()) : 0
        },
        // The shape of the report: 15% of pairs differ by a Pareto draw
        // (scale 100 pt, shape 2.5), mean 0.15 · 100 · 2.5/1.5 = 25 pt.
        Shape(description: "zero-inflated Pareto (15%, 100 pt, 2.5)", trueMean: 0.15 * 100 * 2.5 / 1.5) { generator in
            generator.nextUnit() < 0.15 ? 100 / pow(1 - generator.nextUnit(), 1 / 2.5) : 0
        },
    ]
}

@Suite("Interval coverage: how often the 95% interval holds a known mean")
struct IntervalCoverageTests {
    static let sizes = [10, 20, 40, 100, 200]
    static let trials = 1_000
    static let bootstrap = PairedBootstrap(resamples: 499, seed: 5)

    /// How often each interval held the true mean over a shape's trials.
    struct Coverage {
        /// The percentile interval's share.
        var percentile: Double
        /// BCa's share.
        var bca: Double
        /// The share of the interval `summaries` gives (studentized, or BCa
        /// where that is not defined).
        var chosen: Double
        /// How many trials' samples got BCa because the studentized
        /// interval is not defined for them.
        var fellBack: Int
    }

    /// The coverage of `trials` seeded samples of `count` pairs.
    private static func coverage(_ shape: Shape, count: Int, seed: UInt64) -> Coverage {
        var generator = Xoshiro256StarStar(seed: seed)
        var percentile = 0, bca = 0, chosen = 0, fellBack = 0
        for trial in 0..<trials {
            let sample = (0..<count).map { _ in shape.draw(&generator) }
            var bootstrap = bootstrap
            bootstrap.seed = UInt64(trial) + 1
            let means = bootstrap.resampled(sample)
            let tail = (1 - bootstrap.confidence) / 2
            let plain = ConfidenceInterval(
                lower: PairedBootstrap.quantile(means.sorted, tail),
                upper: PairedBootstrap.quantile(means.sorted, 1 - tail))
            if plain.contains(shape.trueMean) { percentile += 1 }
            if means.interval(confidence: bootstrap.confidence).contains(shape.trueMean) { bca += 1 }
            let summary = bootstrap.summaries(ofColumns: [sample], thresholds: [0])[0]
            if summary.interval.contains(shape.trueMean) { chosen += 1 }
            if summary.method == .bca { fellBack += 1 }
        }
        let share = { (count: Int) in Double(count) / Double(trials) }
        return Coverage(percentile: share(percentile), bca: share(bca), chosen: share(chosen), fellBack: fellBack)
    }

    /// A share as the table prints it.
    private static func percent(_ share: Double) -> String { ReportNumber.fixed(share * 100, 1) + "%" }

    @Test("The studentized interval holds its level better than BCa and the percentile; the table is docs/explore.md's")
    func coverageTable() {
        var lines = ["shape | pairs | percentile | BCa | studentized (BCa where undefined) | samples given BCa"]
        var table: [[Coverage]] = []
        for (s, shape) in Shape.all.enumerated() {
            table.append(
                IntervalCoverageTests.sizes.map { size in
                    let found = IntervalCoverageTests.coverage(shape, count: size, seed: UInt64(1000 * s + size))
                    let shares = [found.percentile, found.bca, found.chosen].map(IntervalCoverageTests.percent)
                    lines.append(
                        "\(shape.description) | \(size) | " + shares.joined(separator: " | ") + " | \(found.fellBack)")
                    return found
                })
        }
        print(lines.joined(separator: "\n"))
        for (s, shape) in Shape.all.enumerated() {
            for (i, size) in IntervalCoverageTests.sizes.enumerated() {
                let found = table[s][i]
                // With 1,000 trials the standard error of a coverage near 95% is 0.7 points.
                #expect(
                    found.bca >= found.percentile - 0.02,
                    "\(shape), \(size) pairs: BCa \(found.bca), percentile \(found.percentile)")
                #expect(
                    found.chosen >= found.bca - 0.01,
                    "\(shape), \(size) pairs: chosen \(found.chosen), BCa \(found.bca)")
                if size >= 40 {
                    #expect(found.chosen >= (size >= 100 ? 0.92 : 0.895), "\(shape) at \(size) pairs: \(found.chosen)")
                }
            }
        }
        // What docs/explore.md states, with two standard errors of room.
        let pareto = table[2]
        #expect(pareto[1].percentile < 0.89, "the report's shape: the percentile interval falls short at 20 pairs")
        #expect(pareto[1].chosen >= 0.9, "the report's shape at 20 pairs: \(pareto[1].chosen)")
        #expect(table[0][1].chosen >= table[0][1].bca + 0.03, "lognormal at 20 pairs: studentized well above BCa")
        #expect(table[1][1].chosen >= 0.91, "zero-inflated exponential at 20 pairs")
    }

    @Test(
        """
        Above the resampled sizes the pairs are resampled in batches: where both run, the intervals and decisions \
        agree
        """
    )
    func batchedAgreesWithFull() {
        let size = 20_000
        let bootstrap = PairedBootstrap(resamples: 2_000, seed: 3)
        for (s, shape) in Shape.all.enumerated() {
            var generator = Xoshiro256StarStar(seed: UInt64(77 + s))
            let sample = (0..<size).map { _ in shape.draw(&generator) }
            let threshold = shape.trueMean * 0.9
            let full = bootstrap.resampled(sample).summary(confidence: bootstrap.confidence, threshold: threshold)
            let batched = bootstrap.summaries(ofColumns: [sample], thresholds: [threshold])[0]
            #expect(full.method == .bca && batched.method == .batchedBCa)
            let width = full.interval.upper - full.interval.lower
            print(
                """
                \(shape) at \(size): full \(full.interval), batched \(batched.interval), p \(full.mattersPValue) \
                \(batched.mattersPValue)
                """
            )
            // Two bootstraps of the same mean with their own draws: a few percent of the width apart.
            #expect(
                abs(batched.interval.lower - full.interval.lower) <= 0.05 * width,
                "\(shape): \(batched.interval) vs \(full.interval)")
            #expect(
                abs(batched.interval.upper - full.interval.upper) <= 0.05 * width,
                "\(shape): \(batched.interval) vs \(full.interval)")
            #expect(
                (batched.pValue <= 0.05) == (full.pValue <= 0.05), "\(shape): p \(batched.pValue) vs \(full.pValue)")
            #expect(
                (batched.mattersPValue <= 0.05) == (full.mattersPValue <= 0.05),
                "\(shape): \(batched.mattersPValue) vs \(full.mattersPValue)")
            #expect((batched.equivalencePValue <= 0.05) == (full.equivalencePValue <= 0.05))
        }
        let large = (0..<(PairedBootstrap.largestResampledSample + 1)).map { Double($0 % 7) }
        #expect(
            PairedBootstrap().summaries(ofMeans: large.map { [$0] }, columns: 1, thresholds: [1])?.first?.method
                == .batchedBCa)
        #expect(
            PairedBootstrap().summaries(ofMeans: large.dropLast().map { [$0] }, columns: 1, thresholds: [1])?.first?
                .method == .studentized)
    }
}
