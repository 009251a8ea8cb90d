import FeedScenario

/// A HAR file that cannot be imported: the file, the JSON path at fault
/// (`$.log.entries[12].response.status`, which carries the entry index), and
/// what was expected there.
package struct HARProblem: FileDiagnostic, Equatable, Sendable {
    /// The file, as the user named it.
    package var file: String
    /// The JSON path at fault.
    package var path: String
    /// What was expected, and what was found.
    package var problem: String

    /// A problem at `path` in `file`.
    package init(file: String, path: String, problem: String) {
        self.file = file
        self.path = path
        self.problem = problem
    }

    /// The JSON path.
    package var place: FilePlace { .jsonPath(path) }
}
