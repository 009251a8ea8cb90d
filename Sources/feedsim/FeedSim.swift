import ArgumentParser

/// The `feedsim` command.
@main
struct FeedSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedsim",
        abstract: "A deterministic simulator and benchmark harness for iOS-style feed engines.",
        discussion: """
            Exit codes: 0 success, 64 usage error, 65 invalid scenario or calibration trace, \
            2 regression found by `check`, 1 internal failure.
            """,
        subcommands: [Run.self, RunOne.self, Explore.self, ExploreWorker.self, Check.self, Compare.self, Merge.self, Report.self, Metrics.self, Schema.self, Calibrate.self],
        defaultSubcommand: nil
    )
}

/// Exit codes users script against (DESIGN.md, "Contracts").
enum FeedSimExit {
    static let internalFailure = ExitCode(1)
    static let regression = ExitCode(2)
    static let usage = ExitCode(64)
    static let invalidScenario = ExitCode(65)
}
