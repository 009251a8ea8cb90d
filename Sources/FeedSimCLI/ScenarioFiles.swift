import ArgumentParser
import FeedScenario
import FeedSimulator
import FoundationEssentials
import SystemSupport

/// Finding and loading the scenario files a command was given.
package enum ScenarioFiles {
    /// A suite as `feedsim run` reads it: the files found, the scenarios
    /// loaded from them, and their runs in order.
    package struct Suite {
        package var files: [(url: URL, name: String)]
        package var scenarios: [LoadedScenario]
        package var requests: [RunRequest]
    }

    /// The runs of the scenario files under `paths`, in the order `feedsim
    /// run` makes them (files sorted by path, then variants, then refresh
    /// rates), before any `--seeds` repetition or shard. The one definition
    /// of a suite: `run` and the simulator's benchmarks both read theirs here.
    /// Device profiles come from `devices` when given (`--devices`), else
    /// from `devices/` beside each file or above it.
    package static func suite(
        _ paths: [String], seedOverride: UInt64? = nil, recordFrames: Bool = false, recordTimeline: Bool = false,
        devices: String? = nil
    ) throws -> Suite {
        let files = try collect(paths)
        let scenarios = try load(files, devices: devices)
        let requests = scenarios.flatMap {
            RunRequest.expand(
                $0, seedOverride: seedOverride, recordFrames: recordFrames, recordTimeline: recordTimeline)
        }
        return Suite(files: files, scenarios: scenarios, requests: requests)
    }

    /// The scenario files under `paths`, each folder searched recursively
    /// (skipping `devices/`), sorted by path so runs come in a fixed order.
    static func collect(_ paths: [String]) throws -> [(url: URL, name: String)] {
        var found: [(url: URL, name: String)] = []
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("No such file or folder: \(path)")
            }
            if !isDirectory {
                found.append((URL(fileURLWithPath: path), path))
                continue
            }
            guard let relatives = ScenarioLoader.scenarioFiles(in: path) else {
                throw ValidationError("Cannot read the folder \(path)")
            }
            let base = URL(fileURLWithPath: path, isDirectory: true)
            found += relatives.map { relative in
                (base.appendingPathComponent(relative), path.hasSuffix("/") ? path + relative : path + "/" + relative)
            }
        }
        guard !found.isEmpty else {
            throw ValidationError("No scenario files (*.json) found in \(paths.joined(separator: ", "))")
        }
        return found
    }

    /// Loads every file, reporting every invalid one before failing.
    static func load(_ files: [(url: URL, name: String)], devices: String? = nil) throws -> [LoadedScenario] {
        var loaded: [LoadedScenario] = []
        var errors: [ScenarioError] = []
        for file in files {
            do {
                loaded.append(try ScenarioLoader.load(url: file.url, file: file.name, devices: devices))
            } catch {
                errors.append(error)
            }
        }
        var names: [String: String] = [:]
        for scenario in loaded {
            if let other = names[scenario.scenario.name] {
                errors.append(
                    ScenarioError(
                        file: scenario.file, path: "$.name",
                        expected:
                            "expected a name no other scenario uses; \(other) is also \"\(scenario.scenario.name)\""))
            }
            names[scenario.scenario.name] = scenario.file
        }
        guard errors.isEmpty else {
            throw CommandFailure.invalidInput(errors.map { "invalid scenario: \($0)" }.joined(separator: "\n"))
        }
        return loaded
    }
}

func printError(_ message: String) {
    try? WritableFile.standardError.write(Data((message + "\n").utf8))
}
