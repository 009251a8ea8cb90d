import FeedSimulator
import FoundationEssentials

/// A run's result as a worker hands it to `feedsim run`: the typed record,
/// as JSON, not rows of text. The parent formats every report from it.
package enum RunRecord {
    /// `result` as JSON, for the worker's standard output.
    package static func encode(_ result: RunResult) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(result)
    }

    /// A result written by `encode`; `nil` if the data is not one.
    package static func decode(_ data: Data) -> RunResult? {
        try? JSONDecoder().decode(RunResult.self, from: data)
    }
}
