import CSVCodec
import FeedScenario
import Foundation

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
public struct ShardManifest: Codable, Sendable, Equatable {
    /// The manifest's file name inside a results folder.
    public static let fileName = "shard.json"
    /// The manifest format this code writes and reads.
    public static let currentFormat = 1

    /// One request the part ran.
    public struct Request: Codable, Sendable, Equatable {
        /// The request's 0-based position in the whole suite.
        public var index: Int
        /// The scenario's name.
        public var scenario: String
        /// The variant's name.
        public var variant: String
        /// The display refresh rate in hertz.
        public var refreshHz: Int
        /// Rows the request wrote to drift.csv.
        public var driftRows: Int
        /// Rows the request wrote to frames.csv (0 without `--frames`).
        public var frameRows: Int
        /// The run's seed, recorded when the suite ran each scenario under
        /// several seeds (`--seeds`); absent otherwise.
        public var seed: UInt64?

        /// A request from its parts.
        public init(
            index: Int, scenario: String, variant: String, refreshHz: Int, driftRows: Int, frameRows: Int, seed: UInt64? = nil
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
        public var key: SummaryKey { SummaryKey(scenario: scenario, variant: variant, refreshHz: refreshHz) }

        enum CodingKeys: String, CodingKey {
            case index, scenario, variant, seed
            case refreshHz = "refresh_hz"
            case driftRows = "drift_rows"
            case frameRows = "frame_rows"
        }
    }

    /// A scenario file of the suite and the device profile it uses, each
    /// with the FNV-1a 64 hash of its bytes.
    public struct InputFile: Codable, Sendable, Equatable {
        /// The scenario file as the command line named it (for people; not
        /// part of the inputs hash, so checkouts in different folders merge).
        public var path: String
        /// FNV-1a 64 of the scenario file's bytes, 16 hex digits.
        public var fnv1a64: String
        /// The device profile's name.
        public var device: String
        /// FNV-1a 64 of the device profile file's bytes, 16 hex digits.
        public var deviceFnv1a64: String

