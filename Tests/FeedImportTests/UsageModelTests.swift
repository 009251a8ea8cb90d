import Determinism
import FeedImport
import FeedScenario
import Foundation
import Testing

/// The usage model fitted to sessions drawn from known distributions.
@Suite("Usage model")
struct UsageModelTests {
    /// What the synthetic readers do: lognormal drag distances, durations
    /// and gaps, and a reversal chance.
    struct Truth {
        var distanceMedian = 400.0, distanceSigma = 0.6
        var durationMedianMs = 250.0, durationSigma = 0.4
        var gapMedianMs = 1800.0, gapSigma = 0.7
        var reversal = 0.2
        var refreshPerMinute = 0.5
    }

    /// A standard normal draw (Box–Muller).
    static func normal(_ random: inout Xoshiro256StarStar) -> Double {
        let u = max(random.nextUnit(), 1e-300), v = random.nextUnit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// `count` sessions of `gestures` drags each. A drag moves at constant
    /// speed with a sample every 16 ms, so its lift speed is distance over
    /// duration: lognormal with median 400/0.25 = 1,600 pt/s and σ
    /// √(0.6² + 0.4²).
    static func sessions(_ count: Int, gestures: Int, truth: Truth = Truth(), seed: UInt64 = 44) -> [RecordedSession] {
        var random = Xoshiro256StarStar(seed: seed)
        return (0..<count).map { index in
            var steps: [RecordedSession.Step] = []
            var now: Int64 = 0
            var direction = 1.0
            for _ in 0..<gestures {
                let distance = truth.distanceMedian * exp(truth.distanceSigma * normal(&random))
                let durationNs = Int64(truth.durationMedianMs * exp(truth.durationSigma * normal(&random)) * 1e6)
                if random.nextUnit() < truth.reversal { direction = -direction }
                var samples: [RecordedGesture.Sample] = []
                var t: Int64 = 0
                while t < durationNs {
                    let moved: Double = direction * distance * Double(t) / Double(durationNs)
                    samples.append(RecordedGesture.Sample(timeNs: now + t, yPt: 2000 - moved))
                    t += 16_000_000
                }
                let end: Double = 2000 - direction * distance
                samples.append(RecordedGesture.Sample(timeNs: now + durationNs, yPt: end))
                steps.append(.gesture(RecordedGesture(samples: samples)))
                now += durationNs + Int64(truth.gapMedianMs * exp(truth.gapSigma * normal(&random)) * 1e6)
            }
            // Refreshes as a Poisson process over the session.
            var at = 0.0
            while true {
                at += -log(max(random.nextUnit(), 1e-300)) / truth.refreshPerMinute * 60e9
                guard at < Double(now) else { break }
                steps.append(.app(atNs: Int64(at), .refresh))
            }
            return RecordedSession(id: "s\(index)", steps: steps, endNs: now, firstLine: 1)
        }
    }

    @Test(
        """
        distributions drawn from known lognormals come back within 8% in median and 0.06 in sigma, and pass their \
        KS test
        """
    )
    func knownDistributions() throws {
        let model = try UsageModel.fit(Self.sessions(60, gestures: 20), file: "log")
        let fits = Dictionary(uniqueKeysWithValues: model.distributions.map { ($0.name, $0.fit) })
        let expected: [(String, Double, Double)] = [
            ("drag_distance_pt", 400, 0.6), ("drag_duration_ms", 250, 0.4), ("gap_ms", 1800, 0.7),
            ("lift_speed_pt_s", 1600, (0.36 + 0.16).squareRoot()),
        ]
        for (name, median, sigma) in expected {
            let fit = try #require(fits[name], "\(name)")
            #expect(abs(fit.median / median - 1) < 0.08, "\(name): median \(fit.median), expected \(median)")
            #expect(abs(fit.sigma - sigma) < 0.06, "\(name): sigma \(fit.sigma), expected \(sigma)")
            #expect(fit.kind == .lognormal, "\(name): KS D \(fit.ksDistance) against \(fit.ksCritical)")
        }
        let reversal = try #require(model.proportions.first { $0.name == "direction_change" }?.fit)
        #expect(reversal.low <= 0.2 && 0.2 <= reversal.high, "\(reversal)")
        let refresh = try #require(model.rates.first { $0.name == "refresh" }?.fit)
        // Four standard errors of a Poisson count either side.
        let bound = 4 * 0.5 / Double(refresh.events).squareRoot()
        #expect(abs(refresh.perMinute - 0.5) < bound, "\(refresh)")
        #expect(refresh.ksDistance <= refresh.ksCritical, "\(refresh)")
    }

    /// `sessions` with likes and text-size changes added at `likePerMinute`
    /// and `textSizePerMinute` (Poisson, from a stream of their own), each
    /// change choosing 1.12 three times as often as 1.35.
    static func withLikesAndTextSizes(
        _ sessions: [RecordedSession], likePerMinute: Double, textSizePerMinute: Double
    ) -> [RecordedSession] {
        var random = Xoshiro256StarStar(seed: 4_401)
        return sessions.map { session in
            var session = session
            for (rate, isLike) in [(likePerMinute, true), (textSizePerMinute, false)] {
                var at = 0.0
                while true {
                    at += -log(max(random.nextUnit(), 1e-300)) / rate * 60e9
                    guard at < Double(session.endNs) else { break }
                    let scale = random.nextUnit() < 0.75 ? 1.12 : 1.35
                    session.steps.append(.app(atNs: Int64(at), isLike ? .like : .textSize(scale: scale)))
                }
            }
            return session
        }
    }

    @Test(
        "likes and text-size changes come back as rates within four standard errors, and the chosen scales as counted")
    func likesAndTextSizes() throws {
        let sessions = Self.withLikesAndTextSizes(
            Self.sessions(60, gestures: 20), likePerMinute: 1.5, textSizePerMinute: 0.6)
        let model = try UsageModel.fit(sessions, file: "log")
        for (name, truth) in [("like", 1.5), ("text_size", 0.6)] {
            let rate = try #require(model.rates.first { $0.name == name }?.fit, "\(name)")
            let bound = 4 * truth / Double(rate.events).squareRoot()
            #expect(abs(rate.perMinute - truth) < bound, "\(name): \(rate)")
            #expect(rate.ksDistance <= rate.ksCritical, "\(name): \(rate)")
        }
        var recorded: [Double: Int] = [:]
        for case let .app(_, .textSize(scale)) in sessions.flatMap(\.steps) { recorded[scale, default: 0] += 1 }
        #expect(model.textSizeChoices.map(\.scale) == [1.12, 1.35])
        #expect(model.textSizeChoices.map(\.count) == [recorded[1.12], recorded[1.35]])
        let rows = model.fitTable.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) }
        #expect(rows.suffix(3) == ["like_per_min", "text_size_per_min", "text_size_scale"], "\(model.fitTable)")
        #expect(model.fitTable.contains("text_size_scale      \(recorded.values.reduce(0, +))"))
    }

    @Test("a uniform sample is not lognormal: the KS test rejects it and the model keeps the empirical quantiles")
    func empiricalFallback() throws {
        let values = (1...400).map { Double($0) }
        let fit = try #require(UsageFit.fit(values))
        #expect(fit.kind == .empirical, "KS D \(fit.ksDistance) against \(fit.ksCritical)")
        #expect(fit.quantiles.first == 1 && fit.quantiles.last == 400 && fit.quantiles[10] == 200.5)
    }

    @Test("KS distance and the normal CDF agree with scipy on fixed data")
    func ksReference() {
        // scipy.stats.kstest([-1.2, -0.3, 0.1, 0.4, 2.0], 'norm').statistic
        let d = UsageFit.ksDistance(sorted: [-1.2, -0.3, 0.1, 0.4, 2.0]) { UsageFit.normalCDF($0) }
        #expect(abs(d - 0.18208857781104737) < 1e-9, "\(d)")
        #expect(abs(UsageFit.normalCDF(1.96) - 0.9750021048517795) < 1e-12)
        #expect(abs(UsageRate.poissonCDF(2, mean: 1.5) - 0.8088468305380582) < 1e-12)
    }

    @Test("logs too few to fit are refused, naming each part that is short")
    func tooFew() {
        do {
            let model = try UsageModel.fit(Self.sessions(5, gestures: 3), file: "few.jsonl")
            Issue.record("fitted \(model.sessions) sessions")
        } catch {
            #expect(error.file == "few.jsonl")
            #expect(error.description.contains("expected at least 30 values"), "\(error)")
            #expect(error.description.contains("session_length_s (5)"), "\(error)")
            #expect(error.description.contains("gap_ms (10)"), "\(error)")
        }
    }

    @Test("the model's file is the same text for the same sessions")
    func stableText() throws {
        let a = try UsageModel.fit(Self.sessions(40, gestures: 5), file: "log").fileText
        let b = try UsageModel.fit(Self.sessions(40, gestures: 5), file: "log").fileText
        #expect(a == b && a.hasPrefix("{\n  \"format\": \"feedsim-usage\""))
    }
}

