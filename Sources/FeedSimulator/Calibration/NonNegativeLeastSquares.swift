/// Non-negative least squares: the `x ≥ 0` that minimises `‖Ax − b‖₂`, by
/// the active-set method of Lawson and Hanson (C. L. Lawson and R. J.
/// Hanson, *Solving Least Squares Problems*, Prentice-Hall 1974, chapter 23,
/// algorithm NNLS).
///
/// Three things keep it accurate on badly scaled data such as frame traces,
/// where one column counts frames and another characters of text:
/// - each column is scaled to unit length first (a positive scaling keeps
///   `x ≥ 0` and the solution set, and evens out the condition number);
/// - `A` is reduced once by Householder QR to its triangle `R` and `Qᵀb`,
///   and the active-set loop runs on that `n × n` problem, which has the same
///   minimiser, so nothing ever forms `AᵀA` and squares the condition number;
/// - every least-squares subproblem is solved by Householder QR as well.
package enum NonNegativeLeastSquares {
    /// What the solver found.
    package struct Solution: Sendable, Equatable {
        /// The minimiser, one entry per column of `A`, every entry ≥ 0.
        package var x: [Double]
        /// `‖Ax − b‖₂` at `x`.
        package var residualNorm: Double
        /// Columns the active-set loop moved into the passive set.
        package var iterations: Int
    }

    /// Why the solver could not run.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// A row's length differs from the first row's, or `b` has a length
        /// other than the number of rows.
        case shapeMismatch
        /// `A` or `b` holds a NaN or an infinity.
        case notFinite
        /// The active-set loop passed its bound (Lawson and Hanson's 3n),
        /// which only rounding trouble can cause.
        case iterationLimit(Int)

        package var description: String {
            switch self {
            case .shapeMismatch: "the rows of A and the length of b do not agree"
            case .notFinite: "A or b holds a value that is not a finite number"
            case let .iterationLimit(limit): "no solution after \(limit) active-set iterations"
            }
        }
    }

    /// The `x ≥ 0` minimising `‖Ax − b‖₂`, with `A` given by its rows.
    ///
    /// A column of zeros gets 0. Where columns are linearly dependent the
    /// minimiser is not unique and the solver returns one of them; callers
    /// that must know each coefficient check first with
    /// `dependentColumns(_:)`.
    ///
    /// - Complexity: O(*m*·*n*²) to reduce the *m* × *n* matrix to its
    ///   triangle, then O(*n*³) per active-set step, at most 3*n* steps.
    package static func solve(rows: [[Double]], b: [Double]) throws(Failure) -> Solution {
        let m = rows.count
        let n = rows.first?.count ?? 0
        guard b.count == m, rows.allSatisfy({ $0.count == n }) else { throw .shapeMismatch }
        guard b.allSatisfy(\.isFinite), rows.allSatisfy({ $0.allSatisfy(\.isFinite) }) else { throw .notFinite }
        guard n > 0 else { return Solution(x: [], residualNorm: norm(b), iterations: 0) }

        // Column-major and scaled to unit length.
        var columns = (0..<n).map { j in rows.map { $0[j] } }
        let scales = columns.map(norm)
        for j in 0..<n where scales[j] > 0 {
            for i in 0..<m { columns[j][i] /= scales[j] }
        }
        var rhs = b
        triangularize(&columns, &rhs, dropDependent: false)
        let k = min(m, n)
        // The reduced problem: min ‖R y − c‖ over the first k rows.
        let reduced = columns.map { Array($0.prefix(k)) }
        let c = Array(rhs.prefix(k))

        var y = try activeSet(columns: reduced, b: c, usable: scales.map { $0 > 0 })
        for j in 0..<n { y.x[j] = scales[j] > 0 ? y.x[j] / scales[j] : 0 }
        let residual = (0..<m).map { i in b[i] - zip(rows[i], y.x).reduce(0) { $0 + $1.0 * $1.1 } }
        return Solution(x: y.x, residualNorm: norm(residual), iterations: y.iterations)
    }

    /// Indices of the columns that are (to within `tolerance`, relative to
    /// each column's length) linear combinations of the columns before them,
    /// in order; zero columns among them. A least-squares fit cannot tell
    /// such a column's coefficient from the others'.
    ///
    /// - Complexity: O(*m*·*n*²).
    package static func dependentColumns(_ rows: [[Double]], tolerance: Double = 1e-9) -> [Int] {
        let n = rows.first?.count ?? 0
        var columns = (0..<n).map { j in rows.map { $0[j] } }
        for j in 0..<n {
            let length = norm(columns[j])
            if length > 0 { columns[j] = columns[j].map { $0 / length } }
        }
        var none = [Double](repeating: 0, count: rows.count)
        return triangularize(&columns, &none, dropDependent: true, tolerance: tolerance).dependent
    }

    /// Lawson and Hanson's loop on a problem small enough to solve its
    /// subproblems from scratch; `usable[j]` false pins `x[j]` at 0.
    private static func activeSet(
        columns: [[Double]], b: [Double], usable: [Bool]
    ) throws(Failure) -> (x: [Double], iterations: Int) {
        let n = columns.count
        let m = b.count
        let columnSums = columns.map { $0.reduce(0) { $0 + abs($1) } }
        // The tolerance on the dual (gradient) SciPy and Lawson–Hanson's
        // reference code use: 10 ε ‖A‖₁ max(m, n).
        let tolerance = 10 * Double.ulpOfOne * (columnSums.max() ?? 0) * Double(max(m, n))
        let limit = 3 * n
        var x = [Double](repeating: 0, count: n)
        var passive = [Bool](repeating: false, count: n)
        // A column whose own subproblem gave it no positive value cannot
        // enter again until x moves (Lawson and Hanson, step 6).
        var blocked = [Bool](repeating: false, count: n)
        var iterations = 0

        func gradient() -> [Double] {
            let residual: [Double] = (0..<m).map { (i: Int) -> Double in
                var fitted = 0.0
                for j in 0..<n { fitted += columns[j][i] * x[j] }
                return b[i] - fitted
            }
            return columns.map { (column: [Double]) -> Double in
                var dot = 0.0
                for (a, r) in zip(column, residual) { dot += a * r }
                return dot
            }
        }

        while true {
            let w = gradient()
            var entering: Int?
            for j in 0..<n where usable[j] && !passive[j] && !blocked[j] && w[j] > tolerance {
                if entering.map({ w[j] > w[$0] }) ?? true { entering = j }
            }
            guard let t = entering else { break }
            iterations += 1
            guard iterations <= limit else { throw .iterationLimit(limit) }
            passive[t] = true
            var first = true
            while true {
                let z = subproblem(columns: columns, b: b, passive: passive)
                if first, z[t] <= 0 {
                    passive[t] = false
                    blocked[t] = true
                    break
                }
                first = false
                if (0..<n).allSatisfy({ !passive[$0] || z[$0] > 0 }) {
                    x = z
                    blocked = [Bool](repeating: false, count: n)
                    break
                }
                // Step back to the boundary: the largest move towards z that
                // keeps every passive x ≥ 0; the column that reaches 0 leaves.
                var alpha = Double.infinity
                var leaving = t
                for j in 0..<n where passive[j] && z[j] <= 0 {
                    let step = x[j] / (x[j] - z[j])
                    if step < alpha {
                        alpha = step
                        leaving = j
                    }
                }
                for j in 0..<n where passive[j] {
                    x[j] += alpha * (z[j] - x[j])
                    if j == leaving || x[j] <= 0 {
                        x[j] = 0
                        passive[j] = false
                    }
                }
                blocked = [Bool](repeating: false, count: n)
            }
        }
        return (x, iterations)
    }

    /// The unconstrained least-squares solution on the passive columns,
    /// 0 elsewhere.
    private static func subproblem(columns: [[Double]], b: [Double], passive: [Bool]) -> [Double] {
        let chosen = columns.indices.filter { passive[$0] }
        var sub = chosen.map { columns[$0] }
        var rhs = b
        triangularize(&sub, &rhs, dropDependent: false)
        var z = [Double](repeating: 0, count: columns.count)
        var solved = [Double](repeating: 0, count: chosen.count)
        let largest = (0..<min(chosen.count, b.count)).map { abs(sub[$0][$0]) }.max() ?? 0
        for j in stride(from: min(chosen.count, b.count) - 1, through: 0, by: -1) {
            let diagonal = sub[j][j]
            // A column the others already span gets 0, which moves it out
            // of the passive set.
            guard abs(diagonal) > 1e-12 * largest else { continue }
            var sum = rhs[j]
            for l in (j + 1)..<chosen.count { sum -= sub[l][j] * solved[l] }
            solved[j] = sum / diagonal
        }
        for (position, j) in chosen.enumerated() { z[j] = solved[position] }
        return z
    }

    /// Householder QR in place: column `j` of `columns` becomes column `j`
    /// of `R` (its entries below the diagonal zero) and `b` becomes `Qᵀb`.
    /// With `dropDependent`, a column whose part outside the span of the
    /// earlier ones is shorter than `tolerance` is left out of the
    /// triangle and reported.
    @discardableResult
    private static func triangularize(
        _ columns: inout [[Double]], _ b: inout [Double], dropDependent: Bool, tolerance: Double = 0
    ) -> (rank: Int, dependent: [Int]) {
        let m = b.count
        var row = 0
        var dependent: [Int] = []
        for j in columns.indices {
            guard row < m else {
                if dropDependent { dependent.append(j) }
                continue
            }
            let length = norm(columns[j][row..<m])
            if dropDependent, length <= tolerance {
                dependent.append(j)
                continue
            }
            guard length > 0 else {
                row += 1
                continue
            }
            let alpha = columns[j][row] > 0 ? -length : length
            var v = Array(columns[j][row..<m])
            v[0] -= alpha
            let vv = v.reduce(0) { $0 + $1 * $1 }
            if vv > 0 {
                func reflect(_ target: inout [Double]) {
                    var s = 0.0
                    for i in 0..<v.count { s += v[i] * target[row + i] }
                    let f = 2 * s / vv
                    for i in 0..<v.count { target[row + i] -= f * v[i] }
                }
                for l in (j + 1)..<columns.count { reflect(&columns[l]) }
                reflect(&b)
            }
            columns[j][row] = alpha
            for i in (row + 1)..<m { columns[j][i] = 0 }
            row += 1
        }
        return (row, dependent)
    }

    private static func norm<C: Collection>(_ values: C) -> Double where C.Element == Double {
        // Scaled, so that squares of large counts cannot overflow.
        let largest = values.reduce(0) { max($0, abs($1)) }
        guard largest > 0, largest.isFinite else { return largest }
        return largest * values.reduce(0) { $0 + ($1 / largest) * ($1 / largest) }.squareRoot()
    }
}
