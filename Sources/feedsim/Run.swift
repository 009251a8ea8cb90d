import ArgumentParser
import FeedReports
import FeedScenario
import FeedSimulator
import Foundation

extension FeedSim {
    /// `feedsim run`: run scenarios and write the CSV reports.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run scenario files and write summary.csv, drift.csv and frames.csv.",
            discussion: """
                Each scenario runs once per refresh rate it lists. The files are \
                written only when every run has finished, each atomically.
                """
        )

        @Argument(help: "Scenario files or folders (searched recursively; devices/ is skipped).")
        var paths: [String] = ["scenarios"]

        @Option(name: .long, help: "Folder for the CSV files.")
        var out: String = "results/latest"

        @Flag(name: .long, help: "Also write frames.csv, one row per rendered frame.")
        var frames = false

        @Option(name: .long, help: "Seed for every run, replacing each scenario's own.")
        var seed: UInt64?

        func run() throws {
            let files = try ScenarioFiles.collect(paths)
            let scenarios = try ScenarioFiles.load(files)
            let requests = scenarios.flatMap { RunRequest.expand($0, seedOverride: seed, recordFrames: frames) }
            let progress = Progress(total: requests.count)
            var results: [RunResult] = []
            for request in requests {
                progress.starting(request)
                do {
                    results.append(try Simulation(request: request).run())
                } catch {
                    progress.finish()
                    printError("run failed: \(request.loaded.file) (\(request.loaded.scenario.name), \(request.refreshHz) Hz, seed \(request.seed)): \(error)")
                    throw FeedSimExit.internalFailure
                }
            }
            progress.finish()

            let folder = URL(fileURLWithPath: out, isDirectory: true)
            do {
                try AtomicFile.write(RunReports.summary(results).text, to: folder.appendingPathComponent("summary.csv"))
                try AtomicFile.write(RunReports.drift(results).text, to: folder.appendingPathComponent("drift.csv"))
                if frames {
                    try AtomicFile.write(RunReports.frames(results).text, to: folder.appendingPathComponent("frames.csv"))
                }
            } catch {
                printError("cannot write results to \(out): \(error.localizedDescription)")
                throw FeedSimExit.internalFailure
            }
            print(RunTable.render(results))
            print("wrote \(out)/summary.csv, \(out)/drift.csv\(frames ? ", \(out)/frames.csv" : "")")
        }
    }
}

/// Progress on stderr, only when stderr is a terminal.
final class Progress {
    let total: Int
    private var done = 0
    private let enabled = isatty(STDERR_FILENO) == 1

    init(total: Int) { self.total = total }

    func starting(_ request: RunRequest) {
        guard enabled else { return }
        done += 1
        printErrorNoNewline("\r\u{1B}[2K[\(done)/\(total)] \(request.loaded.scenario.name) @ \(request.refreshHz) Hz")
    }

    func finish() {
        guard enabled else { return }
        printErrorNoNewline("\r\u{1B}[2K")
    }

    private func printErrorNoNewline(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
