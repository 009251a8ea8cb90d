import ArgumentParser
import FeedReports
import Foundation

extension FeedSim {
    /// `feedsim compare`: the variants of one results folder side by side.
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract: "Compare the variants (strategies) of one results folder, metric by metric.",
            discussion: """
                One table per metric: a row per (scenario, refresh_hz), a column per \
                variant in the order the summary first lists them. The best value of \
                each row is marked (lowest where lower is better, highest for hit \
                rates; ties all marked; no mark with fewer than two variants or for \
                neutral metrics): `*` in the table, **bold** in Markdown, and named in \
                the `best_variant` column of the CSV (ties joined by `;`).

                Results with several seeds per run (`feedsim run --seeds N`) are \
                compared paired instead, per (scenario, refresh_hz): each variant's run \
                under a seed is matched with the other variant's run under the same \
                seed. Each other variant is compared with the baseline (--baseline, \
                default the first variant: k - 1 pairs for k variants), or every pair \
                with --all-pairs. For each variant a population table (runs, \
                p50/p95/max of drift_max_pt, mean and p95 of hitch_ratio_ms_per_s, \
                overrun frames in all); for each metric and pair of variants (A, B) \
                the pairs, the means, the mean difference B - A and its 95% percentile \
                bootstrap interval (--resamples resamples of the pairs, seeded by \
                --bootstrap-seed), the smallest difference that matters (delta: each \
                metric's default, or --tolerance metric=value, or a --tolerances file \
                in check's format; a percentage is of A's mean), the p-value corrected \
                for the whole family of comparisons (--correction, default Holm), and \
                a verdict: better or worse when a difference is shown (corrected \
                p <= 0.05) and the mean is at least delta; equivalent when two \
                one-sided tests, corrected, put the difference inside +/-delta; "no \
                difference shown" otherwise; "too few pairs" under 2 pairs. The output \
                names the correction and how many comparisons it covered. The CSV \
                holds the differences.

                Explore results (a folder with explore.csv and no summary.csv, or the \
                explore.csv file itself) are compared the same way over every session, \
                each session paired across the strategies.

                A folder written by a debug build (its provenance.json) is named as \
                such on stderr: its allocation counts are not a release build's.

                Exit codes: 0 success, 64 usage error (missing folder, unknown \
                metric), 1 unreadable or malformed summary.csv or unwritable output.
                """
        )

        /// The output formats.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, markdown, csv, json
        }

        @Argument(help: ArgumentHelp("Results folder (or its summary.csv, or an explore.csv).", valueName: "dir"))
        var folder: String = "results/latest"

        @Option(
            name: .customLong("metric"),
            help: ArgumentHelp(
                "A summary column to compare; repeat for several (default: \(StrategyComparison.defaultMetrics.joined(separator: ", "))).",
                valueName: "name"))
        var metrics: [String] = []

        @Option(name: .long, help: "Output format.")
        var format: Format = .table

        @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?

        @Option(name: .long, help: ArgumentHelp(
            "Multi-seed and explore results: compare every other variant with this one (default: the first variant).",
            valueName: "variant"))
        var baseline: String?

        @Flag(name: .customLong("all-pairs"), help: "Multi-seed and explore results: compare every pair of variants instead of each with the baseline.")
        var allPairs = false

        @Option(
            name: .customLong("tolerance"),
            help: ArgumentHelp(
                "The smallest difference that matters for a metric, overriding its default, e.g. drift_max_pt=2 or allocations=10%.",
                valueName: "metric=value"))
        var toleranceFlags: [String] = []

        @Option(name: .long, help: ArgumentHelp("A file of smallest differences, one `metric = value` per line (check's tolerance format).", valueName: "file"))
        var tolerances: String?

        @Option(name: .long, help: "Multi-seed and explore results: the correction for making every comparison at once (holm, none).")
        var correction: MultipleComparisons = .default

        @Option(name: .long, help: "Multi-seed results: bootstrap resamples of the pairs.")
        var resamples: Int = PairedBootstrap.defaultResamples

        @Option(name: .customLong("bootstrap-seed"), help: "Multi-seed results: the seed of the bootstrap's resampling.")
        var bootstrapSeed: UInt64 = PairedBootstrap.defaultSeed

        /// Checks the folder and the metric names here, so that a usage error
        /// prints this command's usage.
        func validate() throws {
            guard resamples >= 1 else { throw ValidationError("--resamples must be at least 1, got \(resamples).") }
            if allPairs, let baseline { throw ValidationError("--all-pairs compares every pair; it cannot go with --baseline \(baseline).") }
            _ = try comparison()
        }

        /// Says so on stderr when the folder was written by a build whose
        /// allocation counts a release build's would not match.
        private func noteProvenance() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { return }
            let url = URL(fileURLWithPath: folder, isDirectory: isDirectory.boolValue)
            let results = isDirectory.boolValue ? url : url.deletingLastPathComponent()
            guard let provenance = try? Provenance.load(inFolder: results) else { return }
            if provenance.buildConfiguration != "release" {
                printError("provenance: \(folder) comes from a \(provenance.buildConfiguration) build (\(provenance.summary)); its allocation counts are not a release build's")
            }
        }

        func run() throws {
            noteProvenance()
            let comparison: any ComparisonText = switch try comparison() {
            case let .single(comparison): comparison
            case let .seeds(comparison): comparison
            case let .sessions(comparison): comparison
            }
            let text = switch format {
            case .table: comparison.terminalText
            case .markdown: comparison.markdown
            case .csv: comparison.csvTable.text
            case .json: comparison.json
            }
            guard let output else {
                print(text, terminator: "")
                return
            }
            do {
                try AtomicFile.write(text, to: URL(fileURLWithPath: output))
            } catch {
                printError("cannot write \(output): \(error.localizedDescription)")
                throw FeedSimExit.internalFailure
            }
            print("wrote \(output)")
        }

        /// One run per key, side by side; several seeds per key, paired per
        /// scenario; or explore results, paired per session.
        enum Comparison {
            case single(StrategyComparison)
            case seeds(SeedComparison)
            case sessions(PairedComparison)
        }

        /// The explore.csv `folder` names: the file itself, or the file in a
        /// folder that has no summary.csv.
        private var exploreFile: String? {
            let url = URL(fileURLWithPath: folder)
            if url.lastPathComponent == HTMLReport.populationFileName { return folder }
            let explore = url.appendingPathComponent(HTMLReport.populationFileName).path
            let summary = url.appendingPathComponent(SummaryInput.fileName).path
            return FileManager.default.fileExists(atPath: explore) && !FileManager.default.fileExists(atPath: summary) ? explore : nil
        }

        /// The smallest differences given by --tolerances and --tolerance.
        private func smallestDifferences() throws -> ToleranceSet {
            do {
                var set = ToleranceSet()
                if let tolerances { set = try ToleranceSet.load(url: URL(fileURLWithPath: tolerances), file: tolerances) }
                for flag in toleranceFlags { try set.apply(flag: flag) }
                return set
            } catch {
                throw ValidationError(error.description)
            }
        }

        /// The variant the others are compared with: --baseline, else (unless
        /// --all-pairs) the first variant of `rows`.
        private func baselineVariant(of rows: [SummaryRow]) -> String? {
            allPairs ? nil : baseline ?? rows.first?.key.variant
        }

        private func comparison() throws -> Comparison {
            let bootstrap = PairedBootstrap(resamples: resamples, seed: bootstrapSeed)
            let smallest = try smallestDifferences()
            if let exploreFile {
                var population: SummaryFile
                do {
                    // Streamed, keeping the columns compared and tabled: an
                    // explore.csv of a million sessions is gigabytes of text.
                    let url = URL(fileURLWithPath: exploreFile)
                    let compared = metrics.isEmpty ? PairedComparison.defaultMetrics : metrics
                    population = try SummaryFile.stream(
                        url: url, file: exploreFile, requiredColumns: PopulationTable.exploreColumns,
                        keeping: compared + PopulationTable.exploreColumns)
                    if !metrics.allSatisfy(population.columns.contains) {
                        // Read whole, so that the refusal lists every column.
                        population = try SummaryFile.load(url: url, file: exploreFile, requiredColumns: PopulationTable.exploreColumns)
                    }
                } catch {
                    printError("invalid explore results: \(error)")
                    throw FeedSimExit.internalFailure
                }
                do {
                    return .sessions(try PairedComparison(
                        summary: population, metrics: metrics.isEmpty ? nil : metrics, baseline: baselineVariant(of: population.rows),
                        bootstrap: bootstrap, smallestDifferences: smallest, correction: correction))
                } catch {
                    throw ValidationError(error.description)
                }
            }
            let summary = try SummaryInput.load(folder, option: nil)
            do {
                guard summary.isMultiSeed else {
                    if baseline != nil || allPairs {
                        throw ValidationError("--\(allPairs ? "all-pairs" : "baseline") pairs the runs of multi-seed results; \(summary.file) has one seed per run (see `feedsim run --seeds`).")
                    }
                    return .single(try StrategyComparison(
                        summary: summary, metrics: metrics.isEmpty ? StrategyComparison.defaultMetrics : metrics))
                }
                return .seeds(try SeedComparison(
                    summary: summary, metrics: metrics.isEmpty ? nil : metrics, baseline: baselineVariant(of: summary.rows),
                    bootstrap: bootstrap, smallestDifferences: smallest, correction: correction))
            } catch let error as StrategyComparisonError {
                throw ValidationError(error.description)
            }
        }
    }
}

extension MultipleComparisons: ExpressibleByArgument {}
