import ArgumentParser
import FeedEngine

/// The parts a parent process knows by name, handed to each worker it
/// starts (`--strategies`), so that a worker whose executable registered
/// different parts stops at once with a message naming them, instead of
/// failing run after run on a scenario it cannot read.
enum RegisteredParts {
    /// The option a worker receives them in.
    static let option = "--strategies"

    /// The names this process knows, as the option's value.
    static var strategies: String { PositionStrategy.known.map(\.name).joined(separator: ",") }

    /// The arguments that hand them to a worker.
    static var workerArguments: [String] { [option, strategies] }

    /// Fails, naming them, when the parent knew strategies this process
    /// does not.
    static func check(parentStrategies: String?, command: String) throws {
        guard let parentStrategies else { return }
        let missing = parentStrategies.split(separator: ",").map(String.init).filter { PositionStrategy.named($0) == nil }
        guard !missing.isEmpty else { return }
        printError(
            "feedsim \(command): this worker does not know the strategies "
                + missing.map { "\"\($0)\"" }.joined(separator: ", ")
                + " that the process that started it registered; register the same strategies every time "
                + "`FeedSim.main(registering:)` runs (workers run the same executable and its registration again)")
        throw FeedSimExit.internalFailure
    }
}
