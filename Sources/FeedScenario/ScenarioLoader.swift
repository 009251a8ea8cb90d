import FoundationEssentials
import Glibc
import SystemSupport

/// A scenario with its device profile resolved, ready to run.
package struct LoadedScenario: Sendable, Equatable {
    /// The scenario file as the user named it.
    package var file: String
    package var scenario: Scenario
    package var device: DeviceProfile
    /// The folder of device profiles the command was given (`feedsim run
    /// --devices`), so that its workers look there too; `nil` when the
    /// profile was found in `devices/` beside the file or above it.
    package var devicesFolder: String?

    package init(file: String, scenario: Scenario, device: DeviceProfile, devicesFolder: String? = nil) {
        self.file = file
        self.scenario = scenario
        self.device = device
        self.devicesFolder = devicesFolder
    }

    /// The refresh rates this scenario runs at, in order.
    package var refreshRates: [Int] {
        scenario.refreshRatesHz.isEmpty ? [Int(device.maxRefreshHz.value)] : scenario.refreshRatesHz
    }
}

/// Reads scenario files and the device profiles they name.
package enum ScenarioLoader {
    /// Files larger than this are refused before parsing.
    package static let maximumFileBytes = 16 * 1024 * 1024

    /// Decodes a scenario from `data`; `file` names it in errors. The device
    /// profile is looked up in `devices/` beside the file or in a folder above.
    package static func load(data: Data, file: String, deviceDirectories: [URL]) throws(ScenarioError) -> LoadedScenario
    {
        var scenario = try readImportedFeed(try decode(Scenario.self, from: data, file: file), file: file)
        try resolveImportedNetworks(in: &scenario, file: file)
        guard
            let deviceURL =
                deviceDirectories
                .map({ $0.appendingPathComponent("\(scenario.device).json") })
                .first(where: { FileManager.default.fileExists(atPath: $0.path) })
        else {
            throw ScenarioError(
                file: file, path: "$.device", expected: missingDevice(scenario.device, searched: deviceDirectories))
        }
        let deviceFile = deviceURL.relativePath
        let device = try decode(DeviceProfile.self, from: try read(deviceURL, file: deviceFile), file: deviceFile)
        for (i, rate) in scenario.refreshRatesHz.enumerated() where !device.supportedRefreshRates.contains(rate) {
            throw ScenarioError(
                file: file, path: "$.refresh_rates_hz[\(i)]",
                expected:
                    """
                    expected a rate \(scenario.device) supports \
                    (\(device.supportedRefreshRates.map(String.init).joined(separator: ", ")) Hz), found \(rate)
                    """
            )
        }
        let loaded = LoadedScenario(file: file, scenario: scenario, device: device)
        // Every vsync is an event, so a run whose vsyncs alone pass the event
        // limit would only fail after all that work: refuse it now.
        for rate in loaded.refreshRates {
            let vsyncs = (scenario.durationNs * Int64(rate) + 999_999_999) / 1_000_000_000
            guard vsyncs <= Int64(scenario.limits.maxEvents) else {
                throw ScenarioError(
                    file: file, path: "$.duration_s",
                    expected:
                        """
                        expected a run whose vsyncs fit in limits.max_events (\(scenario.limits.maxEvents)), \
                        found \(Double(scenario.durationNs) / 1e9) s at \(rate) Hz, \(vsyncs) vsyncs; raise \
                        limits.max_events or shorten the run
                        """
                )
            }
        }
        return loaded
    }

    /// Reads and decodes the scenario at `url`, with its device profile
    /// from `devices` when given, else from `devices/` beside the file or
    /// in a folder above it.
    package static func load(url: URL, file: String, devices: String? = nil) throws(ScenarioError) -> LoadedScenario {
        var loaded = try load(
            data: try read(url, file: file), file: file,
            deviceDirectories: deviceDirectories(for: url, devices: devices))
        loaded.devicesFolder = devices
        return loaded
    }

    /// Reads the NETWORK.json each `network.from` names (the scenario's and
    /// its variants'), relative to the folder of `file`.
    static func resolveImportedNetworks(in scenario: inout Scenario, file: String) throws(ScenarioError) {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        if let from = scenario.network.from {
            scenario.network.imported = try importedNetwork(
                from, folder: folder, scenarioFile: file, path: "$.network.from")
        }
        for i in scenario.variants.indices {
            guard let from = scenario.variants[i].network?.from else { continue }
            scenario.variants[i].network?.imported = try importedNetwork(
                from, folder: folder, scenarioFile: file, path: "$.variants[\(i)].network.from")
        }
    }

    /// The NETWORK.json at `from`, relative to `folder` unless absolute; a
    /// file that is missing is the scenario's problem (at `path`), one that
    /// is malformed is the network file's.
    package static func importedNetwork(
        _ from: String, folder: URL, scenarioFile: String, path: String
    ) throws(ScenarioError) -> ImportedNetwork {
        let url = from.hasPrefix("/") ? URL(fileURLWithPath: from) : folder.appendingPathComponent(from)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ScenarioError(
                file: scenarioFile, path: path,
                expected: "expected a NETWORK.json written by `feedsim import har`, "
                    + "found no file at \(url.relativePath)")
        }
        let networkFile = url.relativePath
        return try decode(ImportedNetwork.self, from: try read(url, file: networkFile), file: networkFile)
    }

    /// Where the device profile of the scenario at `scenarioURL` is looked
    /// for: `devices` alone when given (`--devices`), else `devices/` beside
    /// the file and above it.
    package static func deviceDirectories(for scenarioURL: URL, devices: String?) -> [URL] {
        devices.map { [URL(fileURLWithPath: $0, isDirectory: true)] } ?? deviceDirectories(for: scenarioURL)
    }

    /// What a scenario whose device profile `name` is in none of `searched`
    /// is told: every folder searched, the profiles they do hold (a copy of
    /// a scenario moved elsewhere finds none), and the two ways to fix it.
    static func missingDevice(_ name: String, searched: [URL]) -> String {
        let known = availableDevices(in: searched)
        let there = known.isEmpty ? "no device profiles there" : "profiles there: \(known.joined(separator: ", "))"
        return "expected the name of a device profile, found \"\(name)\": no \(name).json in "
            + """
            \(searched.map(\.path).joined(separator: ", ")) (\(there)); put \(name).json in a devices/ folder \
            beside the\u{20}
            """
            + "scenario or in a folder above it, or name the folder that holds it with --devices DIR "
            + "(the bundled profiles are in scenarios/devices)"
    }

    /// Files that live among scenarios but are not scenarios.
    static let ignoredNames: Set<String> = ["schema.json"]

    /// The scenario files in `folder` and below it, as paths relative to it,
    /// sorted: every `*.json` but `schema.json`, outside `devices/` and
    /// hidden folders. `nil` when the folder cannot be read.
    package static func scenarioFiles(in folder: String) -> [String]? {
        guard let subpaths = try? FileManager.default.subpathsOfDirectory(atPath: folder) else { return nil }
        var found: [String] = []
        for relative in subpaths {
            let components = relative.split(separator: "/")
            guard relative.hasSuffix(".json"),
                !components.dropLast().contains(where: { $0 == "devices" || $0.hasPrefix(".") }),
                !ignoredNames.contains(String(components.last ?? ""))
            else { continue }
            found.append(relative)
        }
        return found.sorted()
    }

    /// `devices/` in the scenario's folder and in each folder above it, nearest first.
    package static func deviceDirectories(for scenarioURL: URL) -> [URL] {
        var directories: [URL] = []
        var folder = scenarioURL.standardizedFileURL.deletingLastPathComponent()
        for _ in 0..<8 {
            directories.append(folder.appendingPathComponent("devices", isDirectory: true))
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return directories
    }

    package static func read(_ url: URL, file: String) throws(ScenarioError) -> Data {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ScenarioError(
                file: file, path: "$", expected: "expected a readable file (\(error.readableDescription))")
        }
        guard data.count <= maximumFileBytes else {
            throw ScenarioError(
                file: file, path: "$", expected: "expected at most \(maximumFileBytes) bytes, found \(data.count)")
        }
        return data
    }

    /// Decodes a scenario file's bytes without resolving its device
    /// profile; `file` names it in errors.
    package static func scenario(from data: Data, file: String) throws(ScenarioError) -> Scenario {
        try decode(Scenario.self, from: data, file: file)
    }

    /// Decodes a device profile file's bytes; `file` names it in errors.
    package static func device(from data: Data, file: String) throws(ScenarioError) -> DeviceProfile {
        try decode(DeviceProfile.self, from: data, file: file)
    }

    /// The byte-order marks of UTF-8, UTF-16 and UTF-32, which `JSONDecoder`
    /// reads past and RFC 8259 forbids in JSON exchanged between systems.
    static let byteOrderMarks: [[UInt8]] = [[0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE]]

    static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String) throws(ScenarioError) -> T {
        // Other tools read these files too (the schema, editors, Python), and
        // they must all read the same document: UTF-8 only, each key once.
        if byteOrderMarks.contains(where: { data.starts(with: $0) }) || data.prefix(4).contains(0) {
            throw ScenarioError(file: file, path: "$", expected: "expected UTF-8 JSON text without a byte-order mark")
        }
        if let duplicate = JSONDuplicateKeys.first(in: data) {
            throw ScenarioError(file: file, path: duplicate.path, expected: duplicate.expected)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw scenarioError(file: file, from: error)
        }
    }

    private static func availableDevices(in directories: [URL]) -> [String] {
        var names: [String] = []
        for directory in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            names += files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        }
        // A name in two folders is listed once.
        return Array(Set(names)).sorted()
    }
}
