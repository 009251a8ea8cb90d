/// How a family of comparisons made at once is corrected, so that the
/// chance of calling any true tie "better" or "worse" stays at the
/// confidence level's complement for the family, not for each comparison.
package enum MultipleComparisons: String, Hashable, Sendable, CaseIterable {
    /// Holm's step-down procedure (Holm, "A Simple Sequentially Rejective
    /// Multiple Test Procedure", Scand. J. Statistics 6, 1979): controls
    /// the family-wise error rate under any dependence between the tests,
    /// and rejects everything Bonferroni rejects, and often more.
    case holm
    /// No correction: each comparison at the level on its own.
    case none

    /// The correction applied when none is chosen.
    package static let `default` = MultipleComparisons.holm

    /// The p-values of `pValues` adjusted for the family they form, in the
    /// same order: a hypothesis is rejected at level α when its adjusted
    /// p-value is at most α.
    ///
    /// Holm: sorted ascending as p₍₁₎ ≤ … ≤ p₍ₘ₎, the adjusted value of
    /// p₍ᵢ₎ is maxⱼ≤ᵢ min(1, (m − j + 1) · p₍ⱼ₎), the definition
    /// statsmodels' `multipletests(method="holm")` computes. Ties keep
    /// their input order.
    ///
    /// - Complexity: O(*m* log *m*).
    package func adjusted(_ pValues: [Double]) -> [Double] {
        switch self {
        case .none:
            return pValues
        case .holm:
            let m = pValues.count
            let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
            var adjusted = [Double](repeating: 1, count: m)
            var running = 0.0
            for (rank, index) in order.enumerated() {
                running = max(running, min(1, Double(m - rank) * pValues[index]))
                adjusted[index] = running
            }
            return adjusted
        }
    }

    /// How the output names it.
    package var description: String {
        switch self {
        case .holm: "Holm"
        case .none: "none"
        }
    }
}
