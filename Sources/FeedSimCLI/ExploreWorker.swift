import ArgumentParser
import FeedExplore
import FeedReports
import FeedSimulator
import FoundationEssentials
import SystemSupport

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
            let input = try ReadableFile.standardInput.readToEnd()
            let job: ExploreJob
            do {
                job = try JSONDecoder().decode(ExploreJob.self, from: input)
            } catch {
                throw CommandFailure.usage("feedsim _explore-worker: the job on stdin did not decode: \(error)")
            }
            let result = try job.perform(
                config: setup.config, device: setup.device, freshRun: Self.freshRun(deviceFile: deviceFile))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try WritableFile.standardOutput.write(try encoder.encode(result))
        }
    }
}

extension FeedSim.ExploreWorker {
    /// Runs a session's variants, in order, as `feedsim run --jobs 1` runs
    /// a file's, in one `_run-batch` worker of its own: the session written
    /// beside the device profile's folder, so that its `devices/` is found.
    static func freshRun(deviceFile: String) -> SessionRunner.FreshRun {
        let folder = URL(fileURLWithPath: deviceFile).deletingLastPathComponent().deletingLastPathComponent()
        let launch = WorkerLaunch(
            executable: WorkerLaunch.thisExecutable, arguments: ["_run-batch"] + RegisteredParts.workerArguments,
            interruption: Interruption.shared)
        return { scenario, variants, refreshHz, recorded in
            var input = Data()
            for variant in variants {
                let order = RunOrder(
                    file: folder.appendingPathComponent("\(scenario.name).json").path, scenarioText: scenario.fileText,
                    refreshHz: refreshHz, seed: scenario.seed, variant: variant, frames: recorded, trace: recorded)
                guard let line = try? order.line() else { return nil }
                input.append(line)
            }
            let finished = launch.run(input: input)
            guard finished.problem == nil else { return nil }
            let replies = finished.output.split(separator: UInt8(ascii: "\n")).map { RunReply.decode(line: Data($0)) }
            guard replies.count == variants.count else { return nil }
            return replies.map { $0?.result?.allocations ?? nil }
        }
    }
}
