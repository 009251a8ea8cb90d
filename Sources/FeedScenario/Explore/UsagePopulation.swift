import Determinism
import FoundationEssentials
import Glibc

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

    /// A Dynamic Type size readers chose, relative to the default, and how
    /// many times the logs recorded it.
    package struct TextSizeChoice: Sendable, Equatable {
        package var scale: Double
        package var count: Int
        package init(scale: Double, count: Int) {
            self.scale = scale
            self.count = count
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
    package var likePerMinute: Double
    package var textSizePerMinute: Double
    /// The sizes recorded `text_size` events chose, each once, by scale:
    /// a change draws one of them, as often as the logs did. Dynamic Type
    /// has a few sizes, so a value between two recorded ones is one no
    /// reader could choose.
    package var textSizeChoices: [TextSizeChoice]
    /// The rates a model written before they were fitted does not give
    /// (`like`, `text_size`), read as 0, in file order; explore says so.
    package var missingRates: [String]
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
        (likePerMinute, textSizePerMinute, textSizeChoices, missingRates) = try Self.laterRates(model, file: file)
    }

    /// The like and text-size rates and the recorded scales; a rate a model
    /// written before they were fitted lacks is 0, and named.
    private static func laterRates(
        _ model: UsageFile, file: String
    ) throws(ScenarioError) -> (Double, Double, [TextSizeChoice], [String]) {
        func rate(_ name: String) throws(ScenarioError) -> Double {
            guard let rate = model.rates_per_min[name]?.value else { return 0 }
            guard rate.isFinite, rate >= 0 else {
                throw ScenarioError(
                    file: file, path: "$.rates_per_min", expected: "expected `\(name)` with a `value` ≥ 0")
            }
            return rate
        }
        let like = try rate("like"), textSize = try rate("text_size")
        let choices = try model.text_size_scale?.choices(file: file) ?? []
        guard textSize == 0 || !choices.isEmpty else {
            throw ScenarioError(
                file: file, path: "$.text_size_scale",
                expected: "expected the recorded scales (`values`) with a `text_size` rate above 0")
        }
        return (like, textSize, choices, laterRates.filter { model.rates_per_min[$0] == nil })
    }

    /// The rates `feedsim import sessions` fitted later than the first
    /// three: a model without them is still read, with these at 0.
    package static let laterRates = ["like", "text_size"]

    /// The scales a `text_size` step takes, as the scenario format and the
    /// session log do: 0.5 to 3.5 times the default size.
    package static let textSizeScales = 0.5...3.5

    /// A recorded text size, drawn from `random`'s next uniform with each
    /// choice's share of the recorded changes; 1 (the default) when none
    /// was recorded.
    package func drawTextSize(_ random: inout Xoshiro256StarStar) -> Double {
        let total = textSizeChoices.reduce(0) { $0 + $1.count }
        var left = random.nextUnit() * Double(total)
        for choice in textSizeChoices {
            left -= Double(choice.count)
            if left < 0 { return choice.scale }
        }
        return textSizeChoices.last?.scale ?? 1
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

    /// `text_size_scale`: each recorded scale and its count.
    struct Scales: Decodable {
        struct Choice: Decodable {
            var scale: Double
            var count: Int
        }

        var values: [Choice]

        func choices(file: String) throws(ScenarioError) -> [UsagePopulation.TextSizeChoice] {
            let scales = values.map(\.scale)
            guard values.allSatisfy({ UsagePopulation.textSizeScales.contains($0.scale) && $0.count >= 1 }),
                scales == scales.sorted(), Set(scales).count == scales.count
            else {
                throw ScenarioError(
                    file: file, path: "$.text_size_scale.values",
                    expected: "expected increasing scales in 0.5…3.5, each with a count ≥ 1")
            }
            return values.map { UsagePopulation.TextSizeChoice(scale: $0.scale, count: $0.count) }
        }
    }

    var format: String
    var version: Int
    var sessions: Int
    var distributions: [String: Fit]
    var proportions: [String: Value]
    var rates_per_min: [String: Value]
    var text_size_scale: Scales?
}
