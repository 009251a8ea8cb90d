import ArgumentParser
import FeedReports
import FoundationEssentials
import Glibc
import SystemSupport

extension FeedSim {
    /// `feedsim check`: compare current results with a baseline and fail on
    /// regressions.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Compare results with a baseline; exit 2 on any regression.",
            discussion: """
                Runs are matched by (scenario, variant, refresh_hz) and every metric of \
                summary.csv except seed is compared, exactly unless a tolerance says \
                otherwise. Beyond its tolerance a metric is a regression or an \
                improvement by its direction (lower is better for overrun, dropped and \
                jank frames, hitch time and ratio, frame work, drift events and sizes, \
                allocations, peak memory, memory warnings, jetsam kills and network \
                failures; higher for the two hit rates). frames, \
                duration_s, network_requests and trace_digest are neutral: a change is \
                listed but fails only under a `strict` tolerance. A run missing from \
                the current results fails; a new run is listed. A metric the baseline \
                lacks (a baseline written before it existed) is listed as not in the \
                baseline and not compared.

                Tolerance file: one `metric = value` per line, `#` comments. A value \
                is a number in the metric's unit (`hitch_time_ms = 0.5`), a percentage \
                of the baseline (`allocations = 5%`), either followed by `strict`, or \
                `strict` alone. trace_digest takes only `strict`.

                For CI: --junit writes a JUnit XML file (a testsuite per scenario, a \
                testcase per run, a failure per regressed metric or missing run), \
                --summary-markdown a Markdown job summary (failures, improvements, then \
                the verdict; GitHub's $GITHUB_STEP_SUMMARY takes it as is), and \
                --format json prints the verdict, counts, runs and findings as JSON \
                instead of the table. The files are written whatever the verdict.

                Exit codes: 0 no regression, 2 regression or missing run, 64 usage \
                error (missing folder, bad tolerance, results of a debug build against \
                a release baseline or the other way round without \
                --allow-build-mismatch), 1 unreadable or malformed summary.csv or \
                provenance.json, or an unwritable output file.

                Provenance: each results folder records the build that wrote it \
                (provenance.json: FeedSim's version, build configuration, Swift \
                version, OS and architecture). The check says on stderr where baseline \
                and current differ, and refuses to compare the allocation columns of \
                builds of different configurations unless --allow-build-mismatch.
                """
        )

        @Option(name: .long, help: ArgumentHelp("Baseline results folder (or its summary.csv).", valueName: "dir"))
        var baseline: String

        @Option(name: .long, help: ArgumentHelp("Current results folder (or its summary.csv).", valueName: "dir"))
        var current: String = "results/latest"

        @Option(name: .long, help: ArgumentHelp("Tolerance file: one `metric = value` per line.", valueName: "file"))
        var tolerances: String?

        @Option(
            name: .customLong("tolerance"),
            help: ArgumentHelp("A tolerance overriding the file, e.g. allocations=5%.", valueName: "metric=value"))
        var toleranceFlags: [String] = []

        /// What standard output shows.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @Option(name: .long, help: "Output format: the table and verdict line, or JSON.")
        var format: Format = .text

        @Option(name: .long, help: ArgumentHelp("Also write the check as JUnit XML to this file.", valueName: "file"))
        var junit: String?

        @Option(
            name: .customLong("summary-markdown"),
            help: ArgumentHelp(
                "Also write a Markdown job summary to this file (e.g. $GITHUB_STEP_SUMMARY).", valueName: "file"))
        var summaryMarkdown: String?

        @Flag(
            name: .customLong("allow-build-mismatch"),
            help: "Compare results of a debug build with a release baseline (or the other way round) anyway.")
        var allowBuildMismatch = false

        /// Checks the tolerances and the folders here, so that a usage error
        /// prints this command's usage.
        func validate() throws {
            _ = try loadTolerances()
            _ = try SummaryInput.locate(baseline, option: "--baseline")
            _ = try SummaryInput.locate(current, option: "--current")
        }

        func run() throws {
            let toleranceSet = try loadTolerances()
            // A baseline written before a metric existed lacks its column:
            // the check lists it as not in the baseline instead of refusing
            // the file.
            let baselineSummary = try SummaryInput.load(baseline, option: "--baseline", requiredColumns: [])
            let currentSummary = try SummaryInput.load(current, option: "--current")
            // The check compares one run per (scenario, variant, refresh_hz);
            // with several seeds per run it would silently use the first.
            for summary in [baselineSummary, currentSummary] where summary.isMultiSeed {
                throw CommandFailure.usage(
                    """
                    \(summary.file) holds several seeds per run (`feedsim run --seeds`); check compares one run \
                    per scenario,\u{20}
                    """
                        + "variant and rate. Compare seeds with `feedsim compare`, or check a run without --seeds.")
            }
            try checkProvenance()
            let result = BaselineCheck.compare(
                baseline: baselineSummary, current: currentSummary, tolerances: toleranceSet)

            if let junit { try write(result.junitXML, to: junit) }
            if let summaryMarkdown { try write(result.summaryMarkdown, to: summaryMarkdown) }
            switch format {
            case .json:
                print(result.json, terminator: "")
            case .text:
                let custom = toleranceSet.customised
                if !custom.isEmpty {
                    print("tolerances: " + custom.map { "\($0.metric) = \($0.tolerance)" }.joined(separator: ", "))
                }
                if !result.findings.isEmpty {
                    print(result.table)
                    print()
                }
                print(result.verdictLine)
            }
            if !result.passed { throw CommandFailure.regression }
        }

        /// Says where the builds behind the two folders differ, and stops
        /// (exit 64) when their allocation counts cannot be compared.
        private func checkProvenance() throws {
            let comparison: ProvenanceComparison
            do {
                comparison = ProvenanceComparison(
                    baseline: try Provenance.load(
                        inFolder: try SummaryInput.folder(of: baseline, option: "--baseline")),
                    current: try Provenance.load(inFolder: try SummaryInput.folder(of: current, option: "--current")),
                    allowBuildMismatch: allowBuildMismatch)
            } catch let error as ProvenanceError {
                throw CommandFailure.internalFailure("invalid provenance: \(error)")
            }
            for note in comparison.notes { printError(note) }
            if let refusal = comparison.refusal {
                throw CommandFailure.usage("cannot check: \(refusal)")
            }
        }

        /// Writes a report file whole or not at all; a file that cannot be
        /// written exits 1.
        private func write(_ text: String, to path: String) throws {
            do {
                try AtomicFile.write(text, to: URL(fileURLWithPath: path))
            } catch {
                throw CommandFailure.internalFailure("cannot write \(path): \(error.readableDescription)")
            }
        }

        private func loadTolerances() throws -> ToleranceSet {
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
    }
}

