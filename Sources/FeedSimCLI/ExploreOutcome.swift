import ArgumentParser
import CSVCodec
import FeedExplore
import FeedReports
import FoundationEssentials
import Glibc

/// Everything an exploration (or a part of one) found beside its rows: what
/// its summary and failures/ are made from. explore.csv and violations.csv
/// are written as the sessions finish and never held whole; a part writes
/// this as explore-part.json, and `feedsim merge` merges the parts' CSV
/// files row by row and sums their tallies.
struct ExploreOutcome: Codable {
    static let manifestName = "explore-part.json"

    var seed: UInt64
    /// Sessions in the whole exploration.
    var sessions: Int
    var shard: Int
    var shardCount: Int
    /// A hash of the configuration and device files, the seed and the session count.
    var inputsHash: String
    var strategies: [String]
    var device: String
    var deviceData: Data
    /// This part's sessions counted.
    var tally: ExploreTally
    /// The first failure of each identity among them, shrunk.
    var shrunk: [ExploreJob.ShrunkFailure]
    /// Which sessions the verdicts are over (`ExploreSetup.population`),
    /// written beside explore.csv as population.json; nil in a part written
    /// before it was recorded: the swarm's.
    var population: ExplorePopulation?

    /// The whole exploration from its parts: every part of the same
    /// exploration, each once, in shard order.
    static func merged(_ parts: [(folder: String, outcome: ExploreOutcome)]) throws -> ExploreOutcome {
        guard let first = parts.first?.outcome else { throw ValidationError("no parts") }
        for (folder, part) in parts {
            guard part.seed == first.seed, part.sessions == first.sessions, part.shardCount == first.shardCount,
                part.inputsHash == first.inputsHash, part.strategies == first.strategies
            else {
                throw ValidationError(
                    """
                    \(folder) is a part of another exploration (seed, sessions, configuration, device or N differ \
                    from \(parts[0].folder))
                    """
                )
            }
        }
        let shards = parts.map(\.outcome.shard).sorted()
        guard shards == Array(1...first.shardCount) else {
            throw ValidationError(
                """
                expected parts 1…\(first.shardCount) each once, found \
                \(shards.map(String.init).joined(separator: ", "))
                """
            )
        }
        // Each part shrank the first failure of each identity among its own
        // sessions; the whole exploration's is the earliest of those.
        var chosen: [Violation.Identity: ExploreJob.ShrunkFailure] = [:]
        for failure in parts.flatMap(\.outcome.shrunk) {
            let identity = failure.found.identity
            if chosen[identity].map({ failure.session < $0.session }) ?? true { chosen[identity] = failure }
        }
        var whole = first
        whole.shard = 1
        whole.shardCount = 1
        whole.tally = parts.dropFirst().reduce(first.tally) { $0.adding($1.outcome.tally) }
        whole.shrunk = chosen.keys.sorted().map { chosen[$0]! }
        return whole
    }

    /// Stages failures/ (and, for a part, explore-part.json) beside the
    /// explore.csv and violations.csv `output` already holds, renames them
    /// all into `out` together, and prints the summary. The population is
    /// read back from the staged `explore` file. Returns whether any run
    /// broke a property.
    func write(
        to out: String, explore: URL, output: StagedFiles, baseline: String?, manifest: Bool,
        interruption: Interruption?
    ) throws -> Bool {
        var output = output
        let failures: ExploreFailures
        let comparison: PairedComparison
        do {
            failures = try ExploreFailures(shrunk: shrunk, seed: seed, device: device, deviceData: deviceData)
            comparison = try population(explore, baseline: baseline ?? strategies[0])
        } catch {
            output.discard()
            throw error
        }
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        try StagedFiles.write(to: out, interruption: interruption, staged: output) { output in
            try failures.stage(
                in: folder.appendingPathComponent(ExploreFailures.folder, isDirectory: true), output: &output)
            try output.stage(Provenance.current.json, to: folder.appendingPathComponent(Provenance.fileName))
            try output.stage(
                (population ?? .swarm).fileText, to: folder.appendingPathComponent(ExplorePopulation.fileName))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try output.stage(
                manifest ? String(decoding: try encoder.encode(self), as: UTF8.self) : nil,
                orRemove: folder.appendingPathComponent(ExploreOutcome.manifestName))
        }
        let part = shardCount > 1 ? ExploreSummary.Part(shard: shard, count: shardCount, sessions: tally.sessions) : nil
        print(
            ExploreSummary.render(
                sessions: sessions, part: part, seed: seed, strategies: strategies, tally: tally,
                failures: failures, comparison: comparison, out: out,
                population: (population ?? .swarm).text))
        return tally.violations > 0
    }

    /// The strategies over the population read back from `explore` as
    /// columns of numbers (`PopulationColumns`), as `compare` reads a large
    /// explore.csv: each strategy's table, and every strategy against
    /// `baseline`, paired by session. Memory grows with the sessions by the
    /// few numbers each compared row keeps, not by its text.
    private func population(_ explore: URL, baseline: String) throws -> PairedComparison {
        do {
            return try PairedComparison.streaming(
                url: explore, file: "explore.csv", metrics: ExploreSummary.comparedMetrics, pairing: .baseline(baseline)
            )
        } catch {
            throw CommandFailure.internalFailure("cannot compare the strategies: \(error)")
        }
    }
}
