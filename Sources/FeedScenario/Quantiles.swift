/// Sample quantiles, one definition for every reader of them: the
/// bootstrap's intervals, the importers' tables and fits, and draws from a
/// quantile table (a piecewise-linear CDF).
package enum Quantiles {
    /// The `p`-quantile of `sorted` (ascending, not empty), by linear
    /// interpolation between order statistics: Hyndman and Fan's type 7, the
    /// default of R and NumPy. `h = (n − 1)·p`, `x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])`.
    package static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        let h = Double(sorted.count - 1) * p
        let below = Int(h.rounded(.down))
        guard below + 1 < sorted.count else { return sorted[sorted.count - 1] }
        return sorted[below] + (h - Double(below)) * (sorted[below + 1] - sorted[below])
    }

    /// p0, p1, …, p100 of `values`, or `nil` when there are none.
    package static func table(_ values: [Double]) -> [Double]? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return (0..<ImportedNetwork.quantileCount).map { quantile(sorted, Double($0) / 100) }
    }
}
