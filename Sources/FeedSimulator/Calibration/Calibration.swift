import Foundation
import FeedScenario

/// Cost coefficients fitted to a measured trace: each frame's main-thread
/// time modelled as `Σ cost × count` over the trace's `CostTerm`s, solved by
/// non-negative least squares on most frames and checked on the rest.
///
/// Frames are held back deterministically: every `holdOutEvery`-th row of
/// the trace (the 5th, 10th, … by default), so the same trace always gives
/// the same fit, and held-back frames are spread over the whole recording.
public struct Calibration: Sendable {
    /// What became of one term.
    public enum Outcome: Sendable, Equatable {
        /// Fitted from the trace.
        case fitted
        /// The trace has no column for it: the base value is kept.
        case notInTrace
        /// Its column is 0 on every fitted frame, so nothing measures it:
        /// the base value is kept.
        case allZero
        /// Its column is a linear combination of earlier terms' columns
        /// (for example always equal to another count), so the fit cannot
        /// tell the two apart: the base value is kept.
        case dependent
    }

    /// One term's base and fitted cost.
    public struct TermFit: Sendable {
        public var term: CostTerm
        public var outcome: Outcome
        /// The base profile's cost per unit, in nanoseconds.
        public var base: Double
        /// The cost written to the fitted profile: the fit when fitted
        /// (to `significantDigits`), the base value otherwise.
        public var fitted: Double
    }

    /// `holdOutEvery` = 1 would hold back every frame and fit on none.
    public static let minimumHoldOutEvery = 2
    /// The default: one frame in five held back, the common 80/20 split.
    public static let defaultHoldOutEvery = 5
    /// Fitted costs keep four significant digits: a trace's noise leaves
    /// the fifth meaningless, and the profile stays readable.
    public static let significantDigits = 4

    /// The terms in `CostTerm.all`'s order.
    public let terms: [TermFit]
    /// The costs of the base profile with each fitted term replaced.
    public let costs: CostTable
    /// Frames the coefficients were fitted on.
    public let fitFrames: Int
    /// Frames held back to check them.
    public let heldBackFrames: Int
    /// Every how many frames one was held back.
    public let holdOutEvery: Int
    /// R² on the fitted frames: the share of their duration's variance the
    /// model explains (NaN when every fitted frame lasts the same).
    public let rSquared: Double
    /// R² on the held-back frames.
    public let heldBackRSquared: Double
    /// Nearest-rank median and 90th percentile of the absolute error of the
    /// model on held-back frames, in milliseconds.
    public let heldBackMedianErrorMs: Double
    public let heldBackP90ErrorMs: Double

