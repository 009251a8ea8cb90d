import ArgumentParser
import CSVCodec
import FeedExplore
import FeedReports
import FeedScenario
import FeedSimulator
import Foundation

extension FeedSim {
    /// `feedsim explore`: random sessions under every strategy, checked
    /// against the properties; failures shrunk to minimal scenarios.
    struct Explore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search random sessions for runs that break a strategy's claims or the engine's invariants.",
            discussion: """
                Draws --sessions random sessions from the configuration (swarm testing: \
                each session enables its own subset of actions), runs each under every \
                strategy with the same seed, and checks every run: drift after each change \
                its strategy claims to hold (at most 1 pt beyond what the content's edges \
                forced, unless the anchor post was removed), the engine's invariants, the \
                run's limits, and, for every n-th session, that a replay is identical. \
                Each distinct failure (property, strategy, cause) is shrunk to a small \
                scenario, OUT/failures/<property>-<k>.json, that `feedsim run` reproduces.

                Writes OUT/explore.csv (one row per session × strategy: summary.csv's \
                columns without the allocation counts, then `violations`), \
                OUT/violations.csv and OUT/failures/. The output is byte-identical for \
                any --jobs.

                Exit codes: 0 no violation, 2 violations found, 64 usage error, 65 \
                invalid configuration, 1 internal failure; 130 or 143 when interrupted.
                """
        )

        @Option(name: .long, help: ArgumentHelp("An explore configuration (JSON; explore/schema.json). Default: every default.", valueName: "file"))
        var config: String?

        @Option(name: .long, help: "Sessions to run.")
        var sessions: Int = 200

        @Option(name: .long, help: "The explore seed: the same seed and options draw the same sessions.")
        var seed: UInt64 = 1

        @Option(name: .long, help: "Worker processes at once. Output is the same for any value.")
        var jobs: Int = 1

        @Option(name: .long, help: "Folder for explore.csv, violations.csv and failures/.")
        var out: String = "results/explore"

        @Option(name: .long, help: ArgumentHelp("Folder of device profiles (default: devices/ beside the configuration or above it, then scenarios/devices).", valueName: "dir"))
        var devices: String?

        @Option(name: .long, help: ArgumentHelp("The strategy every other is compared with, paired by session (default: the configuration's first).", valueName: "strategy"))
        var baseline: String?

        @Flag(name: .long, help: "Show no progress on stderr.")
        var quiet = false

        /// Sessions a worker process runs at a time: large enough that process
        /// start is a small share, small enough that progress moves.
        static let sessionsPerJob = 10

        func validate() throws {
            guard sessions >= 1, sessions <= 1_000_000 else { throw ValidationError("--sessions must be 1…1,000,000, got \(sessions).") }
            guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs).") }
        }

        func run() throws {
            let interruption = Interruption.shared
            let setup = try ExploreSetup(config: config, devices: devices)
            let workers = ExploreWorkers(jobs: jobs, interruption: interruption, setup: setup)

            let chunks = stride(from: 0, to: sessions, by: Explore.sessionsPerJob).map {
                ExploreJob(seed: seed, sessions: Array($0..<min(sessions, $0 + Explore.sessionsPerJob)))
            }
            let progress = Progress(total: sessions, quiet: quiet)
            let explored = try workers.run(chunks, out: out) { done in progress.finished(min(sessions, done * Explore.sessionsPerJob)) }
            progress.finish()
            let results = explored.flatMap(\.sessions).sorted { $0.index < $1.index }
            let runs = results.flatMap(\.runs)
            let located = results.flatMap { session in
                session.runs.flatMap { run in run.violations.map { Violation.Located(session: session.index, violation: $0) } }
            }

            // The first failure of each identity, in session order, is shrunk.
            var firsts: [Violation.Identity: Violation.Located] = [:]
            for failure in located where firsts[failure.violation.identity] == nil { firsts[failure.violation.identity] = failure }
            let toShrink = firsts.keys.sorted().map { firsts[$0]! }
            if !toShrink.isEmpty, !quiet { printError("feedsim: shrinking \(toShrink.count) distinct failure\(toShrink.count == 1 ? "" : "s")") }
            let shrunk = try workers.run(toShrink.map { ExploreJob(seed: seed, shrink: [$0]) }, out: out) { _ in }
                .flatMap(\.shrunk)

            let failures = try ExploreFailures(shrunk: shrunk, seed: seed, setup: setup)
            let table = ExploreReport.exploreTable(runs)
            let comparison = try population(table, strategies: setup.config.strategies.map(\.name))
            try write(table: table, violations: located.map(\.violation), failures: failures, interruption: interruption)
            print(ExploreSummary.render(
                sessions: sessions, seed: seed, strategies: setup.config.strategies.map(\.name), runs: runs,
                violations: located.map(\.violation), failures: failures, comparison: comparison, out: out))
            if !located.isEmpty { throw FeedSimExit.regression }
        }

        /// The strategies over the population: each strategy's table, and
        /// every strategy against the baseline, paired by session.
        private func population(_ table: CSVTable, strategies: [String]) throws -> PairedComparison {
            let chosen = baseline ?? strategies[0]
            guard strategies.contains(chosen) else {
                throw ValidationError("--baseline \(chosen) is not one of the strategies explored: \(strategies.joined(separator: ", "))")
            }
            do {
                let rows = try SummaryFile(text: table.text, file: "explore.csv", requiredColumns: PopulationTable.exploreColumns)
                return try PairedComparison(
                    summary: rows, metrics: ExploreSummary.comparedMetrics, baseline: chosen)
            } catch {
                printError("cannot compare the strategies: \(error)")
                throw FeedSimExit.internalFailure
            }
        }

        private func write(table: CSVTable, violations: [Violation], failures: ExploreFailures, interruption: Interruption) throws {
            let folder = URL(fileURLWithPath: out, isDirectory: true)
            var output = StagedFiles()
            do {
                try output.stage(table.text, to: folder.appendingPathComponent("explore.csv"))
                try output.stage(ExploreReport.violationTable(violations).text, to: folder.appendingPathComponent("violations.csv"))
                try failures.stage(in: folder.appendingPathComponent(ExploreFailures.folder, isDirectory: true), output: &output)
                guard interruption.beginCommit() else {
                    output.discard()
                    printError(Interruption.message(signal: interruption.signal ?? SIGINT, out: out))
                    throw ExitCode(128 + (interruption.signal ?? SIGINT))
                }
                try output.commit()
            } catch let exit as ExitCode {
                throw exit
            } catch {
                output.discard()
                printError("cannot write results to \(out): \(error.localizedDescription)")
                throw FeedSimExit.internalFailure
            }
        }
    }
}
