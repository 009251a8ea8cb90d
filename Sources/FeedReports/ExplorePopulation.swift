import FeedScenario
import FoundationEssentials
import SystemSupport

/// Which sessions an exploration's verdicts are over. `feedsim explore`
/// writes it beside explore.csv as `population.json`, so that `compare` and
/// `report` of the folder say what explore's summary said, without a
/// column added to explore.csv.
package struct ExplorePopulation: Codable, Equatable, Sendable {
    /// Where explore drew its sessions from.
    package enum Kind: String, Codable, Sendable {
        /// Random subsets of actions at random times: for finding bugs.
        case swarm
        /// Drawn from a usage model fitted to recorded sessions: for deciding.
        case usage
    }

    package var kind: Kind
    /// The usage model's file as the configuration names it; nil for the swarm.
    package var usageModel: String?
    /// The recorded sessions the usage model was fitted to; nil for the swarm.
    package var usageSessions: Int?

    enum CodingKeys: String, CodingKey {
        case kind = "population", usageModel = "usage_model", usageSessions = "usage_sessions"
    }

    /// The file explore writes beside explore.csv.
    package static let fileName = "population.json"

    /// The swarm's sessions.
    package static let swarm = ExplorePopulation(kind: .swarm, usageModel: nil, usageSessions: nil)

    /// Sessions drawn from the usage model `model`, fitted to `sessions` recorded ones.
    package static func usage(model: String, sessions: Int) -> ExplorePopulation {
        ExplorePopulation(kind: .usage, usageModel: model, usageSessions: sessions)
    }

    /// What a comparison says of a folder without `population.json`.
    package static let unrecordedText =
        "population not recorded (no \(fileName) beside explore.csv: written before FeedSim recorded it)"

    /// The population in words, as explore's summary names it after "verdicts over the".
    package var text: String {
        switch kind {
        case .swarm: "swarm population (random subsets of actions at random times, for finding bugs)"
        case .usage:
            """
            usage population (sessions drawn from \(usageModel ?? "a usage model"), fitted to \
            \(usageSessions.map(String.init) ?? "?") recorded sessions)
            """
        }
    }

    /// `population.json`: the fields, and `text` as `description`; keys
    /// sorted, so the same exploration writes the same bytes.
    package var fileText: String { JSONDocument.text(of: FileDocument(self)) }

    /// The population recorded in `folder`, or nil when it has no
    /// `population.json` (an exploration written before it was recorded).
    package static func load(inFolder folder: URL) throws(FileProblem) -> ExplorePopulation? {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let document = try JSONDecoder().decode(FileDocument.self, from: Data(contentsOf: url))
            guard document.format == FileDocument.format else { throw CocoaError(.fileReadCorruptFile) }
            return ExplorePopulation(
                kind: document.population, usageModel: document.usageModel, usageSessions: document.usageSessions)
        } catch {
            throw FileProblem(
                file: url.relativePath, line: nil,
                problem: "expected the population `feedsim explore` writes (\(error.readableDescription))")
        }
    }

    /// `population.json` field by field.
    private struct FileDocument: Codable {
        static let format = "feedsim-explore-population"
        var format = FileDocument.format
        var version = 1
        var population: Kind
        var usageModel: String?
        var usageSessions: Int?
        var description: String

        enum CodingKeys: String, CodingKey {
            case format, version, population, usageModel = "usage_model", usageSessions = "usage_sessions"
            case description
        }

        init(_ population: ExplorePopulation) {
            self.population = population.kind
            usageModel = population.usageModel
            usageSessions = population.usageSessions
            description = population.text
        }
    }
}
