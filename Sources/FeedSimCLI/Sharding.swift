import ArgumentParser
import Determinism
import FeedReports
import FeedScenario
import FeedSimulator
import FoundationEssentials
import SystemSupport

/// `--shard K/N`: run part K of a suite split N ways.
///
/// The rule: of the expanded request list (scenario files sorted by path,
/// then each scenario's variants, then its refresh rates), part K runs the
/// requests whose 0-based index i has `i % N == K − 1`. Dealing requests out
/// round-robin gives every part a share of each scenario, so parts take
/// about as long as each other even when one scenario is much slower.
struct ShardSpec: ExpressibleByArgument, Sendable, Equatable {
    /// K, from 1.
    var shard: Int
    /// N, at least 1.
    var count: Int

    init(shard: Int, count: Int) {
        self.shard = shard
        self.count = count
    }

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(shard: k, count: n)
    }

    static var defaultValueDescription: String { "k/n" }

    /// Checks 1 ≤ K ≤ N.
    func validate() throws {
        guard count >= 1, (1...count).contains(shard) else {
            throw ValidationError(
                """
                --shard \(shard)/\(count): expected K/N with 1 ≤ K ≤ N, e.g. --shard 2/3 for the second of three \
                parts.
                """
            )
        }
    }

    /// The indices of `total` requests this part runs, in order.
    func indices(of total: Int) -> [Int] {
        (0..<total).filter { ShardManifest.selects(index: $0, shard: shard, shardCount: count) }
    }
}

/// The part of a suite this machine runs under `--shard`, and what its
/// manifest needs to say about it.
struct ShardPlan {
    /// Which part.
    let spec: ShardSpec
    /// Requests in the whole suite.
    let total: Int
    /// The suite indices of the requests this part runs, in order.
    let indices: [Int]
    /// The requests this part runs, in order.
    let requests: [RunRequest]
    /// What the suite was run from.
    let inputs: ShardManifest.Inputs
    /// Whether each scenario ran under several seeds (`--seeds`), so each
    /// request's seed goes into the manifest.
    var seeded: Bool { inputs.seeds != nil }

    /// Picks part `spec` out of `suite`, the requests expanded from
    /// `scenarios` (loaded from `files`, in order), and hashes the inputs
    /// now, as they are when the runs start.
    init(
        _ spec: ShardSpec, suite: [RunRequest], files: [(url: URL, name: String)], scenarios: [LoadedScenario],
        seedOverride: UInt64?, frames: Bool, seeds: Int? = nil
    ) throws {
        self.spec = spec
        self.total = suite.count
        self.indices = spec.indices(of: suite.count)
        self.requests = indices.map { suite[$0] }
        var entries: [ShardManifest.InputFile] = []
        for (file, loaded) in zip(files, scenarios) {
            let device = loaded.scenario.device
            // The same lookup ScenarioLoader made: --devices, or devices/ nearest first.
            let candidates = ScenarioLoader.deviceDirectories(for: file.url, devices: loaded.devicesFolder)
                .map { $0.appendingPathComponent("\(device).json") }
            guard let deviceURL = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                throw ValidationError("\(file.name): device profile \(device) disappeared while the suite was loading")
            }
            entries.append(
                ShardManifest.InputFile(
                    path: file.name, fnv1a64: try ShardPlan.hash(file.url), device: device,
                    deviceFnv1a64: try ShardPlan.hash(deviceURL)))
        }
        self.inputs = ShardManifest.Inputs(files: entries, seedOverride: seedOverride, frames: frames, seeds: seeds)
    }

    /// The manifest, given the result of each request (request order).
    func manifest(results: [RunResult]) -> ShardManifest {
        let entries = zip(indices, zip(requests, results)).map { index, pair in
            ShardManifest.Request(
                index: index, scenario: pair.0.loaded.scenario.name, variant: pair.0.variant,
                refreshHz: pair.0.refreshHz, driftRows: pair.1.drift.count, frameRows: pair.1.frames.count,
                seed: seeded ? pair.0.seed : nil)
        }
        return ShardManifest(
            shard: spec.shard, shardCount: spec.count, totalRequests: total, inputs: inputs, requests: entries)
    }

    /// Stages `manifest` as the folder's shard.json, or, for a run that is
    /// not a shard (`nil`), the removal of a manifest an earlier sharded run
    /// left there, so the folder never claims to hold a part when it holds
    /// the whole suite.
    static func stage(_ manifest: ShardManifest?, in folder: URL, output: inout StagedFiles) throws {
        try output.stage(manifest?.json, orRemove: folder.appendingPathComponent(ShardManifest.fileName))
    }

    private static func hash(_ url: URL) throws -> String {
        do {
            return FNV1a(bytes: try Data(contentsOf: url)).hex
        } catch {
            throw ValidationError("cannot read \(url.path) to hash it: \(error.readableDescription)")
        }
    }
}
