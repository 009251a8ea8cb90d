import ArgumentParser
import FeedExplore
import Foundation

extension FeedSim {
    /// `feedsim _explore-worker`: the worker `explore` starts. It reads an
    /// `ExploreJob` as JSON on stdin, does it, and writes the result as JSON
    /// on stdout.
    struct ExploreWorker: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_explore-worker",
            abstract: "Run explore sessions and shrink failures (used internally by `explore`).",
            shouldDisplay: false
        )

        @Option(name: .long) var config: String?
        @Option(name: .customLong("device-file")) var deviceFile: String
        /// The `feedsim explore` that started this worker; the worker exits with it.
        @Option(name: .customLong("parent-pid")) var parentPID: Int32?
        /// The parts the parent knows by name (`RegisteredParts`).
        @Option(name: .customLong("parts")) var parentParts: String?

        func run() throws {
            if let parentPID { ParentWatch.exitWithParent(parentPID, command: "_explore-worker") }
            try RegisteredParts.check(parentParts: parentParts, command: "_explore-worker")
            let setup = try ExploreSetup(configFile: config, deviceFile: deviceFile)
            let input = FileHandle.standardInput.readDataToEndOfFile()
            let job: ExploreJob
            do {
                job = try JSONDecoder().decode(ExploreJob.self, from: input)
            } catch {
                printError("feedsim _explore-worker: the job on stdin did not decode: \(error)")
                throw FeedSimExit.usage
            }
            let result = try job.perform(config: setup.config, device: setup.device)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            FileHandle.standardOutput.write(try encoder.encode(result))
        }
    }
}
