/// A problem found in a file a person gave: the file as they named it, the
/// place at fault (a line, a JSON path, or the file as a whole), and what
/// was expected there and what was found, as a sentence fragment they can
/// act on. Every reader of user files reports this way.
package protocol FileDiagnostic: Error, CustomStringConvertible {
    /// The file, as the user named it.
    var file: String { get }
    /// Where in the file the problem is.
    var place: FilePlace { get }
    /// What was expected, and what was found when that helps.
    var problem: String { get }
}

/// Where in a file a problem is.
package enum FilePlace: Equatable, Sendable {
    /// The file as a whole: missing, unreadable, or wrong throughout.
    case wholeFile
    /// A 1-based line of a text file.
    case line(Int)
    /// A JSON path such as `$.script[2].velocity_pt_s`.
    case jsonPath(String)

    /// The line, or the whole file when there is none.
    package init(line: Int?) {
        self = line.map(FilePlace.line) ?? .wholeFile
    }
}

extension FileDiagnostic {
    /// Like a compiler diagnostic: `file:line: problem`,
    /// `file: $.json.path: problem`, or `file: problem`.
    package var description: String {
        switch place {
        case .wholeFile: "\(file): \(problem)"
        case let .line(line): "\(file):\(line): \(problem)"
        case let .jsonPath(path): "\(file): \(path): \(problem)"
        }
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

    /// The line, or the whole file.
    package var place: FilePlace { FilePlace(line: line) }
}