    /// Fits `trace` starting from `base`, holding back every
    /// `holdOutEvery`-th frame.
    ///
    /// - Complexity: O(*f*·*t*²) for *f* frames and *t* terms.
    public init(trace: CalibrationTrace, base: CostTable, holdOutEvery: Int = Calibration.defaultHoldOutEvery) throws(CalibrationError) {
        precondition(holdOutEvery >= Calibration.minimumHoldOutEvery, "holdOutEvery must be at least \(Calibration.minimumHoldOutEvery)")
        self.holdOutEvery = holdOutEvery
        let held = trace.frames.indices.filter { ($0 + 1) % holdOutEvery == 0 }.map { trace.frames[$0] }
        let fit = trace.frames.indices.filter { ($0 + 1) % holdOutEvery != 0 }.map { trace.frames[$0] }

        var outcomes = CostTerm.all.indices.map { i -> Outcome in
            guard trace.measured[i] else { return .notInTrace }
            return fit.contains { $0.counts[i] != 0 } ? .fitted : .allZero
        }
        let nonZero = CostTerm.all.indices.filter { outcomes[$0] == .fitted }
        for position in NonNegativeLeastSquares.dependentColumns(fit.map { frame in nonZero.map { frame.counts[$0] } }) {
            outcomes[nonZero[position]] = .dependent
        }
        let fitted = CostTerm.all.indices.filter { outcomes[$0] == .fitted }

        guard !fitted.isEmpty else {
            throw CalibrationError(file: trace.file, line: nil, problem: "no column of the trace has a count other than 0, so there is nothing to fit")
        }
        guard fit.count > fitted.count, !held.isEmpty else {
            // The fewest frames that leave one more fitted frame than terms
            // and at least one held back.
            var needed = holdOutEvery
            while needed - needed / holdOutEvery <= fitted.count { needed += 1 }
            throw CalibrationError(
                file: trace.file, line: nil,
                problem: "the trace has \(trace.frames.count) frame\(trace.frames.count == 1 ? "" : "s"); fitting \(fitted.count) terms "
                    + "with one frame in \(holdOutEvery) held back needs at least \(needed)")
        }

        let solution: NonNegativeLeastSquares.Solution
        do {
            solution = try NonNegativeLeastSquares.solve(
                rows: fit.map { frame in fitted.map { frame.counts[$0] } }, b: fit.map(\.durationNs))
        } catch {
            throw CalibrationError(file: trace.file, line: nil, problem: "the fit failed: \(error)")
        }
        var coefficients = [Double](repeating: 0, count: CostTerm.all.count)
        for (position, i) in fitted.enumerated() { coefficients[i] = solution.x[position] }
        func predicted(_ frame: CalibrationTrace.Frame) -> Double {
            fitted.reduce(0) { $0 + coefficients[$1] * frame.counts[$1] }
        }

        var costs = base
        var terms: [TermFit] = []
        for (i, term) in CostTerm.all.enumerated() {
            let baseValue = term.cost(base).value
            let value = outcomes[i] == .fitted ? Calibration.rounded(coefficients[i]) : baseValue
            terms.append(TermFit(term: term, outcome: outcomes[i], base: baseValue, fitted: value))
            if outcomes[i] == .fitted {
                term.setCost(&costs, Rated(value: value, rationale: term.cost(base).rationale))
            }
        }
        self.terms = terms
        self.costs = costs
        fitFrames = fit.count
        heldBackFrames = held.count
        rSquared = Calibration.rSquared(fit.map(\.durationNs), fit.map(predicted))
        heldBackRSquared = Calibration.rSquared(held.map(\.durationNs), held.map(predicted))
        let errors = held.map { abs($0.durationNs - predicted($0)) / 1_000_000 }.sorted()
        heldBackMedianErrorMs = Calibration.nearestRank(errors, 0.5)
        heldBackP90ErrorMs = Calibration.nearestRank(errors, 0.9)
    }

    /// The base profile with the fitted costs, each fitted cost's rationale
    /// saying where it came from; `traceName` is the trace's file name.
    public func profile(from base: DeviceProfile, name: String, traceName: String) -> DeviceProfile {
        var profile = base
        profile.name = name
        profile.description = base.description + " Main-thread costs fitted from \(traceName) by feedsim calibrate."
        for fit in terms where fit.outcome == .fitted {
            fit.term.setCost(&profile.costs, Rated(
                value: fit.fitted,
                rationale: "Fitted by feedsim calibrate from \(traceName) over \(fitFrames) frames "
                    + "(non-negative least squares, R² \(Calibration.format(rSquared, 4))); "
                    + "the base profile \(base.name) had \(CalibrationTrace.number(fit.base))."))
        }
        return profile
    }

    /// `value` to `significantDigits` significant digits.
    static func rounded(_ value: Double) -> Double {
        guard value != 0, value.isFinite else { return value }
        let magnitude = Int((abs(value)).log10Floor)
        let scale = pow10(significantDigits - 1 - magnitude)
        return (value * scale).rounded() / scale
    }

    static func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }

    /// 1 − residual / total sum of squares.
    static func rSquared(_ observed: [Double], _ predicted: [Double]) -> Double {
        guard !observed.isEmpty else { return .nan }
        let mean = observed.reduce(0, +) / Double(observed.count)
        let total = observed.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let residual = zip(observed, predicted).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        return total > 0 ? 1 - residual / total : .nan
    }

    /// The value at rank ⌈p·n⌉ (1-based) of `sorted`, as frame percentiles
    /// are taken elsewhere.
    static func nearestRank(_ sorted: [Double], _ p: Double) -> Double {
        NearestRank.percentile(sorted, p) ?? .nan
    }

    /// `value` with `decimals` digits after the point, "n/a" when not a number.
    public static func format(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "n/a" }
        let text = String(format: "%.\(decimals)f", value)
        return text == String(format: "%.\(decimals)f", -0.0) ? String(format: "%.\(decimals)f", 0.0) : text
    }
}

private extension Double {
    /// ⌊log₁₀ |x|⌋ for a finite, non-zero x, by counting, so no libm call
    /// can round it differently on another platform.
    var log10Floor: Double {
        var x = abs(self)
        var exponent = 0.0
        while x >= 10 { x /= 10; exponent += 1 }
        while x < 1 { x *= 10; exponent -= 1 }
        return exponent
    }
}
