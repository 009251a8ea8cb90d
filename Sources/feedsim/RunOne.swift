import ArgumentParser
import CParentDeath
import FeedReports
import FeedScenario
import FeedSimulator
import Foundation

extension FeedSim {
    /// `feedsim _run-one`: the worker `run` starts for each run. It runs one
    /// scenario at one rate with one variant and prints the run's report
    /// rows as JSON on stdout.
    struct RunOne: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_run-one",
            abstract: "Run a single scenario run (used internally by `run`).",
            shouldDisplay: false
        )

        @Option(name: .long) var file: String
        @Option(name: .customLong("refresh-hz")) var refreshHz: Int
        @Option(name: .long) var seed: UInt64
        @Option(name: .long) var variant: String = "default"
        @Flag(name: .long) var frames = false
        @Flag(name: .long) var trace = false
        /// The `feedsim run` that started this worker; the worker exits
        /// with it (see `ParentWatch`).
        @Option(name: .customLong("parent-pid")) var parentPID: Int32?

        func run() throws {
            if let parentPID { ParentWatch.exitWithParent(parentPID) }
            let loaded: LoadedScenario
            do {
                loaded = try ScenarioLoader.load(url: URL(fileURLWithPath: file), file: file)
            } catch {
                printError("invalid scenario: \(error)")
                throw FeedSimExit.invalidScenario
            }
            let request = RunRequest(
                loaded: loaded, refreshHz: refreshHz, seed: seed, variant: variant, recordFrames: frames, recordTimeline: trace)
            let result: RunResult
            do {
                // Two small runs shaped like this one pay the Swift runtime's
                // one-time costs first, so that allocation counts are the
                // engine's alone and the same from any folder.
                Simulation.warmUpRuntime(for: request)
                result = try Simulation(request: request).run()
            } catch {
                printError("\(error)")
                throw FeedSimExit.internalFailure
            }
            FileHandle.standardOutput.write(try RunRecord.encode(result))
        }
    }
}

/// Ties a worker's life to its `feedsim run`: a parent killed by SIGKILL
/// cannot stop its workers, so each worker asks the kernel for SIGKILL when
/// its parent exits (Linux `PR_SET_PDEATHSIG`), and checks that the parent
/// had not already gone before it asked. Elsewhere a thread polls the
/// parent's id instead.
enum ParentWatch {
    /// How often the fallback thread looks for the parent.
    static let pollInterval: TimeInterval = 0.5

    static func exitWithParent(_ parent: Int32) {
        // A worker is stopped by its parent; these restore the default
        // actions a worker started from an ignoring shell would lack.
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        let watched = feedsim_set_parent_death_signal(SIGKILL) == 0
        if getppid() != parent { orphaned(parent) }
        guard !watched else { return }
        Thread {
            while getppid() == parent { Thread.sleep(forTimeInterval: pollInterval) }
            orphaned(parent)
        }.start()
    }

    private static func orphaned(_ parent: Int32) -> Never {
        printError("feedsim _run-one: the run that started this worker (process \(parent)) is gone")
        exit(FeedSimExit.internalFailure.rawValue)
    }
}
