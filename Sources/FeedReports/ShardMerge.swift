import CSVCodec
import FeedScenario
import FoundationEssentials

/// Why a set of parts cannot be merged, as a sentence a person can act on.
package enum ShardMergeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file of a part is wrong at a place: cut short, a bad header or
    /// row, rows its manifest does not account for.
    case file(FileProblem)
    /// The parts, or a part's folder, do not make one suite.
    case parts(String)

    /// The parts do not go together, for the reason `message` gives.
    package init(_ message: String) { self = .parts(message) }

    /// `file` is wrong at `line` (or as a whole), as `problem` says.
    package static func file(_ file: String, line: Int?, _ problem: String) -> ShardMergeError {
        .file(FileProblem(file: file, line: line, problem: problem))
    }

    /// What is wrong: `file:line: problem` for a file.
    package var description: String {
        switch self {
        case let .file(problem): problem.description
        case let .parts(message): message
        }
    }
}

/// Puts the parts of a sharded suite back together: the CSV files a
/// single-machine `feedsim run` of the same suite writes, byte for byte.
///
/// Rows are read with `CSVReader` to be checked (field counts, each row's
/// run) but copied as the bytes the parts wrote, never re-formatted; traces
/// are copied as they are. Should a part's rows not add up to its manifest,
/// the merge refuses it.
package enum ShardMerge {
    /// The merged files' text.
    package struct Output: Sendable, Equatable {
        /// summary.csv.
        package var summary: String
        /// drift.csv.
        package var drift: String
        /// frames.csv, when the suite was run with `--frames`.
        package var frames: String?
        /// Every run's trace, in request order, when the parts were run with `--trace`.
        package var traces: [TraceFile]?
        /// Runs in the merged suite.
        package var requestCount: Int
    }

    /// Checks that `parts` are every part of one suite and interleaves their
    /// rows back into request order.
    ///
    /// - Complexity: O(*b*) for *b* bytes of CSV over all parts.
    package static func merge(_ parts: [ShardPart]) throws(ShardMergeError) -> Output {
        guard let first = parts.first else { throw ShardMergeError("no parts to merge") }
        let n = first.manifest.shardCount
        let total = first.manifest.totalRequests
        let hash = first.manifest.inputsHash
        let frames = first.manifest.inputs.frames
        let seeded = first.manifest.inputs.seeds != nil
        let traced = first.traces != nil
        guard n >= 1, total >= 0 else {
            throw ShardMergeError(
                """
                \(first.folder)/\(ShardManifest.fileName) says \(total) requests in \(n) parts; expected at least \
                1 part
                """
            )
        }
        var byShard: [Int: String] = [:]
        for part in parts {
            let m = part.manifest
            func differs(_ what: String, _ mine: String, _ theirs: String) -> ShardMergeError {
                ShardMergeError(
                    "\(part.folder) is not a part of the same suite as \(first.folder): \(what) \(mine) vs \(theirs)")
            }
            guard m.shardCount == n else { throw differs("shard count", "\(m.shardCount)", "\(n)") }
            guard m.totalRequests == total else { throw differs("total requests", "\(m.totalRequests)", "\(total)") }
            guard m.inputsHash == hash, m.inputs.hash == hash else {
                throw differs(
                    "inputs hash (scenario files, device profiles, --seed, --seeds, --frames)", m.inputsHash, hash)
            }
            guard m.inputs.frames == frames else {
                throw differs("--frames", m.inputs.frames ? "given" : "not given", frames ? "given" : "not given")
            }
            guard (part.traces != nil) == traced else {
                throw differs(
                    "--trace (a traces folder)", part.traces != nil ? "given" : "not given",
                    traced ? "given" : "not given")
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
            throw ShardMergeError(
                """
                part \(missing)/\(n) is missing; give the folders of all \(n) parts (have: \
                \(byShard.keys.sorted().map { "\($0)/\(n)" }.joined(separator: ", ")))
                """
            )
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
                    throw ShardMergeError(
                        """
                        \(part.folder) lists request \(request.index), which part \(part.manifest.shard)/\(n) \
                        does not run
                        """
                    )
                }
                if let other = owner[request.index] {
                    throw ShardMergeError(
                        "request \(request.index) is in both \(parts[other].folder) and \(part.folder)")
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
                throw ShardMergeError(
                    """
                    \(part.folder)/\(ShardManifest.fileName) was run with --seeds but gives request \
                    \(unseeded.index) no seed
                    """
                )
            }
            // summary.csv has its seed in the fourth column; drift.csv and
            // frames.csv, under --seeds, in the last.
            summary = try CSVLines(
                part.summary, file: "\(part.folder)/summary.csv", columns: RunReports.summaryColumns,
                blocks: requests.map { ($0.key, 1) }, seeds: seeded ? requests.map(\.seed) : nil, seedColumn: 3)
            let driftColumns = RunReports.driftColumns(seeded: seeded)
            drift = try CSVLines(
                part.drift, file: "\(part.folder)/drift.csv", columns: driftColumns,
                blocks: requests.map { ($0.key, $0.driftRows) }, seeds: seeded ? requests.map(\.seed) : nil,
                seedColumn: driftColumns.count - 1)
            if let data = part.frames {
                let frameColumns = RunReports.frameColumns(seeded: seeded)
                frames = try CSVLines(
                    data, file: "\(part.folder)/frames.csv", columns: frameColumns,
                    blocks: requests.map { ($0.key, $0.frameRows) }, seeds: seeded ? requests.map(\.seed) : nil,
                    seedColumn: frameColumns.count - 1)
            }
        }
    }
}
