import FeedScenario
import FoundationEssentials

/// A JSON value read whole (`JSONParser`): what the timeline and HAR
/// readers walk, asking each node for the type they expect so that a
/// problem names its JSON path.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// What a person calls this kind of value, for "found …".
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A problem in a timeline capture or a post line: the file, the place (a
/// JSON path, or a line and the path within it) and what was expected.
package typealias TimelineProblem = FileProblem

/// A value in a JSON document and where it is: `$.feed[3].post.embed` in
/// `file`, or that path within line `line` of a JSON Lines file.
struct JSONNode {
    let value: JSONValue
    let path: String
    let file: String
    let line: Int?

    /// The document `data` of `file` (or of its line `line`) as a node at `$`.
    static func parse(_ data: Data, file: String, line: Int? = nil) throws(TimelineProblem) -> JSONNode {
        do {
            let value = try JSONParser.parse([UInt8](data))
            return JSONNode(value: value, path: "$", file: file, line: line)
        } catch {
            let place = line.map(FilePlace.line) ?? .wholeFile
            throw TimelineProblem(
                file: file, place: place, problem: "expected JSON text, found text that does not parse")
        }
    }

    /// A problem at this node: `problem`, said of its path.
    func failure(_ problem: String) -> TimelineProblem {
        if let line { return TimelineProblem(file: file, place: .line(line), problem: "\(path): \(problem)") }
        return TimelineProblem(file: file, place: .jsonPath(path), problem: problem)
    }

    /// The member `key` of this object, or nil when it is absent or null.
    func field(_ key: String) throws(TimelineProblem) -> JSONNode? {
        guard case let .object(members) = value else { throw failure("expected an object, found \(value.kindName)") }
        guard let member = members[key], member != .null else { return nil }
        return JSONNode(value: member, path: "\(path).\(key)", file: file, line: line)
    }

    /// The member `key` of this object, which must be present.
    func required(_ key: String) throws(TimelineProblem) -> JSONNode {
        guard let member = try field(key) else { throw failure("expected a member \"\(key)\", found none") }
        return member
    }

    /// This value as a string.
    func string() throws(TimelineProblem) -> String {
        guard case let .string(text) = value else { throw failure("expected a string, found \(value.kindName)") }
        return text
    }

    /// This value as a boolean.
    func boolean() throws(TimelineProblem) -> Bool {
        guard case let .bool(flag) = value else { throw failure("expected true or false, found \(value.kindName)") }
        return flag
    }

    /// This value as a whole number of at least `minimum`.
    func integer(minimum: Int = 0) throws(TimelineProblem) -> Int {
        guard case let .number(number) = value, number.rounded() == number, abs(number) < 9e15 else {
            let found = value.kindName == "a number" ? "a fraction" : value.kindName
            throw failure("expected a whole number, found \(found)")
        }
        guard Int(number) >= minimum else {
            throw failure("expected a whole number ≥ \(minimum), found \(Int(number))")
        }
        return Int(number)
    }

    /// This value's elements, each a node at its index.
    func array() throws(TimelineProblem) -> [JSONNode] {
        guard case let .array(elements) = value else { throw failure("expected an array, found \(value.kindName)") }
        return elements.enumerated().map { index, element in
            JSONNode(value: element, path: "\(path)[\(index)]", file: file, line: line)
        }
    }
}
