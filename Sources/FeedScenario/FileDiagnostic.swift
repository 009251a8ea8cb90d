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

/// A file problem with nothing more to it than where and what: the one type
/// the readers without a richer error of their own throw (a calibration
/// trace, a report's inputs, a merged part, and the importers' captures).
package struct FileProblem: FileDiagnostic, Equatable, Sendable {
    package var file: String
    package var place: FilePlace
    package var problem: String

    package init(file: String, place: FilePlace, problem: String) {
        self.file = file
        self.place = place
        self.problem = problem
    }

    /// A problem at `line`, or in the whole file when there is none.
    package init(file: String, line: Int?, problem: String) {
        self.init(file: file, place: FilePlace(line: line), problem: problem)
    }

    /// A problem at the JSON path `path`.
    package init(file: String, path: String, problem: String) {
        self.init(file: file, place: .jsonPath(path), problem: problem)
    }

    /// The line at fault, if the place is one.
    package var line: Int? {
        if case let .line(line) = place { return line }
        return nil
    }

    /// The JSON path at fault, if the place is one.
    package var path: String? {
        if case let .jsonPath(path) = place { return path }
        return nil
    }
}
