import Determinism
import Testing

@testable import FeedSimulator

/// Small problems whose answers were worked out by hand.
@Suite("Non-negative least squares")
struct NonNegativeLeastSquaresTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var rows: [[Double]]
        var b: [Double]
        var x: [Double]
        var residual: Double
        var testDescription: String { label }
    }

    @Test(
        "hand-computed minimisers",
        arguments: [
            Case(label: "identity, positive b: x is b", rows: [[1, 0], [0, 1]], b: [1, 2], x: [1, 2], residual: 0),
            Case(
                label: "identity, one negative entry of b clamps to 0", rows: [[1, 0], [0, 1]], b: [1, -1], x: [1, 0],
                residual: 1),
            // Unconstrained: intercept 4, slope −1. With the slope held at 0 the
            // intercept is the mean of b, 2, and the residuals are 1, 0, −1.
            Case(
                label: "a falling line: the slope clamps to 0, the intercept becomes the mean",
                rows: [[1, 1], [1, 2], [1, 3]], b: [3, 2, 1], x: [2, 0], residual: 2.0.squareRoot()),
            // Unconstrained: x = (−4, 4.5). With x₁ = 0, x₂ = (2·5 + 4·6)/(2² + 4²)
            // = 1.7, residual (1.6, −0.8), and x₁'s gradient 1·1.6 + 3·(−0.8) < 0.
            Case(
                label: "square system whose exact solution is negative in x₁",
                rows: [[1, 2], [3, 4]], b: [5, 6], x: [0, 1.7], residual: 3.2.squareRoot()),
            Case(label: "a column of zeros gets 0", rows: [[1, 0], [2, 0]], b: [1, 2], x: [1, 0], residual: 0),
            // Columns a million apart in scale: scaling keeps the answer exact.
            Case(
                label: "badly scaled columns", rows: [[1, 1_000_000], [1, 2_000_000], [1, 5_000_000]],
                b: [3_000_001, 6_000_001, 15_000_001], x: [1, 3], residual: 0),
            Case(label: "no rows", rows: [], b: [], x: [], residual: 0),
        ])
    func handComputed(_ example: Case) throws {
        let solution = try NonNegativeLeastSquares.solve(rows: example.rows, b: example.b)
        // Rounding is relative to the size of b.
        let tolerance = 1e-10 * max(1, example.b.map(abs).max() ?? 0)
        #expect(solution.x.count == example.x.count)
        for (found, expected) in zip(solution.x, example.x) {
            #expect(abs(found - expected) <= tolerance, "x = \(solution.x), expected \(example.x)")
        }
        #expect(solution.x.allSatisfy { $0 >= 0 })
        #expect(abs(solution.residualNorm - example.residual) <= tolerance, "residual \(solution.residualNorm)")
    }

    @Test("every solution meets the optimality conditions: x ≥ 0, gradient ≤ 0, and = 0 where x > 0")
    func karushKuhnTucker() throws {
        var generator = Xoshiro256StarStar(seed: 7)
        for trial in 0..<200 {
            let m = 3 + trial % 6
            let n = 1 + trial % 5
            let rows = (0..<m).map { _ in (0..<n).map { _ in generator.nextUnit() * 2 - 1 } }
            let b = (0..<m).map { _ in generator.nextUnit() * 2 - 1 }
            let x = try NonNegativeLeastSquares.solve(rows: rows, b: b).x
            let residual = (0..<m).map { i in b[i] - zip(rows[i], x).reduce(0) { $0 + $1.0 * $1.1 } }
            for j in 0..<n {
                let gradient = (0..<m).reduce(0) { $0 + rows[$1][j] * residual[$1] }
                #expect(x[j] >= 0, "trial \(trial)")
                #expect(gradient <= 1e-9, "trial \(trial): column \(j) could still lower the residual")
                if x[j] > 0 { #expect(abs(gradient) <= 1e-9, "trial \(trial): column \(j) is not at its optimum") }
            }
        }
    }

    @Test("dependent columns: zeros and combinations of earlier columns, in order")
    func dependentColumns() {
        let rows: [[Double]] = [[1, 2, 0, 1, 0], [1, 2, 0, 2, 1], [1, 2, 0, 3, 2]]
        // Column 1 is twice column 0, 2 is zero, 4 is column 3 minus column 0.
        #expect(NonNegativeLeastSquares.dependentColumns(rows) == [1, 2, 4])
        #expect(NonNegativeLeastSquares.dependentColumns([[1, 0], [0, 1], [1, 1]]).isEmpty)
    }

    @Test("rows of unequal length and values that are not finite are refused")
    func refusals() {
        #expect(throws: NonNegativeLeastSquares.Failure.shapeMismatch) {
            try NonNegativeLeastSquares.solve(rows: [[1, 2], [3]], b: [1, 2])
        }
        #expect(throws: NonNegativeLeastSquares.Failure.shapeMismatch) {
            try NonNegativeLeastSquares.solve(rows: [[1], [2]], b: [1])
        }
        #expect(throws: NonNegativeLeastSquares.Failure.notFinite) {
            try NonNegativeLeastSquares.solve(rows: [[1], [.nan]], b: [1, 2])
        }
    }
}
