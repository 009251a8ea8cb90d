import ArgumentParser
import FeedReports
import Foundation

extension FeedSim {
    /// `feedsim compare`: the variants of one results folder side by side.
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare the variants (strategies) of one results folder, metric by metric.",
            discussion: """
                One table per metric: a row per (scenario, refresh_hz), a column per \
                variant in the order the summary first lists them. The best value of \
                each row is marked (lowest where lower is better, highest for hit \
                rates; ties all marked; no mark with fewer than two variants or for \
                neutral metrics): `*` in the table, **bold** in Markdown, and named in \
                the `best_variant` column of the CSV (ties joined by `;`).

                Exit codes: 0 success, 64 usage error (missing folder, unknown \
                metric), 1 unreadable or malformed summary.csv or unwritable output.
                """
        )

        /// The output formats.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, markdown, csv, json
        }

        @Argument(help: ArgumentHelp("Results folder (or its summary.csv).", valueName: "dir"))
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

        /// Checks the folder and the metric names here, so that a usage error
        /// prints this command's usage.
        func validate() throws {
            _ = try comparison()
        }

        func run() throws {
            let comparison = try comparison()
            let text: String
            switch format {
            case .table: text = comparison.terminalText
            case .markdown: text = comparison.markdown
            case .csv: text = comparison.csv.text
            case .json: text = comparison.json
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

        private func comparison() throws -> StrategyComparison {
            let summary = try SummaryInput.load(folder, option: nil)
            do {
                return try StrategyComparison(
                    summary: summary, metrics: metrics.isEmpty ? StrategyComparison.defaultMetrics : metrics)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }
}
