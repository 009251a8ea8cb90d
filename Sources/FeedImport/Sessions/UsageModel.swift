import CSVCodec
import FeedScenario
import FoundationEssentials

/// What readers do, fitted from recorded sessions: the distributions and
/// rates `usage.json` holds.
package struct UsageModel: Sendable, Equatable {
    /// The distributions, by their names in `usage.json`, in file order.
    package var distributions: [(name: String, unit: String, fit: UsageFit)]
    /// The proportions, by name.
    package var proportions: [(name: String, fit: UsageProportion)]
    /// Events per minute, by name.
    package var rates: [(name: String, fit: UsageRate)]
    /// Sessions the model was fitted to.
    package var sessions: Int
    /// The quantiles of each background's time away, in seconds: not
    /// fitted or tested (logs hold few), so explore replays what was seen.
    package var backgroundQuantiles: (count: Int, quantiles: [Double])?
    /// Each scale the recorded `text_size` events chose and how often, by
    /// scale; empty when the logs changed no text size. Not fitted: explore
    /// draws the recorded sizes themselves, Dynamic Type having only a few.
    package var textSizeChoices: [UsagePopulation.TextSizeChoice]

    package static func == (a: UsageModel, b: UsageModel) -> Bool { a.fileText == b.fileText }

    /// The model of `sessions`, or, when the logs are too few for some of
    /// it, a problem naming each part that is short and how short.
    package static func fit(_ sessions: [RecordedSession], file: String) throws(FileProblem) -> UsageModel {
        let m = UsageMeasures(sessions)
        var short: [String] = []
        func need<T>(_ name: String, _ found: Int, _ fit: T?) -> T? {
            if fit == nil { short.append("\(name) (\(found))") }
            return fit
        }
        let fitted = m.distributions.compactMap { name, unit, all in
            // A lognormal is over positive values: a session that never scrolled has no depth to fit.
            let values = all.filter { $0 > 0 }
            return need(name, values.count, UsageFit.fit(values)).map { (name: name, unit: unit, fit: $0) }
        }
        let proportions = [
            ("fling", m.flings, m.distancesPt.count), ("direction_change", m.reversals, m.reversalTrials),
        ].compactMap { name, hits, trials in
            return need(name, trials, UsageProportion.fit(successes: hits, trials: trials)).map {
                (name: name, fit: $0)
            }
        }
        let rates = m.eventCounts.compactMap { name, counts in
            return need("\(name)_per_min", counts.count, UsageRate.fit(counts: counts, minutes: m.minutes)).map {
                (name: name, fit: $0)
            }
        }
        guard short.isEmpty else {
            throw FileProblem(
                file: file, line: nil,
                problem: "expected at least \(UsageFit.minimumCount) values to fit each part of the usage model; "
                    + "too few for " + short.joined(separator: ", ") + ": record more sessions")
        }
        let away = m.backgroundsS.sorted()
        return UsageModel(
            distributions: fitted, proportions: proportions, rates: rates, sessions: sessions.count,
            backgroundQuantiles: away.isEmpty ? nil : (away.count, UsageFit.quantileTable(away)),
            textSizeChoices: Self.choices(m.textScales))
    }

    /// Each distinct scale of `scales` with its count, by scale.
    static func choices(_ scales: [Double]) -> [UsagePopulation.TextSizeChoice] {
        var choices: [UsagePopulation.TextSizeChoice] = []
        for scale in scales.sorted() {
            if choices.last?.scale == scale {
                choices[choices.count - 1].count += 1
            } else {
                choices.append(UsagePopulation.TextSizeChoice(scale: scale, count: 1))
            }
        }
        return choices
    }

    /// `usage.json`'s text.
    package var fileText: String { fileJSON.text + "\n" }

    /// `usage.json`'s value.
    package var fileJSON: OrderedJSON {
        .object(
            [
                ("format", "feedsim-usage"), ("version", 1), ("sessions", .int(sessions)),
                (
                    "distributions",
                    .object(distributions.map { ($0.name, Self.json($0.fit, unit: $0.unit)) } + backgroundJSON)
                ),
                (
                    "proportions",
                    .object(
                        proportions.map { name, p in
                            (
                                name,
                                .object([
                                    ("value", .number(p.value)), ("trials", .int(p.trials)),
                                    ("wilson_95", [.number(p.low), .number(p.high)]),
                                ])
                            )
                        })
                ),
                (
                    "rates_per_min",
                    .object(
                        rates.map { name, r in
                            (
                                name,
                                .object([
                                    ("value", .number(r.perMinute)), ("events", .int(r.events)),
                                    ("sessions", .int(r.sessions)),
                                    ("ks_distance", .number(r.ksDistance)), ("ks_critical_5pct", .number(r.ksCritical)),
                                ])
                            )
                        })
                ),
            ] + textSizeJSON)
    }

    /// `text_size_scale`, the recorded scales and their counts, when the
    /// logs changed the text size.
    private var textSizeJSON: [(String, OrderedJSON)] {
        guard !textSizeChoices.isEmpty else { return [] }
        return [
            (
                "text_size_scale",
                .object([
                    ("n", .int(textSizeChoices.reduce(0) { $0 + $1.count })), ("fit", "recorded"),
                    (
                        "values",
                        .array(
                            textSizeChoices.map { .object([("scale", .number($0.scale)), ("count", .int($0.count))]) })
                    ),
                ])
            )
        ]
    }

    /// `background_s`, an empirical table only, when the logs had backgrounds.
    private var backgroundJSON: [(String, OrderedJSON)] {
        guard let (count, quantiles) = backgroundQuantiles else { return [] }
        return [
            (
                "background_s",
                .object([
                    ("unit", "s"), ("n", .int(count)), ("fit", "empirical"),
                    ("quantiles", .array(quantiles.map { .number($0) })),
                ])
            )
        ]
    }

    private static func json(_ fit: UsageFit, unit: String) -> OrderedJSON {
        .object([
            ("unit", .string(unit)), ("n", .int(fit.count)), ("fit", .string(fit.kind.rawValue)),
            ("lognormal", .object([("median", .number(fit.median)), ("sigma", .number(fit.sigma))])),
            ("ks_distance", .number(fit.ksDistance)), ("ks_critical_5pct", .number(fit.ksCritical)),
            ("quantiles", .array(fit.quantiles.map { .number($0) })),
        ])
    }

    /// One row per distribution, proportion and rate: what `import sessions`
    /// prints so a user sees the fit.
    package var fitTable: String {
        var lines = ["part                 n      fit        median / value   sigma   KS D    5% critical"]
        for (name, unit, f) in distributions {
            lines.append(
                Self.row(
                    name, f.count, f.kind.rawValue, "\(Self.short(f.median)) \(unit)", Self.short(f.sigma),
                    f.ksDistance, f.ksCritical))
        }
        for (name, p) in proportions {
            lines.append(Self.row(name, p.trials, "proportion", "\(Self.short(p.value))", "", nil, nil))
        }
        for (name, r) in rates {
            lines.append(
                Self.row(
                    "\(name)_per_min", r.sessions, "poisson", "\(Self.short(r.perMinute))", "", r.ksDistance,
                    r.ksCritical))
        }
        if let median = Self.median(textSizeChoices) {
            let count = textSizeChoices.reduce(0) { $0 + $1.count }
            lines.append(Self.row("text_size_scale", count, "recorded", Self.short(median), "", nil, nil))
        }
        return lines.joined(separator: "\n")
    }

    private static func row(
        _ name: String, _ n: Int, _ kind: String, _ value: String, _ sigma: String, _ d: Double?, _ c: Double?
    ) -> String {
        func pad(_ s: String, _ w: Int) -> String {
            s.count >= w ? s + " " : s + String(repeating: " ", count: w - s.count)
        }
        return pad(name, 21) + pad(String(n), 7) + pad(kind, 11) + pad(value, 17) + pad(sigma, 8)
            + pad(d.map(short) ?? "", 8) + (c.map(short) ?? "")
    }

    /// The median recorded scale (the lower of the two middle ones for an
    /// even count: a size some reader chose).
    static func median(_ choices: [UsagePopulation.TextSizeChoice]) -> Double? {
        let scales = choices.flatMap { Array(repeating: $0.scale, count: $0.count) }
        return scales.isEmpty ? nil : scales[(scales.count - 1) / 2]
    }

    /// Four significant digits.
    static func short(_ value: Double) -> String { ReportNumber.significant(value, 4) }
}
