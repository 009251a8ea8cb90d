import FoundationEssentials
import SystemSupport

/// Which way a metric gets better.
package enum MetricDirection: String, Hashable, Sendable {
    /// Less is better: an increase beyond tolerance is a regression.
    case lowerIsBetter = "lower is better"
    /// More is better: a decrease beyond tolerance is a regression.
    case higherIsBetter = "higher is better"
    /// Neither way is better (how much was simulated, how much was asked
    /// of the network, which events happened): a change beyond tolerance is
    /// listed, and fails only when its tolerance is `strict`.
    case neutral = "neutral"
}

/// The metrics of `summary.csv` that the baseline check compares, and the
/// direction of each.
package enum SummaryMetrics {
    /// Every metric column, in `summary.csv` order.
    package static let compared: [String] = Metric.all.map(\.name)

    /// The direction of `metric`; explore's `violations` is lower-is-better,
    /// any other column no `Metric` names is neutral.
    package static func direction(of metric: String) -> MetricDirection {
        if metric == PopulationTable.violationsColumn { return .lowerIsBetter }
        return Metric.named(metric)?.direction ?? .neutral
    }

    /// Whether `metric` is compared as text rather than as a number.
    package static func isText(_ metric: String) -> Bool {
        Metric.named(metric)?.isText ?? false
    }
}