        /// A file entry from its parts.
        public init(path: String, fnv1a64: String, device: String, deviceFnv1a64: String) {
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
    public struct Inputs: Codable, Sendable, Equatable {
        /// The scenario files, in the sorted order the suite runs them.
        public var files: [InputFile]
        /// `--seed`, if one replaced every scenario's own seed.
        public var seedOverride: UInt64?
        /// Whether `--frames` was given.
        public var frames: Bool
        /// `--seeds`, if each scenario ran under that many seeds.
        public var seeds: Int?

        /// Inputs from their parts.
        public init(files: [InputFile], seedOverride: UInt64?, frames: Bool, seeds: Int? = nil) {
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
        public var hash: String {
            var text = "feedsim-shard-inputs \(ShardManifest.currentFormat)\n"
            for file in files {
                text += "scenario \(file.fnv1a64) device \(file.device) \(file.deviceFnv1a64)\n"
            }
            text += "seed \(seedOverride.map(String.init) ?? "scenario")\n"
            text += "frames \(frames ? 1 : 0)\n"
            if let seeds { text += "seeds \(seeds)\n" }
            return FNV1a64.hex(FNV1a64.hash(Data(text.utf8)))
        }

        enum CodingKeys: String, CodingKey {
            case files, frames, seeds
            case seedOverride = "seed_override"
        }

        /// Writes `seed_override` as `null` when there is none, so the
        /// manifest always shows every input; `seeds` only when given, so a
        /// suite run without it writes the manifest it always did.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(files, forKey: .files)
            try c.encode(seedOverride, forKey: .seedOverride)
            try c.encode(frames, forKey: .frames)
            try c.encodeIfPresent(seeds, forKey: .seeds)
        }
    }

    /// The manifest format; `currentFormat` when written by this code.
    public var format: Int
    /// K: which part this is, from 1.
    public var shard: Int
    /// N: how many parts the suite was split into.
    public var shardCount: Int
    /// Requests in the whole suite, over all parts.
    public var totalRequests: Int
    /// `inputs.hash` when the part ran; parts of one suite share it.
    public var inputsHash: String
    /// What the suite was run from.
    public var inputs: Inputs
    /// The requests this part ran, in index order.
    public var requests: [Request]

    /// A manifest from its parts; `inputsHash` is computed from `inputs`.
    public init(shard: Int, shardCount: Int, totalRequests: Int, inputs: Inputs, requests: [Request]) {
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
    public static func selects(index: Int, shard: Int, shardCount: Int) -> Bool {
        index % shardCount == shard - 1
    }

    /// The manifest as pretty-printed JSON with sorted keys and a final
    /// line break: the same manifest always gives the same bytes.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Encoding plain value types to JSON cannot fail.
        let data = try! encoder.encode(self)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a manifest written by `json`; `file` names it in messages.
    public static func decode(_ data: Data, file: String) throws(ShardMergeError) -> ShardManifest {
        // Each key once, as for scenario files: a repeated key would be read
        // one way here and another way by other tools.
        if let duplicate = JSONDuplicateKeys.first(in: data) {
            throw ShardMergeError("\(file):\(duplicate.line): \(duplicate.path): \(duplicate.expected)")
        }
        let manifest: ShardManifest
        do {
            manifest = try JSONDecoder().decode(ShardManifest.self, from: data)
        } catch {
            throw ShardMergeError("\(ScenarioError(file: file, decodingError: error)); is it a shard.json written by `feedsim run --shard`?")
        }
        guard manifest.format == currentFormat else {
            throw ShardMergeError("\(file) has manifest format \(manifest.format); this feedsim reads format \(currentFormat)")
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

/// The 64-bit FNV-1a hash of a byte string (Fowler, Noll, Vo): fast, stable
/// across platforms and releases, and enough to tell two inputs apart.
public enum FNV1a64 {
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The hash of `bytes`.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    public static func hash(_ bytes: Data) -> UInt64 {
        var value = offsetBasis
        bytes.withUnsafeBytes { buffer in
            for byte in buffer {
                value ^= UInt64(byte)
                value &*= prime
            }
        }
        return value
    }

    /// `value` as 16 lowercase hex digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Why a set of parts cannot be merged, as a sentence a person can act on.
public struct ShardMergeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// One part of a sharded suite as read from its folder: the manifest and the
/// bytes of its CSV files.
public struct ShardPart: Sendable {
    /// The folder as the user named it, for messages.
    public var folder: String
    /// The part's `shard.json`.
    public var manifest: ShardManifest
    /// The bytes of its summary.csv.
    public var summary: Data
    /// The bytes of its drift.csv.
    public var drift: Data
    /// The bytes of its frames.csv; `nil` when the part was run without `--frames`.
    public var frames: Data?
    /// Its runs' traces, in its manifest's request order; `nil` when the
    /// part was run without `--trace` (it has no `traces/` folder).
    public var traces: [TraceFile]?

    /// A part from its parts.
    public init(folder: String, manifest: ShardManifest, summary: Data, drift: Data, frames: Data?, traces: [TraceFile]? = nil) {
        self.folder = folder
        self.manifest = manifest
        self.summary = summary
        self.drift = drift
        self.frames = frames
        self.traces = traces
    }

    /// Reads the manifest and CSV files of the results folder `folder`.
    public static func load(folder: String) throws(ShardMergeError) -> ShardPart {
        let base = URL(fileURLWithPath: folder, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ShardMergeError("no such folder: \(folder)")
        }
        func read(_ name: String) throws(ShardMergeError) -> Data? {
            let url = base.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
            guard !isDirectory.boolValue else { throw ShardMergeError("\(url.path) is a folder, expected a file") }
            do {
                return try Data(contentsOf: url)
            } catch {
                throw ShardMergeError("cannot read \(url.path): \(error.localizedDescription)")
            }
        }
        let manifestFile = base.appendingPathComponent(ShardManifest.fileName).path
        guard let manifestData = try read(ShardManifest.fileName) else {
            throw ShardMergeError("\(folder) has no \(ShardManifest.fileName); give the --out folders of `feedsim run --shard K/N`")
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
        var tracesIsFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: base.appendingPathComponent(ChromeTrace.folder).path, isDirectory: &tracesIsFolder) {
            guard tracesIsFolder.boolValue else { throw ShardMergeError("\(folder)/\(ChromeTrace.folder) is a file, expected a folder") }
            var files: [TraceFile] = []
            for request in manifest.requests {
                let name = ChromeTrace.fileName(for: request.key, seed: request.seed)
                guard let data = try read("\(ChromeTrace.folder)/\(name)") else {
                    throw ShardMergeError("\(folder) has a \(ChromeTrace.folder) folder but no \(ChromeTrace.folder)/\(name); its --trace run did not finish")
                }
                files.append(TraceFile(name: name, data: data))
            }
            traces = files
        }
        return ShardPart(folder: folder, manifest: manifest, summary: summary, drift: drift,
                         frames: manifest.inputs.frames ? frames : nil, traces: traces)
    }
}

/// One run's trace file: its name under `traces/` and its bytes.
public struct TraceFile: Sendable, Equatable {
    public var name: String
    public var data: Data

    public init(name: String, data: Data) {
        self.name = name
        self.data = data
    }
}

/// Puts the parts of a sharded suite back together: the CSV files a
/// single-machine `feedsim run` of the same suite writes, byte for byte.
///
/// Rows are read with `CSVReader` to be checked (field counts, each row's
/// run) but copied as the bytes the parts wrote, never re-formatted; traces
/// are copied as they are. Should a part's rows not add up to its manifest,
/// the merge refuses it.
public enum ShardMerge {
    /// The merged files' text.
    public struct Output: Sendable, Equatable {
        /// summary.csv.
        public var summary: String
        /// drift.csv.
        public var drift: String
        /// frames.csv, when the suite was run with `--frames`.
        public var frames: String?
        /// Every run's trace, in request order, when the parts were run with `--trace`.
        public var traces: [TraceFile]?
        /// Runs in the merged suite.
        public var requestCount: Int
    }

    /// Checks that `parts` are every part of one suite and interleaves their
    /// rows back into request order.
    ///
    /// - Complexity: O(*b*) for *b* bytes of CSV over all parts.
    public static func merge(_ parts: [ShardPart]) throws(ShardMergeError) -> Output {
        guard let first = parts.first else { throw ShardMergeError("no parts to merge") }
        let n = first.manifest.shardCount
        let total = first.manifest.totalRequests
        let hash = first.manifest.inputsHash
        let frames = first.manifest.inputs.frames
        let seeded = first.manifest.inputs.seeds != nil
        let traced = first.traces != nil
        guard n >= 1, total >= 0 else {
            throw ShardMergeError("\(first.folder)/\(ShardManifest.fileName) says \(total) requests in \(n) parts; expected at least 1 part")
        }
        var byShard: [Int: String] = [:]
        for part in parts {
            let m = part.manifest
            func differs(_ what: String, _ mine: String, _ theirs: String) -> ShardMergeError {
                ShardMergeError("\(part.folder) is not a part of the same suite as \(first.folder): \(what) \(mine) vs \(theirs)")
            }
            guard m.shardCount == n else { throw differs("shard count", "\(m.shardCount)", "\(n)") }
            guard m.totalRequests == total else { throw differs("total requests", "\(m.totalRequests)", "\(total)") }
            guard m.inputsHash == hash, m.inputs.hash == hash else {
                throw differs("inputs hash (scenario files, device profiles, --seed, --seeds, --frames)", m.inputsHash, hash)
            }
            guard m.inputs.frames == frames else {
                throw differs("--frames", m.inputs.frames ? "given" : "not given", frames ? "given" : "not given")
            }
            guard (part.traces != nil) == traced else {
                throw differs("--trace (a traces folder)", part.traces != nil ? "given" : "not given", traced ? "given" : "not given")
            }
            guard (1...n).contains(m.shard) else {
                throw ShardMergeError("\(part.folder) claims to be part \(m.shard) of \(n)")
            }
            if let other = byShard[m.shard] {
                throw ShardMergeError("part \(m.shard)/\(n) is given twice: \(other) and \(part.folder)")
            }
            byShard[m.shard] = part.folder
        }
        if let missing = (1...n).first(where: { byShard[$0] == nil }) {
            throw ShardMergeError("part \(missing)/\(n) is missing; give the folders of all \(n) parts (have: \(byShard.keys.sorted().map { "\($0)/\(n)" }.joined(separator: ", ")))")
        }

        // Checked before `owner` is sized by `total`, which a damaged
        // manifest could make any number.
        let listed = parts.reduce(0) { $0 + $1.manifest.requests.count }
        guard total <= listed else {
            throw ShardMergeError("the parts list \(listed) requests of \(total); at least one part is incomplete")
        }
        var owner: [Int?] = Array(repeating: nil, count: total)
        for (p, part) in parts.enumerated() {
            for request in part.manifest.requests {
                guard (0..<total).contains(request.index) else {
                    throw ShardMergeError("\(part.folder) lists request \(request.index), outside 0..<\(total)")
                }
                guard ShardManifest.selects(index: request.index, shard: part.manifest.shard, shardCount: n) else {
                    throw ShardMergeError("\(part.folder) lists request \(request.index), which part \(part.manifest.shard)/\(n) does not run")
                }
                if let other = owner[request.index] {
                    throw ShardMergeError("request \(request.index) is in both \(parts[other].folder) and \(part.folder)")
                }
                owner[request.index] = p
            }
        }
        if let index = owner.firstIndex(where: { $0 == nil }) {
            throw ShardMergeError("request \(index) is in no part; part \(index % n + 1)/\(n) is incomplete")
        }

        var splits: [PartRows] = []
        for part in parts { splits.append(try PartRows(part)) }
        var cursors = Array(repeating: 0, count: parts.count)
        var summary = CSVLines.header(RunReports.summaryColumns)
        var drift = CSVLines.header(RunReports.driftColumns(seeded: seeded))
        var frameText = CSVLines.header(RunReports.frameColumns(seeded: seeded))
        var traces: [TraceFile] = []
        for index in 0..<total {
            let p = owner[index]!
            let slot = cursors[p]
            cursors[p] += 1
            let rows = splits[p]
            summary.append(contentsOf: rows.summary.rows(slot))
            drift.append(contentsOf: rows.drift.rows(slot))
            if frames { frameText.append(contentsOf: rows.frames!.rows(slot)) }
            if let partTraces = parts[p].traces { traces.append(partTraces[slot]) }
        }
        return Output(
            summary: String(decoding: summary, as: UTF8.self),
            drift: String(decoding: drift, as: UTF8.self),
            frames: frames ? String(decoding: frameText, as: UTF8.self) : nil,
            traces: traced ? traces : nil,
            requestCount: total)
    }

    /// One part's CSV files cut into the row blocks of its requests.
    private struct PartRows {
        var summary: CSVLines
        var drift: CSVLines
        var frames: CSVLines?

        init(_ part: ShardPart) throws(ShardMergeError) {
            let requests = part.manifest.requests
            guard requests.map(\.index) == requests.map(\.index).sorted() else {
                throw ShardMergeError("\(part.folder)/\(ShardManifest.fileName) lists its requests out of order")
            }
            let seeded = part.manifest.inputs.seeds != nil
            if seeded, let unseeded = requests.first(where: { $0.seed == nil }) {
                throw ShardMergeError("\(part.folder)/\(ShardManifest.fileName) was run with --seeds but gives request \(unseeded.index) no seed")
            }
            // summary.csv has its seed in the fourth column; drift.csv and
            // frames.csv, under --seeds, in the last.
            summary = try CSVLines(part.summary, file: "\(part.folder)/summary.csv", columns: RunReports.summaryColumns,
                                   blocks: requests.map { ($0.key, 1) }, seeds: seeded ? requests.map(\.seed) : nil, seedColumn: 3)
            let driftColumns = RunReports.driftColumns(seeded: seeded)
            drift = try CSVLines(part.drift, file: "\(part.folder)/drift.csv", columns: driftColumns,
                                 blocks: requests.map { ($0.key, $0.driftRows) }, seeds: seeded ? requests.map(\.seed) : nil,
                                 seedColumn: driftColumns.count - 1)
            if let data = part.frames {
                let frameColumns = RunReports.frameColumns(seeded: seeded)
                frames = try CSVLines(data, file: "\(part.folder)/frames.csv", columns: frameColumns,
                                      blocks: requests.map { ($0.key, $0.frameRows) }, seeds: seeded ? requests.map(\.seed) : nil,
                                      seedColumn: frameColumns.count - 1)
            }
        }
    }
}

/// The records of a CSV file written by `CSVTable`, cut into consecutive
/// blocks of rows, one block per request, each checked to start with its
/// request's key fields. Blocks are kept as the bytes the part wrote, so the
/// merge copies rows byte for byte.
private struct CSVLines {
    private let bytes: [UInt8]
    /// Byte ranges of each block of rows (line breaks included).
    private var blocks: [Range<Int>] = []

    /// The header line of a table with `columns`, as `CSVTable` writes it.
    static func header(_ columns: [String]) -> [UInt8] {
        Array(CSVTable.line(columns).utf8)
    }

    /// Cuts `data` into `sizes`' blocks; with `seeds` (one per block), each
    /// row's field at `seedColumn` must also be its block's seed.
    init(
        _ data: Data, file: String, columns: [String], blocks sizes: [(key: SummaryKey, rows: Int)],
        seeds: [UInt64?]? = nil, seedColumn: Int = 0
    ) throws(ShardMergeError) {
        bytes = [UInt8](data)
        let newline = UInt8(ascii: "\n")
        guard bytes.isEmpty || bytes.last == newline else {
            throw ShardMergeError("\(file):\(bytes.count(where: { $0 == newline }) + 1): the last line has no line break; the file was cut short")
        }
        guard bytes.starts(with: CSVLines.header(columns)) else {
            throw ShardMergeError("\(file):1: the header is not the one `feedsim run` writes")
        }
        // Every row takes at least one byte: any other count is damage, and
        // the sums below cannot overflow.
        if let bad = sizes.first(where: { $0.rows < 0 || $0.rows > bytes.count }) {
            throw ShardMergeError("\(file): its \(ShardManifest.fileName) gives \(bad.key) \(bad.rows) rows, which the file cannot hold")
        }
        var reader = CSVReader(bytes)
        var records: [(line: Int, key: [String], seed: String, bytes: Range<Int>)] = []
        do {
            _ = try reader.next()
            while let record = try reader.next() {
                guard record.fields.count == columns.count else {
                    throw ShardMergeError("\(file):\(record.line): the row has \(record.fields.count) fields but the header has \(columns.count) columns")
                }
                records.append((record.line, Array(record.fields.prefix(3)), record.fields[seedColumn], record.bytes))
            }
        } catch let error as CSVReadError {
            throw ShardMergeError("\(file):\(error.line): \(error.problem)")
        } catch let error as ShardMergeError {
            throw error
        } catch {
            throw ShardMergeError("\(file): \(error)")
        }
        let expected = sizes.reduce(0) { $0 + $1.rows }
        guard records.count == expected else {
            // The line where the file and its manifest part: the first row
            // too many, or the end of a file with too few.
            let line = records.count > expected ? records[expected].line : bytes.count(where: { $0 == newline }) + 1
            throw ShardMergeError("\(file):\(line): the file has \(records.count) rows but its \(ShardManifest.fileName) accounts for \(expected)")
        }
        var row = 0
        for (block, (key, rows)) in sizes.enumerated() {
            let fields = [key.scenario, key.variant, String(key.refreshHz)]
            let seed = seeds?[block].map { String($0) }
            for record in records[row..<(row + rows)] where record.key != fields || (seed != nil && record.seed != seed) {
                let run = seed.map { "\(key), seed \($0)" } ?? "\(key)"
                throw ShardMergeError("\(file):\(record.line): the row is not one of \(run) as its \(ShardManifest.fileName) says")
            }
            let end = row + rows < records.count ? records[row + rows].bytes.lowerBound : bytes.count
            blocks.append((row < records.count ? records[row].bytes.lowerBound : bytes.count)..<end)
            row += rows
        }
    }

    /// The bytes of block `index`.
    func rows(_ index: Int) -> ArraySlice<UInt8> { bytes[blocks[index]] }
}
