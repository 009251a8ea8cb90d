import ArgumentParser
import CSVCodec
import FeedExplore
import FeedReports
import Foundation

/// Everything an exploration (or a part of one) found: what its files and
/// its summary are made from. A part writes it as explore-part.json, so that
/// `feedsim merge` can make the whole exploration's files from the parts.
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
    /// This part's sessions, by index.
    var results: [ExploreJob.SessionResult]
    /// The first failure of each identity among them, shrunk.
    var shrunk: [ExploreJob.ShrunkFailure]

    /// Of `located` (in session order), the first failure of each identity,
    /// in identity order: the ones an exploration shrinks.
    static func firstOfEachIdentity(_ located: [Violation.Located]) -> [Violation.Located] {
        var firsts: [Violation.Identity: Violation.Located] = [:]
        for failure in located where firsts[failure.violation.identity].map({ failure.session < $0.session }) ?? true {
            firsts[failure.violation.identity] = failure
        }
        return firsts.keys.sorted().map { firsts[$0]! }
    }

    /// The whole exploration from its parts: every part of the same
    /// exploration, each once.
    static func merged(_ parts: [(folder: String, outcome: ExploreOutcome)]) throws -> ExploreOutcome {
        guard let first = parts.first?.outcome else { throw ValidationError("no parts") }
        for (folder, part) in parts {
            guard part.seed == first.seed, part.sessions == first.sessions, part.shardCount == first.shardCount,
                  part.inputsHash == first.inputsHash, part.strategies == first.strategies
            else {
                throw ValidationError("\(folder) is a part of another exploration (seed, sessions, configuration, device or N differ from \(parts[0].folder))")
            }
        }
        let shards = parts.map(\.outcome.shard).sorted()
        guard shards == Array(1...first.shardCount) else {
            throw ValidationError("expected parts 1…\(first.shardCount) each once, found \(shards.map(String.init).joined(separator: ", "))")
        }
        let results = parts.flatMap(\.outcome.results).sorted { $0.index < $1.index }
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
        whole.results = results
        whole.shrunk = chosen.keys.sorted().map { chosen[$0]! }
        return whole
    }

    /// Writes explore.csv, violations.csv and failures/ (and, for a part,
    /// explore-part.json) into `out`, staged and renamed together, and
    /// prints the summary. Returns whether any run broke a property.
    func write(to out: String, baseline: String?, manifest: Bool, interruption: Interruption?) throws -> Bool {
        let runs = results.flatMap(\.runs)
        let violations = results.flatMap(\.located).map(\.violation)
        let failures = try ExploreFailures(shrunk: shrunk, seed: seed, device: device, deviceData: deviceData)
        let table = ExploreReport.exploreTable(runs)
        let comparison = try population(table, baseline: baseline ?? strategies[0])
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        try StagedFiles.write(to: out, interruption: interruption) { output in
            try output.stage(table.text, to: folder.appendingPathComponent("explore.csv"))
            try output.stage(ExploreReport.violationTable(violations).text, to: folder.appendingPathComponent("violations.csv"))
            try failures.stage(in: folder.appendingPathComponent(ExploreFailures.folder, isDirectory: true), output: &output)
            try output.stage(Provenance.current.json, to: folder.appendingPathComponent(Provenance.fileName))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try output.stage(manifest ? String(decoding: try encoder.encode(self), as: UTF8.self) : nil,
                             orRemove: folder.appendingPathComponent(ExploreOutcome.manifestName))
        }
        let part = shardCount > 1 ? ExploreSummary.Part(shard: shard, count: shardCount, sessions: results.count) : nil
        print(ExploreSummary.render(
            sessions: sessions, part: part, seed: seed, strategies: strategies, runs: runs, violations: violations,
            failures: failures, comparison: comparison, out: out))
        return !violations.isEmpty
    }

    /// The strategies over the population: each strategy's table, and every
    /// strategy against `baseline`, paired by session.
    private func population(_ table: CSVTable, baseline: String) throws -> PairedComparison {
        do {
            let rows = try SummaryFile(text: table.text, file: "explore.csv", requiredColumns: PopulationTable.exploreColumns)
            return try PairedComparison(summary: rows, metrics: ExploreSummary.comparedMetrics, baseline: baseline)
        } catch {
            printError("cannot compare the strategies: \(error)")
            throw FeedSimExit.internalFailure
        }
    }
}

extension ExploreJob.SessionResult {
    /// Its violations, with the session's index.
    var located: [Violation.Located] {
        runs.flatMap { run in run.violations.map { Violation.Located(session: index, violation: $0) } }
    }
}
