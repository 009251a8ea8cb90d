import ArgumentParser
import FeedEngine

/// The parts a parent process knows by name (position strategies, image
/// and page prefetch policies), handed to each worker it starts
/// (`--parts`), so that a worker whose executable registered different
/// parts stops at once with a message naming them, instead of failing run
/// after run on a scenario it cannot read.
enum RegisteredParts {
    /// The option a worker receives them in.
    static let option = "--parts"

    /// Each kind of part by the field that names it, with the names this
    /// process knows.
    static var kinds: [(field: String, names: [String])] {
        [
            ("position_strategy", PositionStrategy.known.map(\.name)),
            ("image_prefetch", ImagePrefetch.known.map(\.name)),
            ("page_prefetch", PagePrefetch.known.map(\.name)),
            ("layout_strategy", LayoutStrategy.known.map(\.name)),
        ]
    }

    /// The names this process knows, as the option's value:
    /// `field=name,name;field=…`.
    static var value: String {
        kinds.map { "\($0.field)=\($0.names.joined(separator: ","))" }.joined(separator: ";")
    }

    /// The arguments that hand them to a worker.
    static var workerArguments: [String] { [option, value] }

    /// Fails, naming them, when the parent knew parts this process does not.
    static func check(parentParts: String?, command: String) throws {
        guard let parentParts else { return }
        let own = Dictionary(uniqueKeysWithValues: kinds.map { ($0.field, Set($0.names)) })
        var missing: [String] = []
        for group in parentParts.split(separator: ";") {
            let pair = group.split(separator: "=", maxSplits: 1).map(String.init)
            guard let field = pair.first else { continue }
            let names = pair.count > 1 ? pair[1].split(separator: ",").map(String.init) : []
            missing += names.filter { !(own[field]?.contains($0) ?? false) }.map { "\(field) \"\($0)\"" }
        }
        guard !missing.isEmpty else { return }
        throw CommandFailure.internalFailure(
            "feedsim \(command): this worker does not know "
                + missing.joined(separator: ", ")
                + ", which the process that started it registered; register the same parts every time "
                + "`FeedSim.main(registering:)` runs (workers run the same executable and its registration again)")
    }
}
