import CSVCodec
import FoundationEssentials
import Glibc

/// What the check concluded about one metric of one run, or about a run
/// present on one side only. Cases are declared in the order reports list
/// them.
package enum CheckVerdict: Int, Hashable, Comparable, Sendable, CaseIterable, CustomStringConvertible {
    /// Worse than the baseline beyond tolerance. Fails the check.
    case regression
    /// Changed beyond a `strict` tolerance, in a direction that is not a
    /// regression (an improvement, or any change of a neutral metric).
    /// Fails the check.
    case strictChange
    /// Better than the baseline beyond tolerance.
    case improvement
    /// A neutral metric changed beyond tolerance; listed, not a failure.
    case change
    /// A run in the baseline has no row in the current results. Fails the
    /// check: whatever it measured is no longer measured.
    case missing
    /// A run in the current results has no baseline row; listed, not a
    /// failure.
    case new

    /// Whether the verdict fails the check.
    package var isFailure: Bool {
        switch self {
        case .regression, .strictChange, .missing: return true
        case .improvement, .change, .new: return false
        }
    }

    /// The word the table shows.
    package var description: String {
        switch self {
        case .regression: return "regression"
        case .strictChange: return "changed (strict)"
        case .improvement: return "improvement"
        case .change: return "changed"
        case .missing: return "missing"
        case .new: return "new"
        }
    }

    /// Orders as reports list verdicts: failures by metric first, then
    /// improvements, neutral changes, missing and new runs.
    package static func < (lhs: CheckVerdict, rhs: CheckVerdict) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One line of the check's table.
package struct CheckFinding: Hashable, Sendable {
    /// The run.
    package var key: SummaryKey
    /// The metric, or `nil` when the whole run is missing or new.
    package var metric: String?
    /// The baseline's value as written, or a word for a whole run.
    package var baseline: String
    /// The current value as written, or a word for a whole run.
    package var current: String
    /// `current − baseline` with its sign, and as a percentage of the
    /// baseline where that is defined; `-` for text and whole runs.
    package var delta: String
    /// What the check concluded.
    package var verdict: CheckVerdict
    /// The metric's tolerance in the check (exact for a whole run).
    package var tolerance: Tolerance

    /// A finding from its parts.
    package init(
        key: SummaryKey, metric: String?, baseline: String, current: String, delta: String, verdict: CheckVerdict,
        tolerance: Tolerance = .exact
    ) {
        self.key = key
        self.metric = metric
        self.baseline = baseline
        self.current = current
        self.delta = delta
        self.verdict = verdict
        self.tolerance = tolerance
    }
}

/// The outcome of comparing current results with a baseline.
package struct BaselineCheckResult: Hashable, Sendable {
    /// Everything beyond tolerance and every unmatched run, sorted by
    /// verdict, then run key, then metric in summary column order.
    /// Metrics within tolerance are not listed.
    package var findings: [CheckFinding]
    /// Every run of either side: the baseline's in its order, then the
    /// current results' new runs in theirs.
    package var runs: [SummaryKey]
    /// Runs present on both sides.
    package var comparedRuns: Int
    /// Metric values that differ from the baseline but stay within their
    /// tolerance.
    package var withinTolerance: Int
    /// Metrics the current results have and the baseline's file lacks (a
    /// baseline written before they were measured), in summary column
    /// order: not compared, and not a failure.
    package var notInBaseline: [String] = []
    /// Metrics left empty on one side or both (a build that cannot count
    /// allocations leaves their columns empty), in summary column order:
    /// not compared, not a failure, and named in the verdict line.
    package var notCounted: [String] = []

    /// Whether nothing fails the check: no regression, no strict change and
    /// no missing run.
    package var passed: Bool { !findings.contains { $0.verdict.isFailure } }

    /// How many findings have `verdict`.
    package func count(_ verdict: CheckVerdict) -> Int {
        findings.reduce(0) { $1.verdict == verdict ? $0 + 1 : $0 }
    }

    /// The findings as a plain-text table, one line per finding after a
    /// header; empty when there are no findings.
    package var table: String {
        guard !findings.isEmpty else { return "" }
        let rows = findings.map { f in
            [
                f.key.scenario, f.key.variant, String(f.key.refreshHz), f.metric ?? "(run)",
                f.baseline, f.current, f.delta, f.verdict.description,
            ]
        }
        return AlignedText.render(
            header: ["scenario", "variant", "refresh_hz", "metric", "baseline", "current", "delta", "verdict"],
            alignments: [.left, .left, .right, .left, .right, .right, .right, .left],
            rows: rows)
    }

    /// One line: `PASS` or `FAIL`, then the counts that matter.
    package var verdictLine: String {
        let failures = [
            BaselineCheckResult.counted(count(.regression), "regression", "regressions"),
            BaselineCheckResult.counted(count(.strictChange), "strict change", "strict changes"),
            BaselineCheckResult.counted(count(.missing), "missing run", "missing runs"),
        ].compactMap { $0 }
        let notes = [
            BaselineCheckResult.counted(comparedRuns, "run compared", "runs compared") ?? "no runs compared",
            BaselineCheckResult.counted(count(.improvement), "improvement", "improvements"),
            BaselineCheckResult.counted(count(.change), "neutral change", "neutral changes"),
            BaselineCheckResult.counted(withinTolerance, "difference within tolerance", "differences within tolerance"),
            BaselineCheckResult.counted(count(.new), "new run", "new runs"),
            notInBaseline.isEmpty ? nil : "not in baseline: " + notInBaseline.joined(separator: ", "),
            notCounted.isEmpty ? nil : "not counted: " + notCounted.joined(separator: ", "),
        ].compactMap { $0 }.joined(separator: ", ")
        if failures.isEmpty { return "PASS: no regressions (\(notes))" }
        return "FAIL: \(failures.joined(separator: ", ")) (\(notes))"
    }

    private static func counted(_ n: Int, _ singular: String, _ plural: String) -> String? {
        n == 0 ? nil : n == 1 ? "1 \(singular)" : "\(n) \(plural)"
    }
}

/// Compares current results with a baseline, run by run and metric by
/// metric (`feedsim check`).
///
/// Runs are matched by (scenario, variant, refresh_hz). Every metric of
/// `SummaryMetrics.compared` is compared under its tolerance:
///
/// - equal values (as text, or as numbers: `3` and `3.0`) and differences
///   within tolerance are unchanged and not listed;
/// - beyond tolerance, the metric's `MetricDirection` decides: regression
///   or improvement, or for a neutral metric a change that is listed but
///   passes — unless the tolerance is `strict`, which fails any change
///   beyond it;
/// - `trace_digest` is compared as text: any difference is a change;
/// - a `nan` on either side of a metric with a direction is a regression,
///   as it cannot be shown to be no worse.
///
/// Differences are computed to the decimals the two values were written
/// with, so `1.3 → 1.1` is exactly `-0.2` and meets a `0.2` tolerance.
/// `seed` and columns outside `RunReports.summaryColumns` are not compared.
/// A metric column the baseline's file lacks (a baseline written before the
/// metric existed) is not compared either: it is listed as not in the
/// baseline, and passes, so a new column does not break older baselines.
/// An empty value (allocations, from a build that cannot count them) is not
/// compared: the metric is listed as not counted, and passes.
package enum BaselineCheck {
    /// Compares `current` with `baseline` under `tolerances`.
    ///
    /// - Complexity: O(*r* · *m*² + *f* log *f*) for *r* runs, *m* metrics and
    ///   *f* findings.
    package static func compare(
        baseline: SummaryFile, current: SummaryFile, tolerances: ToleranceSet = ToleranceSet()
    ) -> BaselineCheckResult {
        var findings: [CheckFinding] = []
        var compared = 0
        var within = 0
        var empty = Set<String>()
        for base in baseline.rows {
            guard let now = current.row(for: base.key) else {
                findings.append(
                    CheckFinding(
                        key: base.key, metric: nil, baseline: "present", current: "absent",
                        delta: "-", verdict: .missing))
                continue
            }
            compared += 1
            for metric in SummaryMetrics.compared {
                guard let was = base.value(of: metric), let isNow = now.value(of: metric) else { continue }
                if was.isEmpty || isNow.isEmpty {
                    empty.insert(metric)
                    continue
                }
                let tolerance = tolerances.tolerance(for: metric)
                switch classify(metric: metric, baseline: was, current: isNow, tolerance: tolerance) {
                case .unchanged:
                    break
                case .withinTolerance:
                    within += 1
                case .beyond(let verdict, let delta):
                    findings.append(
                        CheckFinding(
                            key: base.key, metric: metric, baseline: was, current: isNow,
                            delta: delta, verdict: verdict, tolerance: tolerance))
                }
            }
        }
        for now in current.rows where baseline.row(for: now.key) == nil {
            findings.append(
                CheckFinding(
                    key: now.key, metric: nil, baseline: "absent", current: "present",
                    delta: "-", verdict: .new))
        }
        let order = Dictionary(uniqueKeysWithValues: SummaryMetrics.compared.enumerated().map { ($1, $0) })
        findings.sort { a, b in
            if a.verdict != b.verdict { return a.verdict < b.verdict }
            if a.key != b.key { return a.key < b.key }
            return (a.metric.flatMap { order[$0] } ?? -1) < (b.metric.flatMap { order[$0] } ?? -1)
        }
        let runs = baseline.rows.map(\.key) + current.rows.map(\.key).filter { baseline.row(for: $0) == nil }
        let absent = SummaryMetrics.compared.filter { !baseline.columns.contains($0) && current.columns.contains($0) }
        return BaselineCheckResult(
            findings: findings, runs: runs, comparedRuns: compared, withinTolerance: within, notInBaseline: absent,
            notCounted: SummaryMetrics.compared.filter(empty.contains))
    }

    /// How one metric compares.
    enum Outcome: Equatable {
        /// Equal as text or as numbers.
        case unchanged
        /// Different, but not by more than the tolerance.
        case withinTolerance
        /// Different beyond tolerance, with the verdict and the delta text.
        case beyond(CheckVerdict, delta: String)
    }

    /// Compares one metric's values as written.
    static func classify(metric: String, baseline: String, current: String, tolerance: Tolerance) -> Outcome {
        if baseline == current { return .unchanged }
        let direction = SummaryMetrics.direction(of: metric)
        guard !SummaryMetrics.isText(metric),
            let was = SummaryFile.parseNumber(baseline), let now = SummaryFile.parseNumber(current)
        else {
            return .beyond(tolerance.isStrict ? .strictChange : .change, delta: "-")
        }
        if was == now { return .unchanged }
        let decimals = min(max(SummaryFile.decimals(baseline), SummaryFile.decimals(current)), maxDecimals)
        let scale = pow(10, Double(decimals))
        let delta = ((now - was) * scale).rounded() / scale
        if delta == 0 { return .unchanged }
        if !delta.isNaN, tolerance.allows(delta: delta, baseline: was) { return .withinTolerance }

        var verdict: CheckVerdict
        if delta.isNaN {
            verdict = direction == .neutral ? .change : .regression
        } else {
            switch direction {
            case .lowerIsBetter: verdict = delta > 0 ? .regression : .improvement
            case .higherIsBetter: verdict = delta < 0 ? .regression : .improvement
            case .neutral: verdict = .change
            }
        }
        if tolerance.isStrict, verdict != .regression { verdict = .strictChange }
        return .beyond(verdict, delta: deltaText(delta, decimals: decimals, baseline: was))
    }

    /// Beyond this many decimals a report number carries no meaning, and
    /// scaling by a larger power of ten could overflow to infinity.
    static let maxDecimals = 12

    /// `+2 (+66.7%)`: the signed difference, and its share of the baseline
    /// when the baseline is a finite non-zero number.
    static func deltaText(_ delta: Double, decimals: Int, baseline: Double) -> String {
        guard !delta.isNaN else { return "-" }
        let signed = (delta > 0 ? "+" : "") + ReportNumber.fixed(delta, decimals)
        guard baseline != 0, baseline.isFinite, delta.isFinite else { return signed }
        let percent = delta / abs(baseline) * 100
        return signed + " (" + (percent > 0 ? "+" : "") + ReportNumber.fixed(percent, 1) + "%)"
    }
}
