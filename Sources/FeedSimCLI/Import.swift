import ArgumentParser

extension FeedSim {
    /// `feedsim import`: a team's own captures turned into files scenarios
    /// and explore configurations name. Each importer keeps only what the
    /// model uses, hashes every id it keeps with a salt (`ImportSalt`), and
    /// refuses a malformed file with its place and exit 65.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Turn your own captures (a timeline, a HAR file, recorded sessions) into FeedSim's inputs.",
            subcommands: [Timeline.self, HAR.self, Sessions.self])
    }
}