/// How far a metric may move from its baseline before the check reports it.
///
/// A difference *within* the tolerance counts as unchanged; beyond it the
/// metric's direction decides: regression, improvement, or (neutral metric)
/// change. A `strict` tolerance makes any difference beyond the amount a
/// failure whatever its direction, which is how a neutral metric such as
/// `trace_digest` or `frames` is made to fail the check.
package struct Tolerance: Hashable, Sendable, CustomStringConvertible {
    /// The size of the allowed difference.
    package enum Amount: Hashable, Sendable {
        /// At most this much either way, in the metric's own unit.
        case absolute(Double)
        /// At most this percentage of the baseline's magnitude either way;
        /// a baseline of 0 therefore allows no difference at all.
        case relative(percent: Double)
    }

    /// The allowed difference.
    package var amount: Amount
    /// Whether a difference beyond `amount` fails in either direction.
    package var isStrict: Bool

    /// No difference allowed; improvements and neutral changes do not fail.
    /// The default for every metric.
    package static let exact = Tolerance(amount: .absolute(0), isStrict: false)

    /// A tolerance from its parts.
    package init(amount: Amount, isStrict: Bool = false) {
        self.amount = amount
        self.isStrict = isStrict
    }

    /// The largest allowed `|current − baseline|` for `baseline`.
    package func limit(baseline: Double) -> Double {
        switch amount {
        case .absolute(let value): return value
        case .relative(let percent): return abs(baseline) * percent / 100
        }
    }

    /// Whether moving from `baseline` by `delta` stays within the tolerance.
    ///
    /// The limit gets a relative slack of one part in 10⁹ so that a
    /// boundary written in decimal (`0.3`) is inclusive despite binary
    /// rounding; a zero limit stays exactly zero.
    package func allows(delta: Double, baseline: Double) -> Bool {
        guard !delta.isNaN else { return false }
        let limit = limit(baseline: baseline)
        return abs(delta) <= limit + limit * Tolerance.boundarySlack
    }

    static let boundarySlack = 1e-9

    /// The tolerance as a tolerance file writes it (`0.5`, `5%`, `2 strict`,
    /// `strict`).
    package var description: String {
        if isStrict, amount == .absolute(0) { return "strict" }
        let base: String
        switch amount {
        case .absolute(let value): base = Tolerance.format(value)
        case .relative(let percent): base = Tolerance.format(percent) + "%"
        }
        return isStrict ? base + " strict" : base
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// A tolerance that cannot be used, with where it came from and what to do
/// about it.
package struct ToleranceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the tolerance came from: `tolerances.txt:3` or
    /// `--tolerance "allocations=five"`.
    package var source: String
    /// What is wrong and how to write it instead.
    package var problem: String

    /// An error from its parts.
    package init(source: String, problem: String) {
        self.source = source
        self.problem = problem
    }

    /// `source: problem`.
    package var description: String { "\(source): \(problem)" }
}

/// The tolerance of every compared metric: `Tolerance.exact` unless a
/// tolerance file or a `--tolerance` flag says otherwise.
///
/// A tolerance file has one `metric = value` per line; `#` starts a
/// comment; blank lines are skipped. A value is a non-negative decimal
/// (`hitch_time_ms = 0.5`, in the metric's unit), a percentage of the
/// baseline (`allocations = 5%`), either followed by `strict`, or `strict`
/// alone (exact and strict). `trace_digest` is text: it takes only `0` or
/// `strict`. Naming a metric twice in one file is an error; flags are
/// applied after the file, the last flag for a metric winning.
package struct ToleranceSet: Sendable, Equatable {
    private var overrides: [String: Tolerance] = [:]

    /// Every metric exact.
    package init() {}

    /// The tolerance of `metric`.
    package func tolerance(for metric: String) -> Tolerance {
        overrides[metric] ?? .exact
    }

    /// Sets the tolerance of `metric`, replacing any earlier one.
    /// The tolerance given for `metric` (by a file or a flag), or nil when
    /// none was.
    package func override(for metric: String) -> Tolerance? { overrides[metric] }

    package mutating func set(_ tolerance: Tolerance, for metric: String) {
        overrides[metric] = tolerance
    }

    /// The metrics given a tolerance other than the default, sorted by name,
    /// with their tolerances.
    package var customised: [(metric: String, tolerance: Tolerance)] {
        overrides.keys.sorted().map { ($0, overrides[$0]!) }
    }

    /// Reads a tolerance file; `file` names it in messages.
    package static func load(url: URL, file: String? = nil) throws(ToleranceError) -> ToleranceSet {
        let name = file ?? url.path
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ToleranceError(source: name, problem: "no such tolerance file")
        }
        do {
            return try parse(fileText: String(contentsOf: url, encoding: .utf8), file: name)
        } catch let error as ToleranceError {
            throw error
        } catch {
            throw ToleranceError(
                source: name, problem: "cannot read the file as UTF-8 text (\(error.readableDescription))")
        }
    }

    /// Parses the text of a tolerance file; `file` names it in messages.
    package static func parse(fileText: String, file: String) throws(ToleranceError) -> ToleranceSet {
        var set = ToleranceSet()
        var firstLine: [String: Int] = [:]
        let lines = fileText.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, rawLine) in lines.enumerated() {
            let content = rawLine.prefix { $0 != "#" }.trimmingWhitespace()
            guard !content.isEmpty else { continue }
            let source = "\(file):\(i + 1)"
            let (metric, tolerance) = try parseAssignment(content, source: source)
            if let earlier = firstLine[metric] {
                throw ToleranceError(
                    source: source,
                    problem: "\(metric) already has a tolerance on line \(earlier); keep one of the two lines")
            }
            firstLine[metric] = i + 1
            set.set(tolerance, for: metric)
        }
        return set
    }

    /// Applies one `--tolerance metric=value` flag over what is already set.
    package mutating func apply(flag: String) throws(ToleranceError) {
        let (metric, tolerance) = try ToleranceSet.parseAssignment(flag, source: "--tolerance \"\(flag)\"")
        set(tolerance, for: metric)
    }

    /// Parses `metric = value`.
    static func parseAssignment(_ text: String, source: String) throws(ToleranceError) -> (String, Tolerance) {
        let example = "write it as `metric = 0.5`, `metric = 5%` or `metric = strict`"
        guard let equals = text.firstIndex(of: "=") else {
            throw ToleranceError(source: source, problem: "expected `metric = value`; \(example)")
        }
        let metric = text[..<equals].trimmingSpaces()
        let value = text[text.index(after: equals)...].trimmingSpaces()
        guard !metric.isEmpty else {
            throw ToleranceError(source: source, problem: "no metric name before `=`; \(example)")
        }
        guard SummaryMetrics.compared.contains(metric) else {
            throw ToleranceError(source: source, problem: unknownMetricProblem(metric))
        }
        let tolerance = try parseValue(value, metric: metric, source: source)
        if SummaryMetrics.isText(metric), tolerance.amount != .absolute(0) {
            throw ToleranceError(
                source: source,
                problem:
                    """
                    \(metric) is compared as text, so it takes no amount; write `\(metric) = strict` to fail on \
                    any change
                    """
            )
        }
        return (metric, tolerance)
    }

    private static func parseValue(_ value: String, metric: String, source: String) throws(ToleranceError) -> Tolerance
    {
        let notATolerance = ToleranceError(
            source: source,
            problem: "\"\(value)\" is not a tolerance; use a non-negative number (`\(metric) = 0.5`), "
                + "a percentage (`\(metric) = 5%`), optionally followed by `strict`, or `strict` alone")
        var words = value.split(whereSeparator: \.isWhitespace).map(String.init)
        let isStrict = words.last == "strict"
        if isStrict { words.removeLast() }
        if words.last == "%", words.count == 2 { words = [words[0] + "%"] }
        switch words.count {
        case 0 where isStrict:
            return Tolerance(amount: .absolute(0), isStrict: true)
        case 1:
            var number = words[0]
            let isPercent = number.hasSuffix("%")
            if isPercent { number.removeLast() }
            guard !number.hasPrefix("-"), !number.hasPrefix("+"), SummaryFile.isDecimal(number),
                let amount = Double(number)
            else {
                throw notATolerance
            }
            return Tolerance(amount: isPercent ? .relative(percent: amount) : .absolute(amount), isStrict: isStrict)
        default:
            throw notATolerance
        }
    }

    private static func unknownMetricProblem(_ metric: String) -> String {
        if SummaryFile.keyColumns.contains(metric) || metric == SummaryFile.seedColumn {
            return "\(metric) identifies a run and is not compared; tolerances apply to: "
                + SummaryMetrics.compared.joined(separator: ", ")
        }
        return "unknown metric \"\(metric)\"; tolerances apply to: " + SummaryMetrics.compared.joined(separator: ", ")
    }
}
