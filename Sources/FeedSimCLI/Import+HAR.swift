import ArgumentParser
import FeedImport
import FeedReports
import FoundationEssentials

extension FeedSim.Import {
    /// `feedsim import har`: a HAR 1.2 capture into NETWORK.json, the
    /// per-class distributions a scenario's `"network": {"from": ...}` runs on.
    struct HAR: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "har",
            abstract: "Turn a HAR 1.2 capture into NETWORK.json: latency, transfer and failures per class of request.",
            discussion: """
                Reads log.entries one at a time (a file of any size imports in bounded memory), classes each request \
                as feed, image or other by URL, and writes 101 quantiles of latency (ms), bytes and throughput (kbps) \
                per class, with failure and timeout rates. No URL, host or header is kept, and no id: the same HAR \
                always gives the same NETWORK.json byte for byte, so no salt file is needed. Prints each class's \
                p10/p50/p90/p99 beside those of the HAR. The rules for HAR's edge cases are in docs/your-app.md.
                """)

        @Argument(help: "The HAR file (HAR 1.2, as browsers and proxies export it).")
        var path: String

        @Option(name: .long, help: "Where to write NETWORK.json.")
        var out: String

        @Option(
            name: .customLong("class"),
            help: ArgumentHelp(
                "NAME=PATTERN: a URL containing PATTERN is of class NAME (feed or image); repeatable; "
                    + "replaces that class's defaults.",
                valueName: "NAME=PATTERN"))
        var classes: [String] = []

        func run() throws {
            let classifier: RequestClassifier
            switch RequestClassifier.parse(classes) {
            case .success(let parsed): classifier = parsed
            case .failure(let error): throw CommandFailure.usage("--class \(error.option): \(error.reason)")
            }
            let imported: HARImport
            do {
                imported = try HARImport.read(url: URL(fileURLWithPath: path), file: path, classifier: classifier)
            } catch {
                throw CommandFailure.invalidInput(error.description)
            }
            let text = imported.fileText
            try StagedFiles.write(to: out, interruption: nil) { output in
                try output.stage(text, to: URL(fileURLWithPath: out))
            }
            print("\(imported.entries) entries from \(path) into \(out)")
            print(imported.fitTable)
        }
    }
}
