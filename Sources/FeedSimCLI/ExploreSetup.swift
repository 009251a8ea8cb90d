import ArgumentParser
import Determinism
import FeedExplore
import FeedReports
import FeedScenario
import FoundationEssentials
import SystemSupport

/// An exploration's configuration and device profile, read once by the
/// command and again, from the same files, by each worker.
struct ExploreSetup {
    var configFile: String?
    /// The configuration file's bytes; empty for the defaults.
    var configData = Data()
    /// The usage model's bytes, when the configuration names one.
    var usageData = Data()
    var config: ExploreConfig
    var deviceFile: String
    var deviceData: Data
    var device: DeviceProfile

    /// Reads the configuration (or takes the defaults) and finds its device:
    /// in `devices` when given, else in `devices/` beside the configuration
    /// or in a folder above it, else in `scenarios/devices`.
    init(config configFile: String?, devices: String?) throws {
        self.configFile = configFile
        do {
            if let configFile {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: configFile))
                } catch {
                    throw ScenarioError(
                        file: configFile, path: "$",
                        expected: "expected a readable file (\(error.readableDescription))")
                }
                config = try ScenarioLoader.exploreConfig(from: data, file: configFile)
                configData = data
                if let usage = config.usage {
                    usageData = try Self.readUsage(usage, beside: configFile)
                    config.usagePopulation = try UsagePopulation(data: usageData, file: usage)
                }
                try Self.readImports(into: &config, beside: configFile)
            } else {
                config = .defaults
            }
            var folders: [URL] = []
            if let devices {
                folders = [URL(fileURLWithPath: devices, isDirectory: true)]
            } else {
                if let configFile { folders += ScenarioLoader.deviceDirectories(for: URL(fileURLWithPath: configFile)) }
                folders.append(URL(fileURLWithPath: "scenarios/devices", isDirectory: true))
            }
            let name = config.device
            guard
                let url = folders.map({ $0.appendingPathComponent("\(name).json") })
                    .first(where: { FileManager.default.fileExists(atPath: $0.path) })
            else {
                throw ScenarioError(
                    file: configFile ?? "(defaults)", path: "$.device",
                    expected:
                        """
                        expected a device profile \(name).json in \
                        \(folders.map(\.relativePath).joined(separator: ", "))
                        """
                )
            }
            deviceFile = url.relativePath
            deviceData = try Data(contentsOf: url)
            device = try ScenarioLoader.device(from: deviceData, file: deviceFile)
        } catch let error as ScenarioError {
            throw CommandFailure.invalidInput("invalid explore configuration: \(error)")
        }
    }

    /// What an exploration ran from: the configuration's and the device's
    /// bytes, the seed and the session count, so parts of different
    /// explorations are never merged.
    func inputsHash(seed: UInt64, sessions: Int) -> String {
        var hash = FNV1a()
        hash.combine(bytes: configData)
        hash.combine(UInt64(0xFF))
        if !usageData.isEmpty {
            hash.combine(bytes: usageData)
            hash.combine(UInt64(0xFF))
        }
        // The imported feed and network, read again: a part of an exploration
        // on another capture is never merged with this one's.
        for path in [config.feedFrom, config.networkFrom].compactMap({ $0 }) {
            hash.combine(bytes: FileManager.default.contents(atPath: path) ?? Data())
            hash.combine(UInt64(0xFF))
        }
        hash.combine(bytes: deviceData)
        hash.combine(seed)
        hash.combine(sessions)
        return hash.hex
    }

    /// The feed and the network the configuration names (`feed_from`,
    /// `network_from`), read from beside it. Their bytes join the inputs'
    /// hash through `importedBytes`.
    private static func readImports(into config: inout ExploreConfig, beside configFile: String) throws(ScenarioError) {
        if let from = config.feedFrom {
            let (feed, url) = try ScenarioLoader.importedFeed(from, beside: configFile, path: "$.feed_from")
            // Sessions and the repros explore writes name it wherever they are.
            config.feedFrom = url.standardizedFileURL.path
            var source = ImportedFeedSource(path: url.standardizedFileURL.path, repeats: false, pagedAsCaptured: true)
            source.resolvedPath = url.standardizedFileURL.path
            source.feed = feed
            config.importedFeed = source
        }
        if let from = config.networkFrom {
            let folder = URL(fileURLWithPath: configFile).deletingLastPathComponent()
            let url = from.hasPrefix("/") ? URL(fileURLWithPath: from) : folder.appendingPathComponent(from)
            config.importedNetwork = try ScenarioLoader.importedNetwork(
                from, folder: folder, scenarioFile: configFile, path: "$.network_from")
            config.networkFrom = url.standardizedFileURL.path
        }
    }

    /// The bytes of the usage model at `path`, relative to the
    /// configuration file's folder.
    private static func readUsage(_ path: String, beside configFile: String) throws(ScenarioError) -> Data {
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: configFile).deletingLastPathComponent())
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ScenarioError(
                file: configFile, path: "$.usage",
                expected: "expected a readable usage model at \(url.path) (\(error.readableDescription))")
        }
    }

    /// What explore says when the usage model gives no rate for likes or
    /// text-size changes (a model imported before they were fitted): its
    /// sessions draw none of them.
    var missingRatesNote: String? {
        guard let usage = config.usagePopulation, !usage.missingRates.isEmpty else { return nil }
        let names = usage.missingRates.joined(separator: " or ")
        return """
            feedsim: \(usage.file) gives no \(names) rate (imported before FeedSim fitted them): its sessions \
            draw none, as with a rate of 0; import the session logs again to draw them
            """
    }

    /// Which sessions the verdicts are over: the swarm's, or those drawn
    /// from the usage model, named as the configuration names it.
    var population: ExplorePopulation {
        guard let usage = config.usagePopulation else { return .swarm }
        return .usage(model: usage.file, sessions: usage.sessions)
    }

    /// The worker's side: the same files, named by the command.
    init(configFile: String?, deviceFile: String) throws {
        try self.init(config: configFile, devices: URL(fileURLWithPath: deviceFile).deletingLastPathComponent().path)
    }
}
