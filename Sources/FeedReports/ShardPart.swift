import FoundationEssentials
import Glibc
import SystemSupport

/// One part of a sharded suite as read from its folder: the manifest and the
/// bytes of its CSV files.
package struct ShardPart: Sendable {
    /// The folder as the user named it, for messages.
    package var folder: String
    /// The part's `shard.json`.
    package var manifest: ShardManifest
    /// The bytes of its summary.csv.
    package var summary: Data
    /// The bytes of its drift.csv.
    package var drift: Data
    /// The bytes of its frames.csv; `nil` when the part was run without `--frames`.
    package var frames: Data?
    /// Its runs' traces, in its manifest's request order; `nil` when the
    /// part was run without `--trace` (it has no `traces/` folder).
    package var traces: [TraceFile]?

    /// A part from its parts.
    package init(
        folder: String, manifest: ShardManifest, summary: Data, drift: Data, frames: Data?, traces: [TraceFile]? = nil
    ) {
        self.folder = folder
        self.manifest = manifest
        self.summary = summary
        self.drift = drift
        self.frames = frames
        self.traces = traces
    }

    /// Reads the manifest and CSV files of the results folder `folder`.
    package static func load(folder: String) throws(ShardMergeError) -> ShardPart {
        let base = URL(fileURLWithPath: folder, isDirectory: true)
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            throw ShardMergeError("no such folder: \(folder)")
        }
        func read(_ name: String) throws(ShardMergeError) -> Data? {
            let url = base.appendingPathComponent(name)
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
            guard !isDirectory else { throw ShardMergeError("\(url.path) is a folder, expected a file") }
            do {
                return try Data(contentsOf: url)
            } catch {
                throw ShardMergeError("cannot read \(url.path): \(error.readableDescription)")
            }
        }
        let manifestFile = base.appendingPathComponent(ShardManifest.fileName).path
        guard let manifestData = try read(ShardManifest.fileName) else {
            throw ShardMergeError(
                "\(folder) has no \(ShardManifest.fileName); give the --out folders of `feedsim run --shard K/N`")
        }
        let manifest = try ShardManifest.decode(manifestData, file: manifestFile)
        guard let summary = try read("summary.csv") else {
            throw ShardMergeError("\(folder) has \(ShardManifest.fileName) but no summary.csv; its run did not finish")
        }
        guard let drift = try read("drift.csv") else {
            throw ShardMergeError("\(folder) has \(ShardManifest.fileName) but no drift.csv; its run did not finish")
        }
        let frames = try read("frames.csv")
        if manifest.inputs.frames, frames == nil {
            throw ShardMergeError("\(folder) was run with --frames but has no frames.csv")
        }
        var traces: [TraceFile]?
        var tracesIsFolder = false
        if FileManager.default.fileExists(
            atPath: base.appendingPathComponent(ChromeTrace.folder).path, isDirectory: &tracesIsFolder)
        {
            guard tracesIsFolder else {
                throw ShardMergeError("\(folder)/\(ChromeTrace.folder) is a file, expected a folder")
            }
            var files: [TraceFile] = []
            for request in manifest.requests {
                let name = ChromeTrace.fileName(for: request.key, seed: request.seed)
                guard let data = try read("\(ChromeTrace.folder)/\(name)") else {
                    throw ShardMergeError(
                        """
                        \(folder) has a \(ChromeTrace.folder) folder but no \(ChromeTrace.folder)/\(name); its \
                        --trace run did not finish
                        """
                    )
                }
                files.append(TraceFile(name: name, data: data))
            }
            traces = files
        }
        return ShardPart(
            folder: folder, manifest: manifest, summary: summary, drift: drift,
            frames: manifest.inputs.frames ? frames : nil, traces: traces)
    }
}

/// One run's trace file: its name under `traces/` and its bytes.
package struct TraceFile: Sendable, Equatable {
    package var name: String
    package var data: Data

    package init(name: String, data: Data) {
        self.name = name
        self.data = data
    }
}
