import FeedScenario
import FeedSimulator
import FoundationEssentials

/// Which build of FeedSim wrote a results folder: written beside the CSV
/// files as `provenance.json`, never into them, so the CSV bytes of a run
/// are the same whatever built it.
///
/// Allocation counts depend on the build: a debug build allocates where a
/// release build's optimiser removed the allocation, so `feedsim check`
/// refuses to compare the allocation columns of two builds of different
/// configurations unless asked to (`--allow-build-mismatch`).
package struct Provenance: Codable, Equatable, Sendable {
    /// FeedSim's semantic version, defined here only: `feedsim --version`,
    /// the provenance files and the changelog's latest entry name it.
    package static let feedsimVersion = "2.0.0"

    /// The file's name inside a results folder.
    package static let fileName = "provenance.json"

    /// FeedSim's version (`feedsimVersion` of the build that wrote the folder).
    package var feedsimVersion: String
    /// `release` or `debug`.
    package var buildConfiguration: String
    /// The Swift compiler's version, as major.minor.
    package var swiftVersion: String
    /// The operating system the build targets (`linux`, `macos`).
    package var os: String
    /// The processor architecture (`x86_64`, `arm64`).
    package var architecture: String
    /// How allocations were counted: `jemalloc`, or `none (REASON)` where
    /// the build cannot count them and left the allocation columns empty
    /// (`AllocationMeter.unavailableReason`). Files written before it was
    /// recorded read as `jemalloc`: every build then counted, or stopped.
    package var allocationCounting: String

    enum CodingKeys: String, CodingKey {
        case feedsimVersion = "feedsim_version"
        case buildConfiguration = "build_configuration"
        case swiftVersion = "swift_version"
        case os
        case architecture
        case allocationCounting = "allocation_counting"
    }

    /// The build running now.
    package static let current = Provenance(
        feedsimVersion: feedsimVersion, buildConfiguration: currentBuildConfiguration,
        swiftVersion: currentSwiftVersion, os: currentOS, architecture: currentArchitecture,
        allocationCounting: currentAllocationCounting)

    package init(
        feedsimVersion: String, buildConfiguration: String, swiftVersion: String, os: String, architecture: String,
        allocationCounting: String = Provenance.countedByJemalloc
    ) {
        self.feedsimVersion = feedsimVersion
        self.buildConfiguration = buildConfiguration
        self.swiftVersion = swiftVersion
        self.os = os
        self.architecture = architecture
        self.allocationCounting = allocationCounting
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        feedsimVersion = try container.decode(String.self, forKey: .feedsimVersion)
        buildConfiguration = try container.decode(String.self, forKey: .buildConfiguration)
        swiftVersion = try container.decode(String.self, forKey: .swiftVersion)
        os = try container.decode(String.self, forKey: .os)
        architecture = try container.decode(String.self, forKey: .architecture)
        allocationCounting =
            try container.decodeIfPresent(String.self, forKey: .allocationCounting) ?? Self.countedByJemalloc
    }

    /// Written through a container of `AnyCodingKey`, the key type every
    /// scenario is read with: a container of `CodingKeys` is a type the
    /// runtime builds from its mangled name, looking up `CodingKeys`'
    /// conformance among every one in the binary (0.2 M instructions of
    /// every `run`).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for (name, value) in fields { try container.encode(value, forKey: AnyCodingKey(stringValue: name)) }
    }

    /// `allocation_counting` of a build that counts.
    package static let countedByJemalloc = "jemalloc"

    /// `allocation_counting` of this process: its meter's availability.
    private static var currentAllocationCounting: String {
        switch AllocationMeter.availability {
        case .success(nil): countedByJemalloc
        case .success(let reason?): "none (\(reason))"
        case .failure(let error): "none (\(error))"
        }
    }

    /// The file's text: one key a line, in a fixed order, ending in a newline.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// The fields in the order people read them, with the names the file uses.
    package var fields: [(name: String, value: String)] {
        [
            (CodingKeys.feedsimVersion.rawValue, feedsimVersion),
            (CodingKeys.buildConfiguration.rawValue, buildConfiguration),
            (CodingKeys.swiftVersion.rawValue, swiftVersion),
            (CodingKeys.os.rawValue, os),
            (CodingKeys.architecture.rawValue, architecture),
            (CodingKeys.allocationCounting.rawValue, allocationCounting),
        ]
    }

    /// The fields where `other` differs from this one, as
    /// `name: this -> other`.
    package func differences(to other: Provenance) -> [String] {
        zip(fields, other.fields).compactMap { mine, theirs in
            mine.value == theirs.value ? nil : "\(mine.name) \(mine.value) -> \(theirs.value)"
        }
    }

    /// One line: `feedsim 1.0.0, release build, Swift 6.3, linux x86_64`,
    /// and `, allocations not counted` for a build that cannot count them.
    package var summary: String {
        "feedsim \(feedsimVersion), \(buildConfiguration) build, Swift \(swiftVersion), \(os) \(architecture)"
            + (allocationCounting == Self.countedByJemalloc ? "" : ", allocations not counted")
    }

    /// The provenance recorded in `folder`, or nil when the folder has none
    /// (results written before FeedSim recorded it).
    ///
    /// - Throws: `ProvenanceError` when the file exists but is not a
    ///   provenance record.
    package static func load(inFolder folder: URL) throws -> Provenance? {
        let url = folder.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(Provenance.self, from: data)
        } catch {
            throw ProvenanceError(
                file: url.path,
                reason:
                    """
                    expected an object with the string fields feedsim_version, build_configuration, \
                    swift_version, os and architecture (and allocation_counting)
                    """
            )
        }
    }

    private static var currentBuildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    private static var currentOS: String {
        #if os(Linux)
        "linux"
        #elseif os(macOS)
        "macos"
        #elseif os(Windows)
        "windows"
        #else
        "unknown"
        #endif
    }

    private static var currentArchitecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "arm64"
        #else
        "unknown"
        #endif
    }

    private static var currentSwiftVersion: String {
        #if compiler(>=7.0)
        "7.0 or later"
        #elseif compiler(>=6.5)
        "6.5"
        #elseif compiler(>=6.4)
        "6.4"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #elseif compiler(>=6.1)
        "6.1"
        #else
        "6.0"
        #endif
    }
}

