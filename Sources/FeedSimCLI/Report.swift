import ArgumentParser
import FeedReports
import FoundationEssentials
import SystemSupport

extension FeedSim {
    /// `feedsim report`: one self-contained HTML page about a results folder.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract:
                "Write an HTML report of a results folder: summary table, per-scenario charts, per-run frame plots.",
            discussion: """
                The page has a table of every run; per scenario, its variants side by \
                side in bar charts of overrun frames, hitch ratio, largest drift and \
                allocations; and per run, when the folder has frames.csv (`feedsim run \
                --frames`), frame work over time with the budget line, overrun frames \
                in red and drift records (from drift.csv) as vertical lines with their \
                cause. Long runs are drawn with at most one point per pixel column: the \
                frame with the most work in it.

                Results that hold a population get a population page: with several \
                seeds per run (`feedsim run --seeds N`) each scenario shows, per metric \
                (largest drift, hitch ratio, overrun frames), the distribution of its \
                seeds' runs with a lane per variant, its population table and its \
                variants' paired differences, and the table of every run comes last, \
                folded; an explore.csv in the folder (`feedsim \
                explore`) gets a population section over every session, the same way, \
                naming the population its verdicts are over (population.json). \
                A folder with explore.csv needs no summary.csv.

                The file holds inline CSS and SVG only (no scripts, no external assets) \
                and opens offline; the same folder always gives the same bytes.

                Exit codes: 0 success, 64 missing folder or summary.csv, 1 malformed \
                CSV or unwritable output.
                """
        )

        @Argument(help: ArgumentHelp("Results folder written by `feedsim run`.", valueName: "dir"))
        var folder: String = "results/latest"

        @Option(
            name: .long, help: ArgumentHelp("The HTML file to write (default: DIR/report.html).", valueName: "file"))
        var out: String?

        func validate() throws {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory
            else {
                throw ValidationError(
                    "No such folder: \(folder). Give a results folder written by `feedsim run --out`.")
            }
            let explore = URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent(
                HTMLReport.populationFileName)
            if !FileManager.default.fileExists(atPath: explore.path) {
                _ = try SummaryInput.locate(folder, option: nil)
            }
        }

        func run() throws {
            let report: HTMLReport
            do {
                report = try HTMLReport.load(folder: URL(fileURLWithPath: folder, isDirectory: true), name: folder)
            } catch {
                throw CommandFailure.internalFailure("cannot read results: \(error)")
            }
            let destination =
                out
                ?? URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent(HTMLReport.defaultFileName)
                .path
            do {
                try AtomicFile.write(report.html, to: URL(fileURLWithPath: destination))
            } catch {
                throw CommandFailure.internalFailure("cannot write \(destination): \(error.readableDescription)")
            }
            print("wrote \(destination)")
        }
    }
}