/// The usage model's file read back as explore reads it.
@Suite("Usage model file")
struct UsageModelFileTests {
    @Test("usage.json reads back as explore's population with the fitted parameters")
    func roundTrip() throws {
        let model = try UsageModel.fit(UsageModelTests.sessions(60, gestures: 20), file: "log")
        let population = try UsagePopulation(data: Data(model.fileText.utf8), file: "usage.json")
        let distance = try #require(model.distributions.first { $0.name == "drag_distance_pt" }?.fit)
        #expect(population.dragDistancePt == .lognormal(median: distance.median, sigma: distance.sigma))
        #expect(population.sessions == 60)
        #expect(population.directionChange == model.proportions.first { $0.name == "direction_change" }?.fit.value)
        #expect(population.refreshPerMinute == model.rates.first { $0.name == "refresh" }?.fit.perMinute)
        #expect(population.backgroundS == nil)
        #expect(population.likePerMinute == 0 && population.textSizePerMinute == 0)
        #expect(population.textSizeChoices.isEmpty && population.missingRates.isEmpty)
    }

    @Test("likes, text-size changes and the recorded scales read back as explore draws them")
    func likesRoundTrip() throws {
        let sessions = UsageModelTests.withLikesAndTextSizes(
            UsageModelTests.sessions(40, gestures: 10), likePerMinute: 1, textSizePerMinute: 0.5)
        let model = try UsageModel.fit(sessions, file: "log")
        #expect(model.fileText.contains("\"text_size_scale\": {"))
        let population = try UsagePopulation(data: Data(model.fileText.utf8), file: "usage.json")
        #expect(population.likePerMinute == model.rates.first { $0.name == "like" }?.fit.perMinute)
        #expect(population.textSizePerMinute == model.rates.first { $0.name == "text_size" }?.fit.perMinute)
        #expect(population.textSizeChoices == model.textSizeChoices)
        #expect(population.missingRates.isEmpty)
    }

