import FeedExplore
import FeedReports

/// What `feedsim explore` prints: the violations by identity with their
/// shrunk repros, and how small shrinking made them.
enum ExploreSummary {
    /// The metrics the strategies are compared on, paired by session.
    static let comparedMetrics = [
        PopulationTable.driftColumn, "drift_events", PopulationTable.hitchColumn, PopulationTable.overrunColumn,
        PopulationTable.violationsColumn,
    ]

    /// Which part of an exploration a summary is of.
    struct Part {
        var shard: Int
        var count: Int
        var sessions: Int
    }

    static func render(
        sessions: Int, part: Part?, seed: UInt64, strategies: [String], tally: ExploreTally,
        failures: ExploreFailures, comparison: PairedComparison, out: String,
        population: String
    ) -> String {
        var text = part.map { "part \($0.shard)/\($0.count): \($0.sessions) of " } ?? ""
        text += "explored \(sessions) sessions × \(strategies.count) strategies (seed \(seed)): \(tally.runs) runs, "
        let failingSessions = tally.failingSessions
        text +=
            """
            \(tally.violations) violation\(tally.violations == 1 ? "" : "s") in \(failingSessions) \
            session\(failingSessions == 1 ? "" : "s")\n\n
            """
        text += "verdicts over the \(population)\n"
        text += comparison.terminalText
        guard tally.violations > 0 else {
            return text
                + """
                \nwrote \(out)/explore.csv, \
                \(out)/violations.csv\(part == nil ? "" : ", \(out)/\(ExploreOutcome.manifestName)")\n
                """
        }

        text += "\nviolations by property, strategy and cause (runs; shrunk repro):\n"
        for entry in failures.entries {
            let identity = entry.failure.found.identity
            let f = entry.failure
            text +=
                """
                  \(identity.property.rawValue) \
                \(identity.strategy)\(identity.cause.isEmpty ? "" : " \(identity.cause)"): \
                \(tally.runs(breaking: identity));\u{20}
                """
            text +=
                """
                \(out)/\(ExploreFailures.folder)/\(entry.file), \(f.stepsBefore) → \(f.stepsAfter) steps in \
                \(f.runs) runs\n
                """
        }
        let after = failures.entries.map(\.failure.stepsAfter)
        let before = failures.entries.map(\.failure.stepsBefore)
        let small = after.filter { $0 <= 5 }.count
        text += "\nshrunk repros: \(after.count); at most 5 steps: \(small) of \(after.count)"
        text += "; steps before: \(distribution(before)); after: \(distribution(after))\n"
        text +=
            """
            wrote \(out)/explore.csv, \(out)/violations.csv, \
            \(out)/\(ExploreFailures.folder)/\(part == nil ? "" : ", \(out)/\(ExploreOutcome.manifestName)")\n
            """
        return text
    }

    /// "min/median/max" of step counts.
    static func distribution(_ values: [Int]) -> String {
        let sorted = values.sorted()
        guard let first = sorted.first, let last = sorted.last else { return "-" }
        return "min \(first), median \(sorted[(sorted.count - 1) / 2]), max \(last)"
    }
}
