/// The nearest-rank percentile, the one definition every percentile of the
/// project uses (frame work and latency, calibration errors, population
/// tables): the value at rank ⌈p·n⌉ (1-based) of the sorted values, so it is
/// always one of the values, never an interpolation between two.
public enum NearestRank {
    /// The value at rank ⌈p·n⌉ of `sorted` (ascending), clamped to the first
    /// and last ranks; `nil` when `sorted` is empty.
    ///
    /// - Complexity: O(1).
    public static func percentile<Value>(_ sorted: [Value], _ p: Double) -> Value? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
