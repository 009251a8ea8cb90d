/// A problem found in a file a person gave: the file as they named it, the
/// 1-based line at fault when one line is, and what is wrong, as a sentence
/// fragment they can act on. Every reader of user files reports this way.
package protocol FileDiagnostic: Error, CustomStringConvertible {
    var file: String { get }
    var line: Int? { get }
    var problem: String { get }
}

extension FileDiagnostic {
    /// `file:line: problem`, like a compiler diagnostic.
    package var description: String {
        if let line { return "\(file):\(line): \(problem)" }
        return "\(file): \(problem)"
    }
}

/// A file problem with nothing more to it than where and what.
package struct FileProblem: FileDiagnostic, Equatable, Sendable {
    package var file: String
    package var line: Int?
    package var problem: String

    package init(file: String, line: Int?, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }
}
