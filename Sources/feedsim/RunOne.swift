import ArgumentParser
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

        func run() throws {
            let loaded: LoadedScenario
            do {
                loaded = try ScenarioLoader.load(url: URL(fileURLWithPath: file), file: file)
            } catch {
                printError("invalid scenario: \(error)")
                throw FeedSimExit.invalidScenario
            }
            let request = RunRequest(loaded: loaded, refreshHz: refreshHz, seed: seed, variant: variant, recordFrames: frames)
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
            FileHandle.standardOutput.write(try RunRows(result).encoded())
        }
    }
}
