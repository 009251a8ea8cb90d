import ArgumentParser
import CParentDeath
import FeedReports
import FeedScenario
import FeedSimulator
import FoundationEssentials
import Glibc
import SystemSupport

extension FeedSim {
    /// `feedsim _run-one`: runs one scenario at one rate with one variant and
    /// prints the run's record as JSON on stdout. `run` uses `_run-batch`;
    /// this is the same work for a single run, by hand or in a profiler.
    struct RunOne: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_run-one",
            abstract: "Run a single scenario run (used internally).",
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
            if let parentPID { ParentWatch.exitWithParent(parentPID, command: Self.configuration.commandName ?? "") }
            let order = RunOrder(
                file: file, refreshHz: refreshHz, seed: seed, variant: variant, frames: frames, trace: trace)
            var scenarios = ScenarioCache()
            var warmUps = WarmUpLog()
            let reply = WorkerRun.execute(order, scenarios: &scenarios, warmUps: &warmUps)
            guard let result = reply.result else {
                throw CommandFailure.of(reply.failure, message: reply.message ?? "the run failed")
            }
            try WritableFile.standardOutput.write(try RunRecord.encode(result))
        }
    }

    /// `feedsim _run-batch`: the worker `run` starts, one per job. It reads
    /// `RunOrder`s, one JSON line each, from standard input (or `--orders`),
    /// runs them one after the other in this one process, and answers each
    /// with a `RunReply` line on standard output as soon as it has run, so
    /// process start is paid once per worker, not once per run.
    struct RunBatch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_run-batch",
            abstract: "Run a list of scenario runs in one process (used internally by `run`).",
            shouldDisplay: false
        )

        @Option(name: .long, help: "A file of run orders, one JSON line each, instead of standard input.")
        var orders: String?
        /// The `feedsim run` that started this worker; the worker exits
        /// with it (see `ParentWatch`).
        @Option(name: .customLong("parent-pid")) var parentPID: Int32?
        /// The parts the parent knows by name (`RegisteredParts`).
        @Option(name: .customLong("parts")) var parentParts: String?

        func run() throws {
            if let parentPID { ParentWatch.exitWithParent(parentPID, command: Self.configuration.commandName ?? "") }
            try RegisteredParts.check(parentParts: parentParts, command: Self.configuration.commandName ?? "")
            var lines: AnyIterator<String>
            if let orders {
                guard let text = try? String(contentsOfFile: orders, encoding: .utf8) else {
                    throw CommandFailure.usage("cannot read the run orders in \(orders)")
                }
                lines = AnyIterator(
                    text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).makeIterator())
            } else {
                lines = AnyIterator { readLine(strippingNewline: true) }
            }
            // Each scenario decoded once and each distinct warm-up run once
            // while its orders follow one another (every seed of a scenario).
            var scenarios = ScenarioCache()
            var warmUps = WarmUpLog()
            for line in lines where !line.isEmpty {
                let order: RunOrder
                do {
                    order = try RunOrder.decode(line: Data(line.utf8))
                } catch {
                    throw CommandFailure.usage("not a run order: \(line.prefix(200)): \(error)")
                }
                try WritableFile.standardOutput.write(
                    try WorkerRun.execute(order, scenarios: &scenarios, warmUps: &warmUps).line())
            }
        }
    }
}

/// What a worker does with one order.
enum WorkerRun {
    /// Reads the order's scenario, pays the Swift runtime's one-time costs
    /// with a warm-up shaped like the run, and runs it. The warm-up comes
    /// before every run, so that its allocation counts are the engine's
    /// alone: the same whether the run is the first in its process or comes
    /// after any others. A warm-up `warmUps` saw this process run already
    /// is not run again: it would pay nothing. The scenario comes from
    /// `scenarios`, decoded once while the orders name the same bytes.
    static func execute(_ order: RunOrder, scenarios: inout ScenarioCache, warmUps: inout WarmUpLog) -> RunReply {
        let loaded: LoadedScenario
        do {
            loaded = try scenarios.load(order)
        } catch {
            return RunReply(failure: .invalidScenario, message: "invalid scenario: \(error)")
        }
        do {
            let request = order.request(on: loaded)
            warmUps.warmUp(for: request)
            return RunReply(result: try Simulation(request: request).run())
        } catch {
            return RunReply(failure: .runFailed, message: "\(error)")
        }
    }

    /// Pays the Swift runtime's one-time costs with a warm-up shaped like
    /// `request`, then runs it: what a worker does with an order, and what
    /// `run` does itself when it has a single run.
    static func run(_ request: RunRequest) throws -> RunResult {
        Simulation.warmUpRuntime(for: request)
        return try Simulation(request: request).run()
    }
}

/// Ties a worker's life to its `feedsim run`: a parent killed by SIGKILL
/// cannot stop its workers, so each worker asks the kernel for SIGKILL when
/// its parent exits (Linux `PR_SET_PDEATHSIG`), and checks that the parent
/// had not already gone before it asked. Elsewhere a thread polls the
/// parent's id instead.
enum ParentWatch {
    /// How often the fallback thread looks for the parent.
    static let pollInterval = 0.5

    /// `command` names the worker in the message it prints if orphaned.
    static func exitWithParent(_ parent: Int32, command: String) {
        // A worker is stopped by its parent; these restore the default
        // actions a worker started from an ignoring shell would lack.
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        let watched = feedsim_set_parent_death_signal(SIGKILL) == 0
        if getppid() != parent { orphaned(parent, command: command) }
        guard !watched else { return }
        SystemThread.detached {
            while getppid() == parent { SystemThread.sleep(seconds: pollInterval) }
            orphaned(parent, command: command)
        }
    }

    private static func orphaned(_ parent: Int32, command: String) -> Never {
        printError("feedsim \(command): the run that started this worker (process \(parent)) is gone")
        exit(FeedSimExit.internalFailure.rawValue)
    }
}
