import ArgumentParser
import FeedReports
import FeedScenario
import FeedSimulator
import FoundationEssentials
import Glibc

extension FeedSim {
    /// `feedsim run`: run scenarios and write the CSV reports.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run scenario files and write summary.csv, drift.csv and frames.csv.",
            discussion: """
                Each scenario runs once per refresh rate it lists. The files are \
                written only when every run has finished, each atomically.

                With --shard K/N only part K of N runs: the requests (scenario files \
                sorted by path, then variants, then refresh rates) whose 0-based index \
                i has i % N == K-1. The part also writes shard.json; `feedsim merge` \
                puts the parts' files back together, byte-identical to one whole run.

                Progress goes to stderr: a bar on a terminal, otherwise a line every \
                tenth of the runs or every 10 s; --quiet turns it off (and only it: \
                the table still goes to stdout, and warnings and errors to stderr).

                Each scenario's device profile is read from devices/ beside its file or \
                in a folder above it, or from the folder --devices names.

                With --trace each run also writes a Chrome trace-event JSON file, \
                traces/<scenario>--<variant>--<hz>hz.json, staged and renamed with the \
                other files (open it in ui.perfetto.dev or chrome://tracing).

                With --seeds N every run is repeated under N seeds: the scenario's seed \
                (or --seed S) and the N-1 after it. Each run is a row of summary.csv \
                with its own seed; drift.csv and frames.csv end with a seed column, and \
                trace files with --seed<S>. `feedsim compare` then pairs the variants \
                by seed and gives a bootstrap interval of each difference.

                SIGINT (Ctrl-C) or SIGTERM stops the workers and exits 130 or 143 with \
                one line on stderr; the output folder is left exactly as it was (the \
                files are written to temporary names first and renamed together last).
                """
        )

        // Two defaults below (`paths`, `jobs`) are written in their help and
        // applied in code: a declared default is described by
        // ArgumentParser's generic printing, which looks up the value's
        // conformances at every start (0.8 M instructions for the list of
        // paths, 0.4 M for a number, of the 95 M a benchmark run takes).
        @Argument(help: "Scenario files or folders (searched recursively; devices/ is skipped). (default: scenarios)")
        var paths: [String] = []

        /// The scenario files and folders to run: `paths`, or `scenarios`.
        var scenarioPaths: [String] { paths.isEmpty ? ["scenarios"] : paths }

        @Option(name: .long, help: "Folder for the CSV files.")
        var out: String = "results/latest"

        @Flag(name: .long, help: "Also write frames.csv, one row per rendered frame.")
        var frames = false

        @Flag(
            name: .long,
            help:
                """
                Also write traces/<scenario>--<variant>--<hz>hz.json, one Chrome trace-event file per run (open \
                in ui.perfetto.dev).
                """
        )
        var trace = false

        @Option(name: .long, help: "Seed for every run, replacing each scenario's own.")
        var seed: UInt64?

        @Option(
            name: .long,
            help: ArgumentHelp(
                """
                Repeat every run under N seeds: the scenario's seed (or --seed) and the N-1 after it. Adds a seed \
                column to drift.csv and frames.csv.
                """,
                valueName: "n"))
        var seeds: Int?

        @Option(
            name: .long,
            help:
                """
                Runs to execute at once, each in its own process (a single run runs in this one). Output is the \
                same for any value. (default: 1)
                """
        )
        var jobs: Int?

        /// The runs to execute at once: `jobs`, or 1.
        var jobCount: Int { jobs ?? 1 }

        @Option(
            name: .long,
            help: ArgumentHelp(
                """
                Run only part K of N of the suite: the requests whose 0-based index i has i % N == K-1. Also \
                writes shard.json for `feedsim merge`.
                """,
                valueName: "k/n"))
        var shard: ShardSpec?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Folder of device profiles (default: devices/ beside each scenario file or in a folder above it).",
                valueName: "dir"))
        var devices: String?

        @Flag(name: .long, help: "Show no progress on stderr.")
        var quiet = false

        func validate() throws {
            guard jobCount >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobCount).") }
            if let seeds, seeds < 1 { throw ValidationError("--seeds must be at least 1, got \(seeds).") }
            try shard?.validate()
        }

        func run() throws {
            // Listening from the start, so that no signal finds the default
            // action and kills the command with its workers still running.
            let interruption = Interruption.shared
            let read = try ScenarioFiles.suite(
                scenarioPaths, seedOverride: seed, recordFrames: frames, recordTimeline: trace, devices: devices)
            let (files, scenarios) = (read.files, read.scenarios)
            let suite = read.requests.flatMap { $0.repeated(seeds: seeds ?? 1) }
            let plan = try shard.map {
                try ShardPlan(
                    $0, suite: suite, files: files, scenarios: scenarios, seedOverride: seed, frames: frames,
                    seeds: seeds)
            }
            let seeded = seeds != nil
            let requests = plan?.requests ?? suite
            let progress = Progress(total: requests.count, quiet: quiet)
            let results: [RunResult]
            do {
                if requests.count == 1 {
                    results = try [Self.runInProcess(requests[0], interruption: interruption, out: out)]
                    progress.finished(1)
                } else {
                    results = try RunWorkers(jobs: jobCount, interruption: interruption).run(requests) {
                        progress.finished($0)
                    }
                }
            } catch let stop as RunWorkers.Interrupted {
                progress.finish()
                throw CommandFailure.interrupted(signal: stop.signal, out: out)
            } catch {
                progress.finish()
                throw CommandFailure.internalFailure("\(error)")
            }
            progress.finish()
            if case .success(let reason?) = AllocationMeter.availability {
                printError(
                    "note: allocations not counted (\(reason)): the allocations and allocated_bytes columns are empty")
            }

            let folder = URL(fileURLWithPath: out, isDirectory: true)
            try StagedFiles.write(to: out, interruption: interruption) { output in
                try output.stage(RunReports.summary(results).text, to: folder.appendingPathComponent("summary.csv"))
                try output.stage(
                    RunReports.drift(results, seeded: seeded).text, to: folder.appendingPathComponent("drift.csv"))
                // Files this run does not write are removed, so the folder
                // never mixes this run's results with an earlier run's.
                try output.stage(
                    frames ? RunReports.frames(results, seeded: seeded).text : nil,
                    orRemove: folder.appendingPathComponent("frames.csv"))
                // Staged with the reports: renamed into place together, or not at all.
                try output.stageTraces(
                    trace
                        ? results.compactMap { result in
                            ChromeTrace.render(result).map {
                                TraceFile(name: ChromeTrace.fileName(for: result, seeded: seeded), data: Data($0.utf8))
                            }
                        } : nil,
                    in: folder)
                try ShardPlan.stage(plan?.manifest(results: results), in: folder, output: &output)
                try output.stage(Provenance.current.json, to: folder.appendingPathComponent(Provenance.fileName))
            }
            print(RunTable.render(results, seeded: seeded))
            print(
                """
                wrote \(out)/summary.csv, \
                \(out)/drift.csv\(frames ? ", \(out)/frames.csv" : "")\
                \(trace ? ", \(out)/\(ChromeTrace.folder)/" : "")\
                \(plan == nil ? "" : ", \(out)/\(ShardManifest.fileName)"), \(out)/\(Provenance.fileName)
                """
            )
        }
    }
}

extension FeedSim.Run {
    /// A single run needs no worker: it runs here, as a worker would run it
    /// (its warm-up first, so its allocation counts are the same), without
    /// a second process start and a second decode of its scenario.
    static func runInProcess(_ request: RunRequest, interruption: Interruption, out: String) throws -> RunResult {
        do {
            return try interruption.runningInProcess(message: { Interruption.message(signal: $0, out: out) }) {
                try WorkerRun.run(request)
            }
        } catch {
            throw RunWorkers.Failure(
                request: request, status: FeedSimExit.internalFailure.rawValue, message: "\(error)")
        }
    }
}

extension RunRequest {
    /// This request under `seeds` seeds, in order: its own seed and the
    /// `seeds − 1` after it (wrapping past `UInt64.max`).
    func repeated(seeds: Int) -> [RunRequest] {
        (0..<UInt64(seeds)).map { offset in
            var request = self
            request.seed = seed &+ offset
            return request
        }
    }
}
