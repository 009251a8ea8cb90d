/// Huber M-estimation with `x ≥ 0`: iteratively reweighted non-negative
/// least squares, the residual scale re-estimated each step by the median
/// absolute deviation (P. J. Huber, *Robust Statistics*, Wiley 1981; the
/// scheme of statsmodels' `RLM` with `HuberT` and `scale_est='mad'`).
///
/// A frame whose residual is within `huberThreshold` scale units of the
/// model keeps weight 1; one further out gets `threshold / |residual|`, so a
/// frame preempted by another thread pulls on the costs like one that is
/// `huberThreshold` scale units off, not with its full extra time.
package enum RobustFit {
    /// Huber's tuning constant: 95% of least squares' efficiency when the
    /// noise is normal (Huber 1981, §4.6).
    package static let huberThreshold = 1.345
    /// Φ⁻¹(0.75): the MAD of a standard normal, so MAD / this is σ.
    package static let madPerSigma = 0.6744897501960817
    /// Bound on reweighting steps; a fit that has not settled by then is
    /// reported as not converged.
    package static let maximumIterations = 200
    /// Steps stop when no coefficient moves by more than this share of itself.
    package static let relativeTolerance = 1e-10

    /// A residual scale below this share of the largest duration is
    /// rounding error: the rows fit exactly.
    static let exactFitShare = 1e-9

    /// What the fit found.
    package struct Result: Sendable, Equatable {
        /// The coefficients, one per column, every one ≥ 0.
        package var x: [Double]
        /// Each row's final weight in (0, 1]; all 1 for least squares.
        package var weights: [Double]
        /// The residual scale (σ estimate): MAD / 0.6745 for Huber, the
        /// root mean square residual over n − p for least squares.
        package var scale: Double
        /// Reweighting steps taken (0 for least squares).
        package var iterations: Int
        /// Whether the steps settled within `maximumIterations`.
        package var converged: Bool
        /// Standard error of each coefficient (Huber's sandwich correction
        /// for the M-estimate, the classical σ²(AᵀA)⁻¹ for least squares),
        /// over the coefficients the constraint leaves free; `nil` for a
        /// coefficient held at 0 or one the rows cannot identify.
        package var standardErrors: [Double?]
    }

    /// The Huber fit of `b ≈ A x`, `x ≥ 0`, with `A` given by its rows.
    ///
    /// - Complexity: O(*k*·*m*·*n*²) for *k* reweighting steps.
    package static func huber(rows: [[Double]], b: [Double]) throws(NonNegativeLeastSquares.Failure) -> Result {
        var x = try NonNegativeLeastSquares.solve(rows: rows, b: b).x
        let c = huberThreshold
        var scale = 0.0
        var weights = [Double](repeating: 1, count: b.count)
        var iterations = 0
        var converged = false
        // A scale this small next to the durations is rounding: the rows fit exactly.
        let exact = exactFitShare * (b.map(abs).max() ?? 0)
        while iterations < maximumIterations {
            let residuals = residuals(rows: rows, b: b, x: x)
            scale = median(residuals.map(abs)) / madPerSigma
            guard scale > exact else {
                // Half the rows fit exactly at these costs: any other row
                // is an outlier at any scale.
                scale = 0
                weights = residuals.map { abs($0) <= exact ? 1 : 0 }
                converged = true
                break
            }
            weights = residuals.map { abs($0) <= c * scale ? 1 : c * scale / abs($0) }
            let root = weights.map { $0.squareRoot() }
            let next = try NonNegativeLeastSquares.solve(
                rows: rows.indices.map { i in rows[i].map { $0 * root[i] } },
                b: b.indices.map { b[$0] * root[$0] }
            ).x
            iterations += 1
            let settled = zip(x, next).allSatisfy { old, new in
                abs(new - old) <= relativeTolerance * max(abs(old), abs(new)) || (old == 0 && new == 0)
            }
            x = next
            if settled {
                converged = true
                break
            }
        }
        let final = residuals(rows: rows, b: b, x: x)
        if scale > 0 {
            scale = median(final.map(abs)) / madPerSigma
            weights = final.map { abs($0) <= c * scale ? 1 : c * scale / abs($0) }
        }
        let errors = standardErrors(rows: rows, residuals: final, x: x, scale: scale, threshold: c)
        return Result(
            x: x, weights: weights, scale: scale, iterations: iterations, converged: converged, standardErrors: errors)
    }

    /// The least-squares fit of `b ≈ A x`, `x ≥ 0`, with classical standard errors.
    package static func leastSquares(rows: [[Double]], b: [Double]) throws(NonNegativeLeastSquares.Failure) -> Result {
        let x = try NonNegativeLeastSquares.solve(rows: rows, b: b).x
        let r = residuals(rows: rows, b: b, x: x)
        let free = x.filter { $0 > 0 }.count
        let dof = max(b.count - free, 1)
        let scale = (r.reduce(0) { $0 + $1 * $1 } / Double(dof)).squareRoot()
        let errors = standardErrors(rows: rows, residuals: r, x: x, scale: scale, threshold: .infinity)
        return Result(
            x: x, weights: b.map { _ in 1 }, scale: scale, iterations: 0, converged: true, standardErrors: errors)
    }

    /// Standard errors over the free coefficients (those above 0):
    /// Huber's H1 covariance, `K² · [Σψ²/(n−p)] / [Σψ'/n]² · s² · (AᵀA)⁻¹`
    /// with `K = 1 + (p/n)·var(ψ')/mean(ψ')²` and ψ the Huber function of
    /// `residual / s` (Huber 1981, §7.6; statsmodels' `RLM` `cov='H1'`).
    /// With an infinite threshold ψ is the identity and this is the
    /// classical `σ²(AᵀA)⁻¹`.
    static func standardErrors(
        rows: [[Double]], residuals: [Double], x: [Double], scale: Double, threshold: Double
    ) -> [Double?] {
        let free = x.indices.filter { x[$0] > 0 }
        var errors = [Double?](repeating: nil, count: x.count)
        let n = Double(residuals.count)
        let p = Double(free.count)
        guard !free.isEmpty, n > p, scale > 0,
            let inverse = inverseGram(rows: rows, columns: free)
        else { return errors }
        let u = residuals.map { $0 / scale }
        let psi = u.map { min(max($0, -threshold), threshold) }
        let derivative = u.map { abs($0) <= threshold ? 1.0 : 0.0 }
        let mean = derivative.reduce(0, +) / n
        guard mean > 0 else { return errors }
        let variance = derivative.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n
        let k = 1 + (p / n) * variance / (mean * mean)
        let factor = k * k * (psi.reduce(0) { $0 + $1 * $1 } / (n - p)) / (mean * mean) * scale * scale
        for (position, j) in free.enumerated() {
            let v = factor * inverse[position][position]
            errors[j] = v >= 0 ? v.squareRoot() : nil
        }
        return errors
    }

    /// `(AᵀA)⁻¹` over `columns`, by Cholesky on the Gram matrix of the
    /// columns scaled to unit length (then unscaled); `nil` when the
    /// columns are linearly dependent to working precision.
    static func inverseGram(rows: [[Double]], columns: [Int]) -> [[Double]]? {
        let p = columns.count
        var lengths = [Double](repeating: 0, count: p)
        for row in rows {
            for (a, j) in columns.enumerated() { lengths[a] += row[j] * row[j] }
        }
        lengths = lengths.map { $0.squareRoot() }
        guard lengths.allSatisfy({ $0 > 0 }) else { return nil }
        var gram = [[Double]](repeating: [Double](repeating: 0, count: p), count: p)
        for row in rows {
            let scaled = columns.enumerated().map { a, j in row[j] / lengths[a] }
            for a in 0..<p where scaled[a] != 0 {
                for b in a..<p { gram[a][b] += scaled[a] * scaled[b] }
            }
        }
        // Cholesky: gram = L Lᵀ.
        var l = [[Double]](repeating: [Double](repeating: 0, count: p), count: p)
        for a in 0..<p {
            for b in 0...a {
                var sum = gram[b][a]
                for k in 0..<b { sum -= l[a][k] * l[b][k] }
                if a == b {
                    guard sum > 1e-12 else { return nil }
                    l[a][a] = sum.squareRoot()
                } else {
                    l[a][b] = sum / l[b][b]
                }
            }
        }
        // L⁻¹ by forward substitution, then (L Lᵀ)⁻¹ = L⁻ᵀ L⁻¹.
        var inverseL = [[Double]](repeating: [Double](repeating: 0, count: p), count: p)
        for column in 0..<p {
            for a in column..<p {
                var sum = a == column ? 1.0 : 0.0
                for k in column..<a { sum -= l[a][k] * inverseL[k][column] }
                inverseL[a][column] = sum / l[a][a]
            }
        }
        var inverse = [[Double]](repeating: [Double](repeating: 0, count: p), count: p)
        for a in 0..<p {
            for b in 0..<p {
                var sum = 0.0
                for k in max(a, b)..<p { sum += inverseL[k][a] * inverseL[k][b] }
                inverse[a][b] = sum / (lengths[a] * lengths[b])
            }
        }
        return inverse
    }

    static func residuals(rows: [[Double]], b: [Double], x: [Double]) -> [Double] {
        rows.indices.map { i in b[i] - zip(rows[i], x).reduce(0) { $0 + $1.0 * $1.1 } }
    }

    /// The median: the middle value, or the mean of the two middle values.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