/// Finding and reading the `summary.csv` a command was pointed at.
enum SummaryInput {
    /// The summary's file name inside a results folder.
    static let fileName = "summary.csv"

    /// The summary file of `path`, a results folder or a summary file.
    ///
    /// A path that does not exist, or a folder without a summary, is a usage
    /// error (exit 64): the command was pointed at the wrong place. `option`
    /// names the flag the path came from, if any, in messages.
    static func locate(_ path: String, option: String?) throws -> String {
        let flag = option.map { " (\($0))" } ?? ""
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError(
                "No such file or folder: \(path)\(flag). Give a results folder written by `feedsim run --out`.")
        }
        guard isDirectory else { return path }
        let file = path.hasSuffix("/") ? path + fileName : path + "/" + fileName
        guard FileManager.default.fileExists(atPath: file) else {
            throw ValidationError("\(path)\(flag) has no \(fileName); run `feedsim run --out \(path)` first.")
        }
        return file
    }

    /// The results folder of `path`, a results folder or a summary file in one.
    static func folder(of path: String, option: String?) throws -> URL {
        URL(fileURLWithPath: try locate(path, option: option)).deletingLastPathComponent()
    }

    /// Reads the summary of `path`, a results folder or a summary file.
    ///
    /// Where `locate` fails, so does this, with a usage error. A summary
    /// that exists but cannot be read or is malformed is reported on stderr
    /// and exits 1: `feedsim run` wrote it, so the pipeline that produced it
    /// failed, and 65 stays reserved for invalid scenarios.
    static func load(
        _ path: String, option: String?, requiredColumns: [String] = RunReports.summaryColumns
    ) throws -> SummaryFile {
        let file = try locate(path, option: option)
        do {
            return try SummaryFile.load(url: URL(fileURLWithPath: file), file: file, requiredColumns: requiredColumns)
        } catch {
            throw CommandFailure.internalFailure("invalid summary: \(error)")
        }
    }
}
