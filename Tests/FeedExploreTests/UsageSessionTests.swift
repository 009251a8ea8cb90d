import FeedEngine
import FeedExplore
import FeedScenario
import FeedSimTestSupport
import Foundation
import Testing

/// Explore sessions drawn from a usage model instead of the swarm.
@Suite("Usage sessions")
struct UsageSessionTests {
    /// A usage model as `feedsim import sessions` writes it, small enough to read.
    static let usageJSON = """
        {
          "format": "feedsim-usage", "version": 1, "sessions": 40,
          "distributions": {
            "gap_ms": {"unit": "ms", "n": 500, "fit": "lognormal", "lognormal": {"median": 1500, "sigma": 0.8}, \
        "quantiles": [10, 20000]},
            "drag_distance_pt": {"unit": "pt", "n": 500, "fit": "lognormal", "lognormal": {"median": 350, "sigma": \
        0.6}, "quantiles": [1, 3000]},
            "drag_duration_ms": {"unit": "ms", "n": 500, "fit": "lognormal", "lognormal": {"median": 220, "sigma": \
        0.45}, "quantiles": [20, 900]},
            "lift_speed_pt_s": {"unit": "pt/s", "n": 500, "fit": "empirical", "lognormal": {"median": 1600, "sigma": \
        0.7}, "quantiles": [50, 800, 1600, 9000]},
            "depth_pt": {"unit": "pt", "n": 40, "fit": "empirical", "lognormal": {"median": 8000, "sigma": 0.6}, \
        "quantiles": [100, 40000]},
            "session_length_s": {"unit": "s", "n": 40, "fit": "lognormal", "lognormal": {"median": 40, "sigma": 0.5}, \
        "quantiles": [5, 200]},
            "background_s": {"unit": "s", "n": 3, "fit": "empirical", "quantiles": [5, 20, 60]}
          },
          "proportions": {"fling": {"value": 0.9, "trials": 500, "wilson_95": [0.87, 0.92]},
                          "direction_change": {"value": 0.2, "trials": 460, "wilson_95": [0.17, 0.24]}},
          "rates_per_min": {"refresh": {"value": 2}, "background": {"value": 1}, "rotate": {"value": 1}}
        }
        """

    static func config() throws -> ExploreConfig {
        var config = ExploreConfig.defaults
        config.usage = "usage.json"
        config.usagePopulation = try UsagePopulation(data: Data(usageJSON.utf8), file: "usage.json")
        config.durationS = 60
        return config
    }

    @Test("usage sessions are valid scenarios, the same for the same seed and index, made of the model's actions only")
    func drawn() throws {
        let device = try ExploreFixtures.device()
        let generator = SessionGenerator(config: try Self.config(), device: device, seed: 3)
        var kinds = Set<ScriptAction.Kind>()
        var drags = 0, reversals = 0, lastSign = 0.0
        for index in 0..<60 {
            let session = generator.session(index)
            #expect(generator.session(index) == session)
            #expect(session.durationNs >= 1_000_000_000 && session.durationNs <= 60_000_000_000)
            let loaded = try ScenarioLoader.load(
                data: Data(session.fileText.utf8), file: "\(session.name).json",
                deviceDirectories: [ExploreFixtures.devicesFolder])
            #expect(loaded.scenario == session)
            lastSign = 0
            for step in session.script {
                kinds.insert(step.action.kind)
                guard case let .drag(trajectory, _, _) = step.action else { continue }
                let sign: Double = trajectory[1].displacementPt > 0 ? 1 : -1
                if lastSign != 0 {
                    drags += 1
                    if sign != lastSign { reversals += 1 }
                }
                lastSign = sign
            }
        }
        #expect(kinds == [.drag, .fling, .refresh, .background, .rotate])
        // The model's 0.2 chance of a reversal, within four standard errors.
        let share = Double(reversals) / Double(drags)
        #expect(abs(share - 0.2) < 4 * (0.2 * 0.8 / Double(drags)).squareRoot(), "\(reversals) of \(drags)")
    }

    @Test("a model with like and text-size rates draws both, each text size one of the recorded scales, as often")
    func likesAndTextSizes() throws {
        let withRates = Self.usageJSON.replacingOccurrences(
            of: "\"rotate\": {\"value\": 1}}",
            with: """
                "rotate": {"value": 1}, "like": {"value": 3}, "text_size": {"value": 2}},
                  "text_size_scale": {"n": 4, "fit": "recorded", "values": [{"scale": 0.88, "count": 1}, \
                {"scale": 1.24, "count": 3}]}
                """)
        var config = try Self.config()
        config.usagePopulation = try UsagePopulation(data: Data(withRates.utf8), file: "usage.json")
        let withoutEvents = SessionGenerator(config: try Self.config(), device: try ExploreFixtures.device(), seed: 3)
        let generator = SessionGenerator(config: config, device: try ExploreFixtures.device(), seed: 3)
        var likes = 0, minutes = 0.0
        var scales: [Double: Int] = [:]
        for index in 0..<60 {
            let session = generator.session(index)
            minutes += Double(session.durationNs) / 6e10
            for step in session.script {
                if case .like = step.action { likes += 1 }
                if case let .textSize(scale) = step.action { scales[scale, default: 0] += 1 }
            }
            // The other draws come first, so they are what a model without the two rates draws.
            let others = session.script.filter { ![.like, .text_size].contains($0.action.kind) }
            #expect(others == withoutEvents.session(index).script, "session \(index)")
        }
        // Poisson counts within four standard errors of rate × minutes (the last 0.5 s draws nothing).
        #expect(abs(Double(likes) - 3 * minutes) < 4 * (3 * minutes).squareRoot(), "\(likes) in \(minutes) min")
        let changes = scales.values.reduce(0, +)
        #expect(abs(Double(changes) - 2 * minutes) < 4 * (2 * minutes).squareRoot(), "\(changes) in \(minutes) min")
        #expect(Set(scales.keys) == [0.88, 1.24])
        let share = Double(scales[1.24] ?? 0) / Double(changes)
        #expect(abs(share - 0.75) < 4 * (0.75 * 0.25 / Double(changes)).squareRoot(), "\(scales)")
    }

    @Test("a model without like and text-size rates (written before they were fitted) draws neither and says so")
    func olderModel() throws {
        let population = try #require(try Self.config().usagePopulation)
        #expect(population.missingRates == ["like", "text_size"])
        #expect(population.likePerMinute == 0 && population.textSizePerMinute == 0)
    }

    @Test("a usage model that is not one is refused with its JSON path")
    func malformed() {
        let bad = Self.usageJSON.replacingOccurrences(
            of: "\"fit\": \"lognormal\", \"lognormal\": {\"median\": 1500",
            with: "\"fit\": \"gamma\", \"lognormal\": {\"median\": 1500")
        #expect(throws: ScenarioError.self) { try UsagePopulation(data: Data(bad.utf8), file: "usage.json") }
        do {
            _ = try UsagePopulation(data: Data(bad.utf8), file: "usage.json")
        } catch {
            #expect(error.description.contains("$.distributions.gap_ms.fit"), "\(error)")
        }
        #expect(throws: ScenarioError.self) {
            try UsagePopulation(data: Data("{\"format\": \"x\"}".utf8), file: "usage.json")
        }
    }
}
