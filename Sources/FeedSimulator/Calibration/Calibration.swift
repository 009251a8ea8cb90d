import CSVCodec
import FeedScenario
import FoundationEssentials

/// Cost coefficients fitted to a measured trace: each frame's main-thread
/// time modelled as `Σ cost × count` over the trace's `CostTerm`s, fitted
/// with every cost ≥ 0 on most frames and checked on the rest.
///
/// The default fit is robust (`FitMethod.huber`): a frame that another
/// thread preempted, or a page fault stretched, is down-weighted instead of
/// pulling every cost towards it. Each fitted cost comes with a standard
/// error and a 95% interval; costs the trace cannot pin down are flagged.
///
/// Frames are held back deterministically: every `holdOutEvery`-th row of
/// the trace (the 5th, 10th, … by default), so the same trace always gives
/// the same fit, and held-back frames are spread over the whole recording.
package struct Calibration: Sendable {
    /// How the costs are fitted.
    package enum FitMethod: String, Sendable, CaseIterable {
        /// Huber M-estimation by iteratively reweighted non-negative least
        /// squares, MAD scale (`RobustFit.huber`).
        case huber
        /// Plain non-negative least squares: every frame weighs the same.
        case leastSquares = "least-squares"

        /// How the method reads in a rationale or a report.
        package var title: String {
            switch self {
            case .huber: "Huber IRLS, non-negative"
            case .leastSquares: "non-negative least squares"
            }
        }
    }

    /// What became of one term.
    package enum Outcome: Sendable, Equatable {
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
    package struct TermFit: Sendable {
        package var term: CostTerm
        package var outcome: Outcome
        /// The base profile's cost per unit, in nanoseconds.
        package var base: Double
        /// The cost written to the fitted profile: the fit when fitted
        /// (to `significantDigits`), the base value otherwise.
        package var fitted: Double
        /// The fit before rounding, ns; 0 when not fitted.
        package var estimate: Double = 0
        /// The estimate's standard error, ns; `nil` when not fitted or held
        /// at 0 by the constraint.
        package var standardError: Double?
        /// Why the trace cannot identify this fitted cost (its 95% interval
        /// is wider than `identificationLimit` of it), `nil` when it can.
        package var unidentified: String?

        /// The 95% interval, `estimate ± 1.96 standard errors`, cut at 0.
        package var interval: ClosedRange<Double>? {
            standardError.map { max(0, estimate - Calibration.z95 * $0)...(estimate + Calibration.z95 * $0) }
        }

        /// Half the interval's width as a share of the estimate.
        package var relativeHalfWidth: Double? {
            guard let standardError, estimate > 0 else { return nil }
            return Calibration.z95 * standardError / estimate
        }
    }

    /// One frame of the trace as the fit saw it.
    package struct FrameFit: Sendable, Equatable {
        /// The frame's line in the trace file.
        package var line: Int
        /// Measured and modelled main-thread time, ms.
        package var measuredMs: Double
        package var predictedMs: Double
        /// Whether the frame was held back from the fit.
        package var heldBack: Bool
        /// The fit's weight on the frame (1 for least squares and for
        /// held-back frames).
        package var weight: Double
    }

    /// `holdOutEvery` = 1 would hold back every frame and fit on none.
    package static let minimumHoldOutEvery = 2
    /// The default: one frame in five held back, the common 80/20 split.
    package static let defaultHoldOutEvery = 5
    /// Fitted costs keep four significant digits: a trace's noise leaves
    /// the fifth meaningless, and the profile stays readable.
    package static let significantDigits = 4
    /// The normal quantile of a two-sided 95% interval.
    package static let z95 = 1.959963984540054
    /// A fitted cost whose 95% interval reaches further than this share of
    /// it either side is flagged as not identified: the trace cannot tell
    /// it from half or one and a half times its value.
    package static let identificationLimit = 0.25
    /// Two count columns correlated at least this much are named as
    /// collinear when one of them is not identified.
    package static let collinearCorrelation = 0.9
    /// How many of the most down-weighted frames the output lists.
    package static let worstFramesListed = 5

    /// How the costs were fitted.
    package let method: FitMethod
    /// The terms in `CostTerm.all`'s order.
    package let terms: [TermFit]
    /// The costs of the base profile with each fitted term replaced.
    package let costs: CostTable
    /// Frames the coefficients were fitted on.
    package let fitFrames: Int
    /// Frames held back to check them.
    package let heldBackFrames: Int
    /// Every how many frames one was held back.
    package let holdOutEvery: Int
    /// Every frame, in trace order, with its prediction and weight.
    package let frames: [FrameFit]
    /// The residual scale the fit used (σ estimate), ms.
    package let scaleMs: Double
    /// Reweighting steps, and whether they settled (always for least squares).
    package let iterations: Int
    package let converged: Bool
    /// R² on the fitted frames: the share of their duration's variance the
    /// model explains (NaN when every fitted frame lasts the same).
    package let rSquared: Double
    /// R² on the held-back frames.
    package let heldBackRSquared: Double
    /// Nearest-rank median and 90th percentile of the absolute error of the
    /// model on held-back frames, in milliseconds.
    package let heldBackMedianErrorMs: Double
    package let heldBackP90ErrorMs: Double

    /// Fitted frames the fit gave a weight below 1, lowest weight first
    /// (file order among equals).
    package var downWeighted: [FrameFit] {
        frames.enumerated().filter { !$0.element.heldBack && $0.element.weight < 1 }
            .sorted {
                $0.element.weight != $1.element.weight ? $0.element.weight < $1.element.weight : $0.offset < $1.offset
            }
            .map(\.element)
    }

    /// Fits `trace` starting from `base`, holding back every
    /// `holdOutEvery`-th frame.
    ///
    /// - Complexity: O(*k*·*f*·*t*²) for *f* frames, *t* terms and *k*
    ///   reweighting steps (1 for least squares).
    package init(
        trace: CalibrationTrace, base: CostTable, holdOutEvery: Int = Calibration.defaultHoldOutEvery,
        method: FitMethod = .huber
    ) throws(CalibrationError) {
        precondition(
            holdOutEvery >= Calibration.minimumHoldOutEvery,
            "holdOutEvery must be at least \(Calibration.minimumHoldOutEvery)")
        self.holdOutEvery = holdOutEvery
        self.method = method
        let isHeld = trace.frames.indices.map { ($0 + 1) % holdOutEvery == 0 }
        let held = trace.frames.indices.filter { isHeld[$0] }.map { trace.frames[$0] }
        let fit = trace.frames.indices.filter { !isHeld[$0] }.map { trace.frames[$0] }

        var outcomes = CostTerm.all.indices.map { i -> Outcome in
            guard trace.measured[i] else { return .notInTrace }
            return fit.contains { $0.counts[i] != 0 } ? .fitted : .allZero
        }
        let nonZero = CostTerm.all.indices.filter { outcomes[$0] == .fitted }
        for position in NonNegativeLeastSquares.dependentColumns(fit.map { frame in nonZero.map { frame.counts[$0] } })
        {
            outcomes[nonZero[position]] = .dependent
        }
        let fitted = CostTerm.all.indices.filter { outcomes[$0] == .fitted }

        guard !fitted.isEmpty else {
            throw CalibrationError(
                file: trace.file, line: nil,
                problem: "no column of the trace has a count other than 0, so there is nothing to fit")
        }
        guard fit.count > fitted.count, !held.isEmpty else {
            // The fewest frames that leave one more fitted frame than terms
            // and at least one held back.
            var needed = holdOutEvery
            while needed - needed / holdOutEvery <= fitted.count { needed += 1 }
            throw CalibrationError(
                file: trace.file, line: nil,
                problem:
                    """
                    the trace has \(trace.frames.count) frame\(trace.frames.count == 1 ? "" : "s"); fitting \
                    \(fitted.count) terms\u{20}
                    """
                        + "with one frame in \(holdOutEvery) held back needs at least \(needed)")
        }

        let rows = fit.map { frame in fitted.map { frame.counts[$0] } }
        let solution: RobustFit.Result
        do {
            switch method {
            case .huber: solution = try RobustFit.huber(rows: rows, b: fit.map(\.durationNs))
            case .leastSquares: solution = try RobustFit.leastSquares(rows: rows, b: fit.map(\.durationNs))
            }
        } catch {
            throw CalibrationError(file: trace.file, line: nil, problem: "the fit failed: \(error)")
        }
        var coefficients = [Double](repeating: 0, count: CostTerm.all.count)
        var errors = [Double?](repeating: nil, count: CostTerm.all.count)
        for (position, i) in fitted.enumerated() {
            coefficients[i] = solution.x[position]
            errors[i] = solution.standardErrors[position]
        }
        func predicted(_ frame: CalibrationTrace.Frame) -> Double {
            fitted.reduce(0) { $0 + coefficients[$1] * frame.counts[$1] }
        }

        var costs = base
        var terms: [TermFit] = []
        for (i, term) in CostTerm.all.enumerated() {
            let baseValue = term.cost(base).value
            let value = outcomes[i] == .fitted ? Calibration.rounded(coefficients[i]) : baseValue
            var termFit = TermFit(term: term, outcome: outcomes[i], base: baseValue, fitted: value)
            if outcomes[i] == .fitted {
                termFit.estimate = coefficients[i]
                termFit.standardError = errors[i]
                term.setCost(&costs, Rated(value: value, rationale: term.cost(base).rationale))
            }
            terms.append(termFit)
        }
        for i in fitted where coefficients[i] > 0 {
            let width = terms[i].relativeHalfWidth
            guard width.map({ $0 > Calibration.identificationLimit }) ?? true else { continue }
            let spread = width.map { "its 95% interval is ±\(Calibration.format($0 * 100, 0))%" } ?? "no standard error"
            let partner = Calibration.mostCorrelated(
                i, among: fitted.filter { $0 != i && coefficients[$0] > 0 }, frames: fit)
            if let partner, partner.correlation >= Calibration.collinearCorrelation {
                terms[i].unidentified =
                    "\(spread): collinear with \(CostTerm.all[partner.index].traceColumn) "
                    + "(correlation \(Calibration.format(partner.correlation, 2)))"
            } else {
                terms[i].unidentified = "\(spread): its count varies too little across frames"
            }
        }
        self.terms = terms
        self.costs = costs
        fitFrames = fit.count
        heldBackFrames = held.count
        scaleMs = solution.scale / 1_000_000
        iterations = solution.iterations
        converged = solution.converged
        var weightOfFitRow = solution.weights.makeIterator()
        frames = trace.frames.indices.map { index in
            let frame = trace.frames[index]
            let weight = isHeld[index] ? 1 : weightOfFitRow.next()!
            return FrameFit(
                line: frame.line, measuredMs: frame.durationNs / 1_000_000, predictedMs: predicted(frame) / 1_000_000,
                heldBack: isHeld[index], weight: weight)
        }
        rSquared = Calibration.rSquared(fit.map(\.durationNs), fit.map(predicted))
        heldBackRSquared = Calibration.rSquared(held.map(\.durationNs), held.map(predicted))
        let errorsMs = held.map { abs($0.durationNs - predicted($0)) / 1_000_000 }.sorted()
        heldBackMedianErrorMs = NearestRank.percentile(errorsMs, 0.5) ?? .nan
        heldBackP90ErrorMs = NearestRank.percentile(errorsMs, 0.9) ?? .nan
    }

    /// The term among `others` whose count column is most correlated with
    /// term `i`'s over `frames` (absolute Pearson correlation).
    static func mostCorrelated(
        _ i: Int, among others: [Int], frames: [CalibrationTrace.Frame]
    ) -> (index: Int, correlation: Double)? {
        func column(_ j: Int) -> [Double] { frames.map { $0.counts[j] } }
        let target = column(i)
        var best: (index: Int, correlation: Double)?
        for j in others {
            let r = abs(correlation(target, column(j)))
            guard r.isFinite else { continue }
            if best.map({ r > $0.correlation }) ?? true { best = (j, r) }
        }
        return best
    }

    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(a.count)
        let meanA = a.reduce(0, +) / n, meanB = b.reduce(0, +) / n
        var ab = 0.0, aa = 0.0, bb = 0.0
        for (x, y) in zip(a, b) {
            ab += (x - meanA) * (y - meanB)
            aa += (x - meanA) * (x - meanA)
            bb += (y - meanB) * (y - meanB)
        }
        return ab / (aa * bb).squareRoot()
    }

    /// The base profile with the fitted costs, each fitted cost's rationale
    /// saying where it came from; `traceName` is the trace's file name.
    package func profile(from base: DeviceProfile, name: String, traceName: String) -> DeviceProfile {
        var profile = base
        profile.name = name
        profile.description = base.description + " Main-thread costs fitted from \(traceName) by feedsim calibrate."
        for fit in terms where fit.outcome == .fitted {
            fit.term.setCost(
                &profile.costs,
                Rated(
                    value: fit.fitted,
                    rationale: "Fitted by feedsim calibrate from \(traceName) over \(fitFrames) frames "
                        + "(\(method.title), R² \(Calibration.format(rSquared, 4))"
                        + (fit.standardError.map {
                            ", standard error \(CalibrationTrace.number(Calibration.rounded($0)))"
                        } ?? "")
                        + "); the base profile \(base.name) had \(CalibrationTrace.number(fit.base))."))
        }
        return profile
    }

    /// `value` to `significantDigits` significant digits.
    package static func rounded(_ value: Double) -> Double {
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

    /// `value` with `decimals` digits after the point, "n/a" when not a number.
    package static func format(_ value: Double, _ decimals: Int) -> String {
        value.isFinite ? ReportNumber.fixed(value, decimals) : "n/a"
    }
}

private extension Double {
    /// ⌊log₁₀ |x|⌋ for a finite, non-zero x, by counting, so no libm call
    /// can round it differently on another platform.
    var log10Floor: Double {
        var x = abs(self)
        var exponent = 0.0
        while x >= 10 {
            x /= 10
            exponent += 1
        }
        while x < 1 {
            x *= 10
            exponent -= 1
        }
        return exponent
    }
}
