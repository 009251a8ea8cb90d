import ArgumentParser
import FeedReports
import FoundationEssentials
import SystemSupport

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
                default each scenario's first variant: k - 1 pairs for k variants; \
                a named baseline applies to the scenarios that have it, and the \
                output names those that do not), or every pair with --all-pairs. For each variant a population table \
                (runs, \
                p50/p95/max of drift_max_pt, mean and p95 of hitch_ratio_ms_per_s, \
                overrun frames in all); for each metric and pair of variants (A, B) \
                the pairs, the means, the mean difference B - A and its 95% studentized \
                bootstrap interval (BCa where that is not defined; --resamples resamples of the pairs, seeded by \
                --bootstrap-seed, raised to 4m/0.05 - 1 for a family of m comparisons \
                so that each can be shown; above 5000 pairs, BCa of 5000 batch means), \
                the smallest difference that matters (delta: each \
                metric's default, or --tolerance metric=value, or a --tolerances file \
                in check's format; a percentage is of A's mean), the p-value corrected \
                for the whole family of comparisons (--correction, default Holm), and \
                a verdict: better or worse (higher or lower for a neutral metric) when \
                the difference is shown to be beyond delta (corrected p <= 0.05: the \
                interval lies wholly past delta); equivalent when two one-sided tests, \
                corrected, put it inside +/-delta; "different, size unclear" when a \
                difference is shown (corrected p of B - A = 0 <= 0.05) but neither; "no \
                difference shown" otherwise; "too few pairs" under 2 pairs. The output \
                names the correction, how many comparisons it covered and the smallest \
                corrected p-value the run can show, and warns when no difference could \
                be shown. The CSV holds the differences.

                Explore results (a folder with explore.csv and no summary.csv, or the \
                explore.csv file itself) are compared the same way over every session, \
                each session paired across the strategies. Every format names the \
                population the sessions were drawn from (swarm, or usage with its model \
                file and the sessions it was fitted to), as population.json beside \
                explore.csv records it; the CSV in its last three columns.

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
                """
                A summary column to compare, any but trace_digest (a hash); repeat for several (default: \
                \(StrategyComparison.defaultMetrics.joined(separator: ", "))).
                """,
                valueName: "name"))
        var metrics: [String] = []

        @Option(name: .long, help: "Output format.")
        var format: Format = .table

        @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                """
                Multi-seed and explore results: compare every other variant with this one, where it exists \
                (default: each scenario's first variant).
                """,
                valueName: "variant"))
        var baseline: String?

        @Flag(
            name: .customLong("all-pairs"),
            help: "Multi-seed and explore results: compare every pair of variants instead of each with the baseline.")
        var allPairs = false

        @Option(
            name: .customLong("tolerance"),
            help: ArgumentHelp(
                """
                The smallest difference that matters for a metric, overriding its default, e.g. drift_max_pt=2 or \
                allocations=10%.
                """,
                valueName: "metric=value"))
        var toleranceFlags: [String] = []

        @Option(
            name: .long,
            help: ArgumentHelp(
                "A file of smallest differences, one `metric = value` per line (check's tolerance format).",
                valueName: "file"))
        var tolerances: String?

        @Option(
            name: .long,
            help: "Multi-seed and explore results: the correction for making every comparison at once (holm, none).")
        var correction: MultipleComparisons = .default

        @Option(
            name: .long,
            help:
                """
                Multi-seed and explore results: bootstrap resamples of the pairs (raised to what the family of \
                comparisons needs).
                """
        )
        var resamples: Int = PairedBootstrap.defaultResamples

        @Option(
            name: .customLong("bootstrap-seed"), help: "Multi-seed results: the seed of the bootstrap's resampling.")
        var bootstrapSeed: UInt64 = PairedBootstrap.defaultSeed

        /// Checks the folder and the metric names here, so that a usage error
        /// prints this command's usage.
        func validate() throws {
            guard resamples >= 1 else { throw ValidationError("--resamples must be at least 1, got \(resamples).") }
            if allPairs, let baseline {
                throw ValidationError("--all-pairs compares every pair; it cannot go with --baseline \(baseline).")
            }
            // A large explore.csv is read once, in run(): reading it here too
            // would double the step's time.
            if let exploreFile, PairedComparison.readsAsColumns(exploreFile) { return }
            _ = try FeedSim.validating { try comparison() }
        }

        /// Says so on stderr when the folder was written by a build whose
        /// allocation counts a release build's would not match.
        private func noteProvenance() {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { return }
            let url = URL(fileURLWithPath: folder, isDirectory: isDirectory)
            let results = isDirectory ? url : url.deletingLastPathComponent()
            guard let provenance = try? Provenance.load(inFolder: results) else { return }
            if provenance.buildConfiguration != "release" {
                printError(
                    """
                    provenance: \(folder) comes from a \(provenance.buildConfiguration) build \
                    (\(provenance.summary)); its allocation counts are not a release build's
                    """
                )
            }
        }

        func run() throws {
            noteProvenance()
            let result: any ComparisonText
            switch try comparison() {
            case let .single(single): result = single
            case let .seeds(seeds):
                result = seeds
                if let note = seeds.missingBaselineNote { printError(note) }
                if let first = seeds.groups.first?.comparison, first.verdictUnreachable {
                    printError(first.unreachableWarning)
                }
            case let .sessions(sessions):
                result = sessions
                if sessions.comparison.verdictUnreachable { printError(sessions.comparison.unreachableWarning) }
            }
            let text =
                switch format {
                case .table: result.terminalText
                case .markdown: result.markdown
                case .csv: result.csvTable.text
                case .json: result.json
                }
            guard let output else {
                print(text, terminator: "")
                return
            }
            do {
                try AtomicFile.write(text, to: URL(fileURLWithPath: output))
            } catch {
                throw CommandFailure.internalFailure("cannot write \(output): \(error.readableDescription)")
            }
            print("wrote \(output)")
        }

        /// One run per key, side by side; several seeds per key, paired per
        /// scenario; or explore results, paired per session.
        enum Comparison {
            case single(StrategyComparison)
            case seeds(SeedComparison)
            case sessions(ExploreComparison)
        }

        /// The explore.csv `folder` names: the file itself, or the file in a
        /// folder that has no summary.csv.
        private var exploreFile: String? {
            let url = URL(fileURLWithPath: folder)
            if url.lastPathComponent == HTMLReport.populationFileName { return folder }
            let explore = url.appendingPathComponent(HTMLReport.populationFileName).path
            let summary = url.appendingPathComponent(SummaryInput.fileName).path
            return FileManager.default.fileExists(atPath: explore) && !FileManager.default.fileExists(atPath: summary)
                ? explore : nil
        }

        /// The smallest differences given by --tolerances and --tolerance.
        private func smallestDifferences() throws -> ToleranceSet {
            do {
                var set = ToleranceSet()
                if let tolerances {
                    set = try ToleranceSet.load(url: URL(fileURLWithPath: tolerances), file: tolerances)
                }
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

        /// The pairs of variants of each scenario of multi-seed results:
        /// every pair, the named baseline against the rest, or each
        /// scenario's own first variant against the rest.
        private var pairing: VariantPairing {
            if allPairs { return .allPairs }
            return baseline.map(VariantPairing.baseline) ?? .firstVariant
        }

        /// The population explore recorded beside `exploreFile`, if it did.
        private func explorePopulation(beside exploreFile: String) throws -> ExplorePopulation? {
            do {
                return try ExplorePopulation.load(
                    inFolder: URL(fileURLWithPath: exploreFile).deletingLastPathComponent())
            } catch {
                throw CommandFailure.internalFailure("invalid explore results: \(error)")
            }
        }

        private func comparison() throws -> Comparison {
            let bootstrap = PairedBootstrap(resamples: resamples, seed: bootstrapSeed)
            let smallest = try smallestDifferences()
            if let exploreFile, PairedComparison.readsAsColumns(exploreFile) {
                let population = try explorePopulation(beside: exploreFile)
                do {
                    return .sessions(
                        ExploreComparison(
                            comparison: try PairedComparison.streaming(
                                url: URL(fileURLWithPath: exploreFile), file: exploreFile,
                                metrics: metrics.isEmpty ? nil : metrics,
                                pairing: pairing, bootstrap: bootstrap, smallestDifferences: smallest,
                                correction: correction), population: population))
                } catch let error as StrategyComparisonError {
                    throw ValidationError(error.description)
                } catch {
                    throw CommandFailure.internalFailure("invalid explore results: \(error)")
                }
            }
            if let exploreFile {
                let recorded = try explorePopulation(beside: exploreFile)
                let population: SummaryFile
                do {
                    population = try SummaryFile.load(
                        url: URL(fileURLWithPath: exploreFile), file: exploreFile,
                        requiredColumns: PopulationTable.exploreColumns)
                } catch {
                    throw CommandFailure.internalFailure("invalid explore results: \(error)")
                }
                do {
                    return .sessions(
                        ExploreComparison(
                            comparison: try PairedComparison(
                                summary: population, metrics: metrics.isEmpty ? nil : metrics,
                                baseline: baselineVariant(of: population.rows),
                                bootstrap: bootstrap, smallestDifferences: smallest, correction: correction),
                            population: recorded))
                } catch {
                    throw ValidationError(error.description)
                }
            }
            let summary = try SummaryInput.load(folder, option: nil)
            do {
                guard summary.isMultiSeed else {
                    if baseline != nil || allPairs {
                        throw ValidationError(
                            """
                            --\(allPairs ? "all-pairs" : "baseline") pairs the runs of multi-seed results; \
                            \(summary.file) has one seed per run (see `feedsim run --seeds`).
                            """
                        )
                    }
                    return .single(
                        try StrategyComparison(
                            summary: summary, metrics: metrics.isEmpty ? StrategyComparison.defaultMetrics : metrics))
                }
                return .seeds(
                    try SeedComparison(
                        summary: summary, metrics: metrics.isEmpty ? nil : metrics, pairing: pairing,
                        bootstrap: bootstrap, smallestDifferences: smallest, correction: correction))
            } catch let error as StrategyComparisonError {
                throw ValidationError(error.description)
            }
        }
    }
}

extension MultipleComparisons: ExpressibleByArgument {}