/// A `provenance.json` that cannot be read.
package struct ProvenanceError: FileDiagnostic {
    /// The file, as the command named it.
    package let file: String
    /// Why it cannot be read.
    package let reason: String
    /// The file as a whole.
    package var place: FilePlace { .wholeFile }
    /// Why it cannot be read.
    package var problem: String { reason }

    /// An error naming `file` and why it cannot be read.
    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
}

/// What `feedsim check` says about the builds behind a baseline and the
/// current results before it compares them.
package struct ProvenanceComparison: Equatable, Sendable {
    /// Lines for the reader: which fields differ, or which side records none.
    package let notes: [String]
    /// Why the comparison must not go on, or nil when it may.
    package let refusal: String?

    /// The columns whose values depend on the build configuration: an
    /// optimised build removes allocations a debug build makes.
    package static let buildDependentColumns = ["allocations", "allocated_bytes"]

    /// Compares the builds behind `baseline` and `current`. Builds of
    /// different configurations are refused unless `allowBuildMismatch`:
    /// their allocation columns would differ without any change of the
    /// engine's.
    package init(baseline: Provenance?, current: Provenance?, allowBuildMismatch: Bool) {
        guard let baseline, let current else {
            let missing = [baseline == nil ? "the baseline" : nil, current == nil ? "the current results" : nil]
                .compactMap { $0 }
            notes = [
                """
                provenance: \(missing.joined(separator: " and ")) record\(missing.count == 1 ? "s" : "") no \
                \(Provenance.fileName); the builds cannot be compared
                """
            ]
            refusal = nil
            return
        }
        let differences = baseline.differences(to: current)
        guard !differences.isEmpty else {
            notes = []
            refusal = nil
            return
        }
        var notes = ["provenance: baseline and current differ: " + differences.joined(separator: ", ")]
        if baseline.buildConfiguration != current.buildConfiguration {
            let columns = Self.buildDependentColumns.joined(separator: " and ")
            if allowBuildMismatch {
                notes.append(
                    """
                    provenance: comparing \(columns) of a \(current.buildConfiguration) build with a \
                    \(baseline.buildConfiguration) baseline, as --allow-build-mismatch asks
                    """
                )
                refusal = nil
            } else {
                refusal =
                    """
                    the current results come from a \(current.buildConfiguration) build and the baseline from a \
                    \(baseline.buildConfiguration) build: their \(columns) differ without any change in the \
                    engine. Run the suite with a \(baseline.buildConfiguration) build (`swift build -c \
                    \(baseline.buildConfiguration)`), or pass --allow-build-mismatch to compare them anyway.
                    """
            }
        } else {
            refusal = nil
        }
        self.notes = notes
    }
}
