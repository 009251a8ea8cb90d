import ArgumentParser
import FeedScenario

extension FeedSim {
    /// `feedsim schema`: the scenario format as JSON Schema, generated from
    /// the field tables the decoder reads.
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the scenario JSON Schema (Draft 2020-12), or with --explore the explore configuration's.",
            discussion:
                """
                scenarios/schema.json is this output: feedsim schema > scenarios/schema.json; explore/schema.json \
                is feedsim schema --explore > explore/schema.json
                """
        )

        @Flag(name: .long, help: "The schema of `feedsim explore`'s configuration instead.")
        var explore = false

        func run() {
            print(explore ? ExploreConfigSchema.text : ScenarioSchema.text, terminator: "")
        }
    }
}
