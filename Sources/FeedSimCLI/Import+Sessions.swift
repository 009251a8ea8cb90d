import ArgumentParser
import FeedImport
import FeedReports
import FeedScenario
import FoundationEssentials
import SystemSupport

extension FeedSim.Import {
    /// `feedsim import sessions`: recorded session logs turned into replay
    /// scenarios and a fitted usage model.
    struct Sessions: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sessions",
            abstract: "Turn recorded session logs into replay scenarios and a usage model.",
            discussion: """
                LOG is a session log (JSON Lines, one event a line: docs/your-app.md, "Your readers") \
                or a folder of `.jsonl` logs. Each recorded session becomes DIR/sessions/session-ID.json, \
                a scenario that replays its drags along their recorded trajectories, releases them at the \
                velocity a UIKit scroll view would, and plays its app events at their times; ID is the \
                session id hashed with the salt. DIR/usage.json holds the usage model: lognormal fits (or \
                empirical quantiles where the Kolmogorov–Smirnov test with Lilliefors' critical value \
                rejects them) of the time between gestures, drag distance and duration, lift speed, depth \
                and session length, the fling and direction-change proportions, and Poisson rates of \
                refreshes, backgrounds and rotations. Logs too few to fit a part are refused, naming it.

                With --salt-file the import is repeatable byte for byte; without it a fresh random salt \
                names the replays differently every time.

                Exit codes: 0 success, 64 usage error, 65 malformed log (named with file and line) or logs \
                too few to fit, 1 output that cannot be written.
                """)

        @Argument(help: ArgumentHelp("A session log, or a folder of .jsonl session logs.", valueName: "log"))
        var log: String

        @Option(help: ArgumentHelp("The folder to write sessions/ and usage.json into.", valueName: "dir"))
        var out: String

        @Option(
            help: ArgumentHelp(
                """
                A file of at least 16 bytes whose bytes salt the hashed session ids: the same salt file imports \
                the same logs to the same bytes.
                """,
                valueName: "path"))
        var saltFile: String?

        @Option(help: ArgumentHelp("The device profile the replays name.", valueName: "name"))
        var device = "iphone-60hz"

        @Option(help: ArgumentHelp("Posts in the synthetic feed the replays scroll.", valueName: "count"))
        var postCount = 1_000

        @Flag(help: "Write the replays only, without fitting a usage model (for a few sessions).")
        var noUsage = false

        func validate() throws {
            guard (1...1_000_000).contains(postCount) else {
                throw ValidationError("--post-count must be 1…1,000,000, found \(postCount)")
            }
            guard !device.isEmpty else { throw ValidationError("--device must not be empty") }
        }

        func run() throws {
            let (sessions, salt, model) = try readAndFit()
            let folder = URL(fileURLWithPath: out, isDirectory: true)
            // Every replay is made (and a session too long refused) before
            // anything is staged; each file's text is made as it is staged,
            // so the texts of thousands of replays are never held at once.
            let replays = try sessions.map { session in
                try invalid { () throws(FileProblem) in
                    try SessionReplay.scenario(
                        for: session, named: "session-" + salt.hash(session.id),
                        settings: .init(device: device, postCount: postCount), file: log)
                }
            }
            try StagedFiles.write(to: out, interruption: nil) { output in
                do {
                    try Self.stageReplays(replays, in: folder, output: &output)
                    try output.stage(model?.fileText, orRemove: folder.appendingPathComponent("usage.json"))
                } catch {
                    output.discard()
                    throw error
                }
            }
            let gestures = sessions.map(\.gestures.count).reduce(0, +)
            print("read \(sessions.count) sessions, \(gestures) gestures from \(log)")
            print("wrote \(replays.count) replays to \(FilePath.join(out, "sessions"))")
            if let model {
                print(model.fitTable)
                print("wrote \(FilePath.join(out, "usage.json"))")
            }
        }

        /// The sessions, the salt and (unless --no-usage) the usage model.
        private func readAndFit() throws -> ([RecordedSession], ImportSalt, UsageModel?) {
            try invalid { () throws(FileProblem) in
                let salt =
                    try saltFile.map { path throws(FileProblem) in try ImportSalt.read(path: path, file: path) }
                    ?? .random()
                let sessions = try SessionLogReader.read(path: log)
                guard !sessions.isEmpty else {
                    throw FileProblem(file: log, line: nil, problem: "expected at least one session event, found none")
                }
                return (sessions, salt, noUsage ? nil : try UsageModel.fit(sessions, file: log))
            }
        }

        /// `body`'s value, a file problem in it made an exit-65 failure.
        private func invalid<T>(_ body: () throws(FileProblem) -> T) throws -> T {
            do {
                return try body()
            } catch {
                throw CommandFailure.invalidInput("invalid session log: \(error)")
            }
        }

        /// The replay's file text, read back to be sure a run accepts it.
        private static func checked(_ scenario: Scenario) throws -> String {
            let text = scenario.fileText
            do {
                _ = try ScenarioLoader.scenario(from: Data(text.utf8), file: scenario.name)
            } catch {
                throw CommandFailure.internalFailure("a replay does not read back as a scenario: \(error)")
            }
            return text
        }

        /// Stages the replays in `folder`/sessions, each read back first to
        /// be sure a run accepts it, and the removal of every replay an
        /// earlier import left there that is not among them.
        private static func stageReplays(_ replays: [Scenario], in folder: URL, output: inout StagedFiles) throws {
            let sessionsFolder = folder.appendingPathComponent("sessions", isDirectory: true)
            let kept = Set(replays.map { $0.name + ".json" })
            let existing = ((try? FileManager.default.contentsOfDirectory(atPath: sessionsFolder.path)) ?? []).sorted()
            for name in existing where name.hasSuffix(".json") && !kept.contains(name) {
                output.stageRemoval(of: sessionsFolder.appendingPathComponent(name))
            }
            for replay in replays {
                try output.stage(try checked(replay), to: sessionsFolder.appendingPathComponent(replay.name + ".json"))
            }
        }
    }
}
