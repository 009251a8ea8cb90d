import Determinism
import Foundation

/// The readers `feedsim explore` draws sessions like when its configuration
/// names a usage model (`"usage": "usage.json"`, written by `feedsim import
/// sessions`): what each session's reader does, drawn from the model's fits.
package struct UsagePopulation: Sendable, Equatable {
    /// One fitted quantity: the lognormal the import's test kept, or the
    /// empirical quantile table where it rejected the lognormal.
    package enum Distribution: Sendable, Equatable {
        case lognormal(median: Double, sigma: Double)
        /// Values at 0, 1/(n−1), …, 1, linear between them.
        case empirical(quantiles: [Double])

        /// A draw, from `random`'s next two uniforms.
        package func draw(_ random: inout Xoshiro256StarStar) -> Double {
            let u = random.nextUnit(), v = random.nextUnit()
            switch self {
            case let .lognormal(median, sigma):
                return median * exp(sigma * Gaussian.boxMuller(1 - u, v))
            case let .empirical(quantiles):
                return Quantiles.quantile(quantiles, u)
            }
        }
    }

    /// The file it was read from, as the configuration names it.
    package var file: String
    /// Sessions the model was fitted to.
    package var sessions: Int
    package var gapMs: Distribution
    package var dragDistancePt: Distribution
    package var dragDurationMs: Distribution
    package var liftSpeedPtS: Distribution
    package var sessionLengthS: Distribution
    /// The chance a drag is released fast enough to fling.
    package var fling: Double
    /// The chance a drag goes the other way from the one before.
    package var directionChange: Double
    package var refreshPerMinute: Double
    package var backgroundPerMinute: Double
    package var rotatePerMinute: Double
    /// Time away of each background, when the logs had any.
    package var backgroundS: Distribution?

    /// The model in `data`, `usage.json`'s bytes; `file` names it in errors.
    package init(data: Data, file: String) throws(ScenarioError) {
        let model: UsageFile
        do {
            model = try JSONDecoder().decode(UsageFile.self, from: data)
        } catch {
            throw ScenarioError(file: file, decodingError: error)
        }
        guard model.format == "feedsim-usage", model.version == 1 else {
            throw ScenarioError(
                file: file, path: "$.format",
                expected: "expected a usage model (`feedsim-usage`, version 1) from `feedsim import sessions`")
        }
        func distribution(_ name: String) throws(ScenarioError) -> Distribution {
            guard let d = model.distributions[name] else {
                throw ScenarioError(file: file, path: "$.distributions", expected: "expected `\(name)`")
            }
            return try d.distribution(file: file, path: "$.distributions.\(name)")
        }
        func value(_ table: [String: UsageFile.Value], _ name: String, _ path: String) throws(ScenarioError) -> Double {
            guard let v = table[name]?.value, v.isFinite, v >= 0 else {
                throw ScenarioError(file: file, path: path, expected: "expected `\(name)` with a `value` ≥ 0")
            }
            return v
        }
        self.file = file
        sessions = model.sessions
        gapMs = try distribution("gap_ms")
        dragDistancePt = try distribution("drag_distance_pt")
        dragDurationMs = try distribution("drag_duration_ms")
        liftSpeedPtS = try distribution("lift_speed_pt_s")
        sessionLengthS = try distribution("session_length_s")
        fling = min(1, try value(model.proportions, "fling", "$.proportions"))
        directionChange = min(1, try value(model.proportions, "direction_change", "$.proportions"))
        refreshPerMinute = try value(model.rates_per_min, "refresh", "$.rates_per_min")
        backgroundPerMinute = try value(model.rates_per_min, "background", "$.rates_per_min")
        rotatePerMinute = try value(model.rates_per_min, "rotate", "$.rates_per_min")
        backgroundS = try model.distributions["background_s"]?.distribution(
            file: file, path: "$.distributions.background_s")
    }
}

/// `usage.json` as `feedsim import sessions` writes it (the parts explore reads).
private struct UsageFile: Decodable {
    struct Fit: Decodable {
        struct Lognormal: Decodable {
            var median: Double
            var sigma: Double
        }

        var fit: String
        var lognormal: Lognormal?
        var quantiles: [Double]

        func distribution(file: String, path: String) throws(ScenarioError) -> UsagePopulation.Distribution {
            guard quantiles.count >= 2, quantiles.allSatisfy({ $0.isFinite && $0 >= 0 }),
                quantiles == quantiles.sorted()
            else {
                throw ScenarioError(
                    file: file, path: path + ".quantiles", expected: "expected at least two increasing values ≥ 0")
            }
            switch fit {
            case "lognormal":
                guard let l = lognormal, l.median > 0, l.median.isFinite, l.sigma >= 0, l.sigma.isFinite else {
                    throw ScenarioError(
                        file: file, path: path + ".lognormal", expected: "expected a median > 0 and a sigma ≥ 0")
                }
                return .lognormal(median: l.median, sigma: l.sigma)
            case "empirical": return .empirical(quantiles: quantiles)
            default:
                throw ScenarioError(
                    file: file, path: path + ".fit", expected: "expected `lognormal` or `empirical`, found `\(fit)`")
            }
        }
    }

    struct Value: Decodable {
        var value: Double
    }

    var format: String
    var version: Int
    var sessions: Int
    var distributions: [String: Fit]
    var proportions: [String: Value]
    var rates_per_min: [String: Value]
}
