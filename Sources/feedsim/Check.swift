import ArgumentParser
import FeedReports
import Foundation

extension FeedSim {
    /// `feedsim check`: compare current results with a baseline and fail on
    /// regressions.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
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
                the current results fails; a new run is listed.

                Tolerance file: one `metric = value` per line, `#` comments. A value \
                is a number in the metric's unit (`hitch_time_ms = 0.5`), a percentage \
                of the baseline (`allocations = 5%`), either followed by `strict`, or \
                `strict` alone. trace_digest takes only `strict`.

                Exit codes: 0 no regression, 2 regression or missing run, 64 usage \
                error (missing folder, bad tolerance), 1 unreadable or malformed \
                summary.csv.
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

        /// Checks the tolerances and the folders here, so that a usage error
        /// prints this command's usage.
        func validate() throws {
            _ = try loadTolerances()
            _ = try SummaryInput.locate(baseline, option: "--baseline")
            _ = try SummaryInput.locate(current, option: "--current")
        }

        func run() throws {
            let toleranceSet = try loadTolerances()
            let baselineSummary = try SummaryInput.load(baseline, option: "--baseline")
            let currentSummary = try SummaryInput.load(current, option: "--current")
            // The check compares one run per (scenario, variant, refresh_hz);
            // with several seeds per run it would silently use the first.
            for summary in [baselineSummary, currentSummary] where summary.isMultiSeed {
                printError("\(summary.file) holds several seeds per run (`feedsim run --seeds`); check compares one run per scenario, variant and rate. Compare seeds with `feedsim compare`, or check a run without --seeds.")
                throw FeedSimExit.usage
            }
            let result = BaselineCheck.compare(baseline: baselineSummary, current: currentSummary, tolerances: toleranceSet)

            let custom = toleranceSet.customised
            if !custom.isEmpty {
                print("tolerances: " + custom.map { "\($0.metric) = \($0.tolerance)" }.joined(separator: ", "))
            }
            if !result.findings.isEmpty {
                print(result.table)
                print()
            }
            print(result.verdictLine)
            if !result.passed { throw FeedSimExit.regression }
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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("No such file or folder: \(path)\(flag). Give a results folder written by `feedsim run --out`.")
        }
        guard isDirectory.boolValue else { return path }
        let file = path.hasSuffix("/") ? path + fileName : path + "/" + fileName
        guard FileManager.default.fileExists(atPath: file) else {
            throw ValidationError("\(path)\(flag) has no \(fileName); run `feedsim run --out \(path)` first.")
        }
        return file
    }

    /// Reads the summary of `path`, a results folder or a summary file.
    ///
    /// Where `locate` fails, so does this, with a usage error. A summary
    /// that exists but cannot be read or is malformed is reported on stderr
    /// and exits 1: `feedsim run` wrote it, so the pipeline that produced it
    /// failed, and 65 stays reserved for invalid scenarios.
    static func load(_ path: String, option: String?) throws -> SummaryFile {
        let file = try locate(path, option: option)
        do {
            return try SummaryFile.load(url: URL(fileURLWithPath: file), file: file)
        } catch {
            printError("invalid summary: \(error)")
            throw FeedSimExit.internalFailure
        }
    }
}
