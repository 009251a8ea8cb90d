import ArgumentParser
import FeedReports

extension FeedSim {
    /// `feedsim metrics`: the columns of summary.csv, as the one table every
    /// report takes them from.
    struct Metrics: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "metrics",
            abstract: "List the metrics of summary.csv: unit, which way is better, definition and source.",
            discussion: "With --markdown, the table the README carries."
        )

        @Flag(help: "Print a Markdown table.")
        var markdown = false

        func run() {
            if markdown {
                print(Metric.markdownTable)
                return
            }
            let rows = Metric.all.map { metric in
                [metric.name, metric.unit, metric.direction.rawValue, metric.definition]
            }
            print(TextGrid.render(header: ["column", "unit", "direction", "definition"], rows: rows))
        }
    }
}
