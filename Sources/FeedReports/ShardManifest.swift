import CSVCodec
import Determinism
import FeedScenario
import FoundationEssentials

/// What one part of a sharded suite ran: written as `shard.json` beside the
/// CSV files by `feedsim run --shard K/N`, read by `feedsim merge`.
///
/// A suite expands into an ordered list of requests (scenario × variant ×
/// refresh rate, scenario files sorted by path). Part K of N runs the
/// requests whose 0-based index i has `i % N == K − 1`, so every part gets a
/// spread of the suite and the parts together cover each index exactly once.
///
/// The manifest records, for each request the part ran, its index, its key
/// and how many drift and frame rows it wrote: the CSV rows of one request
/// are contiguous and in request order, so those counts are all a merge needs
/// to put every row back in its place.
package struct ShardManifest: Codable, Sendable, Equatable {
    /// The manifest's file name inside a results folder.
    package static let fileName = "shard.json"
    /// The manifest format this code writes and reads.
    package static let currentFormat = 1

    /// One request the part ran.
    package struct Request: Codable, Sendable, Equatable {
        /// The request's 0-based position in the whole suite.
        package var index: Int
        /// The scenario's name.
        package var scenario: String
        /// The variant's name.
        package var variant: String
        /// The display refresh rate in hertz.
        package var refreshHz: Int
        /// Rows the request wrote to drift.csv.
        package var driftRows: Int
        /// Rows the request wrote to frames.csv (0 without `--frames`).
        package var frameRows: Int
        /// The run's seed, recorded when the suite ran each scenario under
        /// several seeds (`--seeds`); absent otherwise.
        package var seed: UInt64?

        /// A request from its parts.
        package init(
            index: Int, scenario: String, variant: String, refreshHz: Int, driftRows: Int, frameRows: Int,
            seed: UInt64? = nil
        ) {
            self.index = index
            self.scenario = scenario
            self.variant = variant
            self.refreshHz = refreshHz
            self.driftRows = driftRows
            self.frameRows = frameRows
            self.seed = seed
        }

        /// The request's key, as summary.csv identifies its run.
        package var key: SummaryKey { SummaryKey(scenario: scenario, variant: variant, refreshHz: refreshHz) }

        enum CodingKeys: String, CodingKey {
            case index, scenario, variant, seed
            case refreshHz = "refresh_hz"
            case driftRows = "drift_rows"
            case frameRows = "frame_rows"
        }
    }

    /// A scenario file of the suite and the device profile it uses, each
    /// with the FNV-1a 64 hash of its bytes.
    package struct InputFile: Codable, Sendable, Equatable {
        /// The scenario file as the command line named it (for people; not
        /// part of the inputs hash, so checkouts in different folders merge).
        package var path: String
        /// FNV-1a 64 of the scenario file's bytes, 16 hex digits.
        package var fnv1a64: String
        /// The device profile's name.
        package var device: String
        /// FNV-1a 64 of the device profile file's bytes, 16 hex digits.
        package var deviceFnv1a64: String

        /// A file entry from its parts.
        package init(path: String, fnv1a64: String, device: String, deviceFnv1a64: String) {
            self.path = path
            self.fnv1a64 = fnv1a64
            self.device = device
            self.deviceFnv1a64 = deviceFnv1a64
        }

        enum CodingKeys: String, CodingKey {
            case path, device
            case fnv1a64 = "fnv1a64"
            case deviceFnv1a64 = "device_fnv1a64"
        }
    }

    /// The command-line inputs that decide a suite's results.
    package struct Inputs: Codable, Sendable, Equatable {
        /// The scenario files, in the sorted order the suite runs them.
        package var files: [InputFile]
        /// `--seed`, if one replaced every scenario's own seed.
        package var seedOverride: UInt64?
        /// Whether `--frames` was given.
        package var frames: Bool
        /// `--seeds`, if each scenario ran under that many seeds.
        package var seeds: Int?

        /// Inputs from their parts.
        package init(files: [InputFile], seedOverride: UInt64?, frames: Bool, seeds: Int? = nil) {
            self.files = files
            self.seedOverride = seedOverride
            self.frames = frames
            self.seeds = seeds
        }

        /// FNV-1a 64 over the file contents in order (scenario and device
        /// hashes and the device names), the seed override, the frames flag
        /// and `--seeds` (when given: a suite without it hashes as before),
        /// as 16 hex digits. Paths are left out: the same suite checked out
        /// in two different folders gives the same results.
        package var hash: String {
            var text = "feedsim-shard-inputs \(ShardManifest.currentFormat)\n"
            for file in files {
                text += "scenario \(file.fnv1a64) device \(file.device) \(file.deviceFnv1a64)\n"
            }
            text += "seed \(seedOverride.map(String.init) ?? "scenario")\n"
            text += "frames \(frames ? 1 : 0)\n"
            if let seeds { text += "seeds \(seeds)\n" }
            return FNV1a(bytes: text.utf8).hex
        }

        enum CodingKeys: String, CodingKey {
            case files, frames, seeds
            case seedOverride = "seed_override"
        }

        /// Writes `seed_override` as `null` when there is none, so the
        /// manifest always shows every input; `seeds` only when given, so a
        /// suite run without it writes the manifest it always did.
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(files, forKey: .files)
            try c.encode(seedOverride, forKey: .seedOverride)
            try c.encode(frames, forKey: .frames)
            try c.encodeIfPresent(seeds, forKey: .seeds)
        }
    }

    /// The manifest format; `currentFormat` when written by this code.
    package var format: Int
    /// K: which part this is, from 1.
    package var shard: Int
    /// N: how many parts the suite was split into.
    package var shardCount: Int
    /// Requests in the whole suite, over all parts.
    package var totalRequests: Int
    /// `inputs.hash` when the part ran; parts of one suite share it.
    package var inputsHash: String
    /// What the suite was run from.
    package var inputs: Inputs
    /// The requests this part ran, in index order.
    package var requests: [Request]

    /// A manifest from its parts; `inputsHash` is computed from `inputs`.
    package init(shard: Int, shardCount: Int, totalRequests: Int, inputs: Inputs, requests: [Request]) {
        self.format = ShardManifest.currentFormat
        self.shard = shard
        self.shardCount = shardCount
        self.totalRequests = totalRequests
        self.inputsHash = inputs.hash
        self.inputs = inputs
        self.requests = requests
    }

    /// Whether part `shard` of `shardCount` runs the request at `index`:
    /// `index % shardCount == shard − 1`.
    package static func selects(index: Int, shard: Int, shardCount: Int) -> Bool {
        index % shardCount == shard - 1
    }

    /// The manifest as pretty-printed JSON with sorted keys and a final
    /// line break: the same manifest always gives the same bytes.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Encoding plain value types to JSON cannot fail.
        let data = try! encoder.encode(self)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a manifest written by `json`; `file` names it in messages.
    package static func decode(_ data: Data, file: String) throws(ShardMergeError) -> ShardManifest {
        // Each key once, as for scenario files: a repeated key would be read
        // one way here and another way by other tools.
        if let duplicate = JSONDuplicateKeys.first(in: data) {
            throw ShardMergeError.file(file, line: duplicate.line, "\(duplicate.path): \(duplicate.expected)")
        }
        let manifest: ShardManifest
        do {
            manifest = try JSONDecoder().decode(ShardManifest.self, from: data)
        } catch {
            throw ShardMergeError(
                """
                \(ScenarioError(file: file, decodingError: error)); is it a shard.json written by `feedsim run \
                --shard`?
                """
            )
        }
        guard manifest.format == currentFormat else {
            throw ShardMergeError(
                "\(file) has manifest format \(manifest.format); this feedsim reads format \(currentFormat)")
        }
        return manifest
    }

    enum CodingKeys: String, CodingKey {
        case format, shard, inputs, requests
        case shardCount = "shard_count"
        case totalRequests = "total_requests"
        case inputsHash = "inputs_hash"
    }
}
