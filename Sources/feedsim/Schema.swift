import ArgumentParser
import FeedScenario

extension FeedSim {
    /// `feedsim schema`: the scenario format as JSON Schema, generated from
    /// the field tables the decoder reads.
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the scenario JSON Schema (Draft 2020-12).",
            discussion: "scenarios/schema.json is this output: feedsim schema > scenarios/schema.json"
        )

        func run() {
            print(ScenarioSchema.text, terminator: "")
        }
    }
}
