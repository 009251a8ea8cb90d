import ArgumentParser
import FeedImport
import FeedReports
import FeedScenario
import FoundationEssentials

extension FeedSim.Import {
    /// `feedsim import timeline`: a captured timeline turned into FEED.json,
    /// which a scenario names with `"feed": {"from": "FEED.json"}`.
    struct Timeline: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timeline",
            abstract: "Turn captured app.bsky.feed.getTimeline pages (or FeedSim post lines) into FEED.json.",
            discussion: """
                PATH is one getTimeline response page (.json), a folder of them (every .json \
                file, in name order, one page each), or FeedSim's own post lines (.jsonl, one \
                post a line; docs/your-app.md, "Your feed"). FEED.json keeps per post only text \
                length, media shapes, embed kinds, thread and repost structure, and ids hashed \
                with a salt: no text, URIs, handles or DIDs. Without --salt-file every import \
                draws a fresh random salt; with the same salt file the same capture imports to \
                the same bytes. Unknown embed types are counted, printed and kept as counts.

                Exit codes: 0 success, 64 usage error, 65 malformed capture or salt file \
                (named with the file and the JSON path or line), 1 output that cannot be written.
                """)

        @Argument(
            help: ArgumentHelp("A getTimeline page, a folder of pages, or a .jsonl file of posts.", valueName: "path"))
        var path: String

        @Option(help: ArgumentHelp("Where to write the imported feed.", valueName: "FEED.json"))
        var out: String

        @Option(
            name: .customLong("salt-file"),
            help: ArgumentHelp(
                "A file of at least 16 secret bytes to hash ids with; the same salt file makes the import repeatable "
                    + "byte for byte (default: a fresh random salt).",
                valueName: "path"))
        var saltFile: String?

        func run() throws {
            let salt: ImportSalt
            let feed: ImportedFeed
            do {
                salt =
                    try saltFile.map { path throws(FileProblem) in try ImportSalt.read(path: path, file: path) }
                    ?? ImportSalt.random()
            } catch {
                throw CommandFailure.invalidInput(error.description)
            }
            do {
                feed = try TimelineImport.read(path: path, salt: salt)
            } catch {
                throw CommandFailure.invalidInput(error.description)
            }
            let data = try feed.encoded()
            try StagedFiles.write(to: out, interruption: nil) { files in
                try files.stage(data, to: URL(fileURLWithPath: out))
            }
            print(TimelineImport.summary(of: feed))
            print("wrote \(out)")
        }
    }
}
