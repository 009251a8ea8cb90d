import ArgumentParser
import Testing

@testable import FeedSimCLI

@Suite("Command names")
struct CommandNameTests {
    /// Every command of `root`'s tree, depth first.
    static func commands(under root: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap { commands(under: $0) }
    }

    /// A command without a `commandName` has ArgumentParser derive one from
    /// its type's name at every start (`String(describing:)` and a
    /// conversion to kebab case): for `feedsim import` that cost every
    /// `feedsim run` 3.6 M instructions (callgrind) as the parser built
    /// the command tree.
    @Test("every command below the root names itself, so no start derives a name from a type")
    func everyCommandNamed() {
        let unnamed = CommandNameTests.commands(under: FeedSim.self).dropFirst()
            .filter { $0.configuration.commandName == nil }
            .map { String(describing: $0) }
        #expect(unnamed.isEmpty, "commands without a commandName: \(unnamed)")
        #expect(CommandNameTests.commands(under: FeedSim.self).count > 10)
    }
}
