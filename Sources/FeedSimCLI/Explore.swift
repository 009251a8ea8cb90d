import ArgumentParser
import CSVCodec
import FeedExplore
import FeedReports
import FeedScenario
import FeedSimulator
import FoundationEssentials
import Glibc
import SystemSupport

extension FeedSim {
    /// `feedsim explore`: random sessions under every strategy, checked
    /// against the properties; failures shrunk to minimal scenarios.
    struct Explore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explore",
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
                any --jobs. With --shard K/N only part K of the sessions runs and \
                explore-part.json is written beside; `feedsim merge` puts the parts \
                together, byte-identical to one whole exploration.

                Exit codes: 0 no violation, 2 violations found, 64 usage error, 65 \
                invalid configuration, 1 internal failure; 130 or 143 when interrupted.
                """
        )

        @Option(
            name: .long,
            help: ArgumentHelp(
                "An explore configuration (JSON; explore/schema.json). Default: every default.", valueName: "file"))
        var config: String?

        @Option(name: .long, help: "Sessions to run.")
        var sessions: Int = 200

        @Option(name: .long, help: "The explore seed: the same seed and options draw the same sessions.")
        var seed: UInt64 = 1

        @Option(name: .long, help: "Worker processes at once. Output is the same for any value.")
        var jobs: Int = 1

        @Option(name: .long, help: "Folder for explore.csv, violations.csv and failures/.")
        var out: String = "results/explore"

        @Option(
            name: .long,
            help: ArgumentHelp(
                """
                Explore only part K of N: the sessions whose index i has i % N == K-1, with their failures \
                shrunk. Also writes explore-part.json for `feedsim merge`.
                """,
                valueName: "k/n"))
        var shard: ShardSpec?

        @Option(
            name: .long,
            help: ArgumentHelp(
                """
                Folder of device profiles (default: devices/ beside the configuration or above it, then \
                scenarios/devices).
                """,
                valueName: "dir"))
        var devices: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The strategy every other is compared with, paired by session (default: the configuration's first).",
                valueName: "strategy"))
        var baseline: String?

        @Option(
            name: .customLong("write-session"),
            help: ArgumentHelp(
                """
                Write session N (as explore.csv names it, session-N) as a scenario file \
                OUT/sessions/session-N.json, with its device profile, instead of exploring; repeat for several. \
                `feedsim run` of the file gives explore.csv's numbers.
                """,
                valueName: "n"))
        var writeSessions: [Int] = []

        @Flag(name: .long, help: "Show no progress on stderr.")
        var quiet = false

        /// Sessions a worker process runs at a time: large enough that process
        /// start is a small share, small enough that progress moves.
        static let sessionsPerJob = 10

        func validate() throws {
            guard sessions >= 1, sessions <= 1_000_000 else {
                throw ValidationError("--sessions must be 1…1,000,000, got \(sessions).")
            }
            for index in writeSessions where index < 0 || index >= 1_000_000 {
                throw ValidationError("--write-session must be a session index 0…999,999, got \(index).")
            }
            guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs).") }
        }

        func run() throws {
            let interruption = Interruption.shared
            try shard?.validate()
            let setup = try ExploreSetup(config: config, devices: devices)
            if let note = setup.missingRatesNote { printError(note) }
            if !writeSessions.isEmpty {
                return try write(sessions: writeSessions, setup: setup, interruption: interruption)
            }
            let strategies = setup.config.variantNames
            if let baseline, !strategies.contains(baseline) {
                throw ValidationError(
                    "--baseline \(baseline) is not one of the variants explored: \(strategies.joined(separator: ", "))")
            }
            let workers = ExploreWorkers(jobs: jobs, interruption: interruption, setup: setup)
            let part = shard ?? ShardSpec(shard: 1, count: 1)
            let indices = part.indices(of: sessions)
            let chunks = stride(from: 0, to: indices.count, by: Explore.sessionsPerJob).map {
                ExploreJob(seed: seed, sessions: Array(indices[$0..<min(indices.count, $0 + Explore.sessionsPerJob)]))
            }
            let progress = Progress(total: indices.count, quiet: quiet)
            // Rows go to the staged files as sessions finish, in session
            // order; the coordinator keeps counts, never the sessions.
            var output = StagedFiles()
            let sink: ExploreSink
            do {
                sink = try ExploreSink(folder: URL(fileURLWithPath: out, isDirectory: true), output: &output)
                try workers.runInOrder(
                    chunks, out: out,
                    progress: { done in progress.finished(min(indices.count, done * Explore.sessionsPerJob)) }
                ) {
                    try sink.add($0)
                }
                progress.finish()
            } catch {
                output.discard()
                if error is CommandFailure { throw error }
                throw CommandFailure.internalFailure("cannot write results to \(out): \(error.readableDescription)")
            }
            let found: (tally: ExploreTally, firsts: [Violation.Located])
            do {
                found = try sink.finish()
            } catch {
                output.discard()
                throw CommandFailure.internalFailure("cannot write results to \(out): \(error.readableDescription)")
            }

            let toShrink = found.firsts
            if !toShrink.isEmpty, !quiet {
                printError("feedsim: shrinking \(toShrink.count) distinct failure\(toShrink.count == 1 ? "" : "s")")
            }
            let shrunk: [ExploreJob.ShrunkFailure]
            do {
                shrunk = try workers.run(toShrink.map { ExploreJob(seed: seed, shrink: [$0]) }, out: out) { _ in }
                    .flatMap(\.shrunk)
            } catch {
                output.discard()
                throw error
            }

            let outcome = ExploreOutcome(
                seed: seed, sessions: sessions, shard: part.shard, shardCount: part.count,
                inputsHash: setup.inputsHash(seed: seed, sessions: sessions), strategies: strategies,
                device: setup.config.device,
                deviceData: setup.deviceData, tally: found.tally, shrunk: shrunk, population: setup.population)
            if try outcome.write(
                to: out, explore: sink.exploreURL, output: output, baseline: baseline, manifest: shard != nil,
                interruption: interruption)
            {
                throw CommandFailure.regression
            }
        }
    }
}

extension FeedSim.Explore {
    /// The folder of OUT that `--write-session` writes.
    static let sessionsFolder = "sessions"

    /// Writes each session of `indices` as the scenario explore ran, with
    /// its device profile beside it as `devices/NAME.json`, so that
    /// `feedsim run OUT/sessions/session-N.json` runs what explore ran:
    /// the same variants, seed and refresh rate, the same numbers.
    func write(sessions indices: [Int], setup: ExploreSetup, interruption: Interruption) throws {
        let generator = SessionGenerator(config: setup.config, device: setup.device, seed: seed)
        let folder = URL(fileURLWithPath: out, isDirectory: true).appendingPathComponent(
            Self.sessionsFolder, isDirectory: true)
        var written: [String] = []
        try StagedFiles.write(to: folder.path, interruption: interruption) { output in
            for index in indices {
                let scenario = generator.session(index)
                try output.stage(scenario.fileText, to: folder.appendingPathComponent("\(scenario.name).json"))
                written.append("\(out)/\(Self.sessionsFolder)/\(scenario.name).json")
            }
            try output.stage(setup.deviceData, to: folder.appendingPathComponent("devices/\(setup.config.device).json"))
        }
        print("wrote \(written.joined(separator: ", ")) (explore seed \(seed); run with `feedsim run`)")
    }
}
