import ArgumentParser
import FeedExplore
import FeedReports
import FeedScenario
import FoundationEssentials
import SystemSupport

extension FeedSim {
    /// `feedsim merge`: put the parts of a sharded suite back together.
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Merge the results folders of `feedsim run --shard K/N` into one.",
            discussion: """
                Give the --out folder of every part. The parts must be shards of the \
                same suite: the same N, the same number of requests, the same inputs \
                (scenario and device file contents, --seed, --frames; see the \
                inputs_hash in each shard.json), and together every request exactly \
                once. The rows are put back in request order: summary.csv, drift.csv \
                and (when the parts have it) frames.csv come out byte-identical to a \
                single-machine `feedsim run` of the same suite; parts run with --trace \
                (every part or none) have their traces/ copied byte for byte. The files \
                are staged and renamed together, and files an earlier run left in the \
                folder that this merge does not write (frames.csv, traces) are removed.

                Exit codes: 0 success, 64 missing, mismatched or incomplete parts, \
                1 the merged files cannot be written.
                """
        )

        @Argument(help: ArgumentHelp("The results folders of the parts, in any order.", valueName: "dir"))
        var parts: [String]

        @Option(name: .long, help: ArgumentHelp("Folder for the merged CSV files.", valueName: "dir"))
        var out: String = "results/latest"

        func validate() throws {
            guard !parts.isEmpty else {
                throw ValidationError("Give the results folder of every part, e.g. feedsim merge part1 part2 part3.")
            }
            let destination = URL(fileURLWithPath: out, isDirectory: true).standardizedFileURL.path
            for part in parts
            where URL(fileURLWithPath: part, isDirectory: true).standardizedFileURL.path == destination {
                throw ValidationError("--out \(out) is one of the parts; merge into a folder of its own.")
            }
        }

        func run() throws {
            let exploreParts = parts.filter {
                FileManager.default.fileExists(
                    atPath: URL(fileURLWithPath: $0).appendingPathComponent(ExploreOutcome.manifestName).path)
            }
            if !exploreParts.isEmpty {
                guard exploreParts.count == parts.count else {
                    throw CommandFailure.usage(
                        "cannot merge: \(exploreParts[0]) is a part of `feedsim explore` and some parts are not")
                }
                return try mergeExploration()
            }
            let merged: ShardMerge.Output
            let provenance: Provenance?
            do {
                var loaded: [ShardPart] = []
                for part in parts { loaded.append(try ShardPart.load(folder: part)) }
                merged = try ShardMerge.merge(loaded)
                provenance = try partsProvenance()
            } catch {
                throw CommandFailure.usage("cannot merge: \(error)")
            }
            let folder = URL(fileURLWithPath: out, isDirectory: true)
            // Staged and renamed together, as `run` writes them, and with
            // whatever an earlier run left in the folder removed.
            try StagedFiles.write(to: out, interruption: nil) { output in
                try output.stage(merged.summary, to: folder.appendingPathComponent("summary.csv"))
                try output.stage(merged.drift, to: folder.appendingPathComponent("drift.csv"))
                try output.stage(merged.frames, orRemove: folder.appendingPathComponent("frames.csv"))
                try output.stageTraces(merged.traces, in: folder)
                try ShardPlan.stage(nil, in: folder, output: &output)
                try output.stage(provenance?.json, orRemove: folder.appendingPathComponent(Provenance.fileName))
            }
            print("merged \(parts.count) part\(parts.count == 1 ? "" : "s"), \(merged.requestCount) runs")
            print(
                """
                wrote \(out)/summary.csv, \
                \(out)/drift.csv\(merged.frames == nil ? "" : ", \(out)/frames.csv")\
                \(merged.traces == nil ? "" : ", \(out)/\(ChromeTrace.folder)/")
                """
            )
        }

        /// The build that wrote every part, or nil when a part records none
        /// (written before FeedSim recorded it). Parts written by different
        /// builds are not one suite's results: their allocation counts, at
        /// least, may not agree.
        private func partsProvenance() throws -> Provenance? {
            var recorded: [(part: String, provenance: Provenance)] = []
            for part in parts {
                guard let provenance = try Provenance.load(inFolder: URL(fileURLWithPath: part, isDirectory: true))
                else { return nil }
                recorded.append((part, provenance))
            }
            for other in recorded.dropFirst() where other.provenance != recorded[0].provenance {
                throw ValidationError(
                    """
                    \(other.part) was written by another build than \(recorded[0].part) \
                    (\(recorded[0].provenance.differences(to: other.provenance).joined(separator: ", "))); run \
                    every part with the same feedsim
                    """
                )
            }
            return recorded.first?.provenance
        }

        /// The parts of a sharded `feedsim explore`: explore.csv, violations.csv
        /// and failures/ as one exploration writes them.
        private func mergeExploration() throws {
            let whole: ExploreOutcome
            var inOrder: [(folder: String, outcome: ExploreOutcome)] = []
            do {
                var loaded: [(folder: String, outcome: ExploreOutcome)] = []
                for part in parts {
                    let url = URL(fileURLWithPath: part).appendingPathComponent(ExploreOutcome.manifestName)
                    do {
                        loaded.append(
                            (part, try JSONDecoder().decode(ExploreOutcome.self, from: Data(contentsOf: url))))
                    } catch {
                        throw FileProblem(file: url.relativePath, line: nil, problem: "not an explore part (\(error))")
                    }
                }
                whole = try ExploreOutcome.merged(loaded)
                inOrder = loaded.sorted { $0.outcome.shard < $1.outcome.shard }
            } catch {
                throw CommandFailure.usage("cannot merge: \(error)")
            }
            var output = StagedFiles()
            let folder = URL(fileURLWithPath: out, isDirectory: true)
            let explore: URL
            do {
                let exploreFile = try StreamedFile(
                    url: output.stageStreamed(to: folder.appendingPathComponent("explore.csv")))
                let violationsFile = try StreamedFile(
                    url: output.stageStreamed(to: folder.appendingPathComponent("violations.csv")))
                explore = exploreFile.url
                let folders = inOrder.map(\.folder)
                let rows = try ExploreMerge.merge(
                    "explore.csv", header: ExploreReport.columns, parts: folders, into: exploreFile)
                let violations = try ExploreMerge.merge(
                    "violations.csv", header: ExploreReport.violationColumns, parts: folders, into: violationsFile)
                try exploreFile.close()
                try violationsFile.close()
                // The rows are merged as they stream, so the parts' counts
                // are checked after: a part that does not add up is refused.
                for (k, (folder, manifest)) in inOrder.enumerated() {
                    guard rows[k] == manifest.tally.rows, violations[k] == manifest.tally.violations else {
                        throw ValidationError(
                            """
                            \(folder) has \(rows[k]) rows in explore.csv and \(violations[k]) in violations.csv, \
                            but its \(ExploreOutcome.manifestName) counts \(manifest.tally.rows) and \
                            \(manifest.tally.violations)
                            """
                        )
                    }
                }
            } catch let error as ValidationError {
                output.discard()
                throw CommandFailure.usage("cannot merge: \(error)")
            } catch let error as FileProblem {
                output.discard()
                throw CommandFailure.usage("cannot merge: \(error)")
            } catch {
                output.discard()
                throw CommandFailure.internalFailure("cannot write results to \(out): \(error.readableDescription)")
            }
            print(
                """
                merged \(parts.count) part\(parts.count == 1 ? "" : "s") of an exploration, \
                \(whole.tally.sessions) sessions
                """
            )
            _ = try whole.write(
                to: out, explore: explore, output: output, baseline: nil, manifest: false, interruption: nil)
        }
    }
}