    @Test("a model written before likes and text sizes were fitted reads with both at 0, and says they are missing")
    func olderModel() throws {
        let model = try UsageModel.fit(UsageModelTests.sessions(40, gestures: 10), file: "log")
        var text = model.fileText
        for name in UsagePopulation.laterRates {
            let start = try #require(text.range(of: ",\n    \"\(name)\": {"))
            let end = try #require(text[start.upperBound...].range(of: "}"))
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        #expect(!text.contains("\"like\"") && !text.contains("text_size"), "\(text)")
        let population = try UsagePopulation(data: Data(text.utf8), file: "usage.json")
        #expect(population.missingRates == ["like", "text_size"])
        #expect(population.likePerMinute == 0 && population.textSizePerMinute == 0)
        #expect(population.refreshPerMinute == model.rates.first { $0.name == "refresh" }?.fit.perMinute)
    }

    @Test("a text-size rate without the recorded scales, or with a scale out of range, is refused with its path")
    func scalesRefused() throws {
        let sessions = UsageModelTests.withLikesAndTextSizes(
            UsageModelTests.sessions(40, gestures: 10), likePerMinute: 1, textSizePerMinute: 0.5)
        let text = try UsageModel.fit(sessions, file: "log").fileText
        let cut = try #require(text.range(of: ",\n  \"text_size_scale\""))
        let without = String(text[..<cut.lowerBound]) + "\n}\n"
        let outOfRange = text.replacingOccurrences(of: "\"scale\": 1.35", with: "\"scale\": 4")
        for (bad, path) in [(without, "$.text_size_scale"), (outOfRange, "$.text_size_scale.values")] {
            do {
                _ = try UsagePopulation(data: Data(bad.utf8), file: "usage.json")
                Issue.record("read \(path)")
            } catch {
                #expect(error.description.contains(path), "\(error)")
            }
        }
    }
}
