import ArgumentParser
import FeedReports

/// The `feedsim` command line, whole: what the `feedsim` executable runs,
/// and what a program of your own runs to have every command (run, check,
/// compare, report, merge, explore, schema, calibrate) with your own
/// strategies known, in its worker processes too (`main(registering:)`).
public struct FeedSim: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "feedsim",
        abstract: "A deterministic simulator and benchmark harness for iOS-style feed engines.",
        discussion: """
            Exit codes: 0 success, 64 usage error, 65 invalid scenario or calibration trace, \
            2 regression found by `check`, 1 internal failure.
            """,
        version: Provenance.feedsimVersion,
        subcommands: [
            Run.self, RunOne.self, RunBatch.self, Explore.self, ExploreWorker.self, Check.self, Compare.self,
            Merge.self, Report.self, Metrics.self, Schema.self, Calibrate.self, Import.self,
        ],
        defaultSubcommand: nil
    )

    public init() {}

    /// Runs the command line after `register` has made your parts known:
    /// position strategies (`PositionStrategy.register`) and image and page
    /// prefetch policies (`ImagePrefetch.register`, `PagePrefetch.register`).
    /// Call it from your executable's top-level code.
    ///
    /// `register` runs first in this process and again in every worker it
    /// starts: `run`, `run --seeds` and `explore` hand their sessions to
    /// worker processes that are this same executable, so a part registered
    /// here is known there too. Register the same parts every time (not
    /// depending on arguments or the environment): a worker that does not
    /// know a part its parent knows fails the run with a message naming it.
    public static func main(registering register: () -> Void) {
        register()
        runCommand()
    }
}

/// Exit codes users script against (docs/design.md, "Exit codes"). Only
/// `CommandFailure.exitCode` and the workers' own exits use them.
enum FeedSimExit {
    static let internalFailure = ExitCode(1)
    static let regression = ExitCode(2)
    static let usage = ExitCode(64)
    static let invalidScenario = ExitCode(65)
}
