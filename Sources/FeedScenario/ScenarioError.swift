/// A scenario or device file that cannot be used, with where and why.
package struct ScenarioError: FileDiagnostic, Equatable, Sendable {
    /// The file, as the user named it.
    package var file: String
    /// A JSON path such as `$.script[2].velocity_pt_s`.
    package var path: String
    /// What was expected there, and what was found when that helps.
    package var expected: String

    package init(file: String, path: String, expected: String) {
        self.file = file
        self.path = path
        self.expected = expected
    }

    /// The JSON path.
    package var place: FilePlace { .jsonPath(path) }
    /// What was expected.
    package var problem: String { expected }
}

extension ScenarioError {
    /// What `JSONDecoder` threw while reading `file`, as the JSON path at
    /// fault and what was expected there; for other JSON files FeedSim reads.
    package init(file: String, decodingError error: any Error) {
        self = scenarioError(file: file, from: error)
    }
}

/// A failure raised while decoding, before the file name is known.
struct DecodingFailure: Error {
    var codingPath: [any CodingKey]
    var expected: String
}

/// Renders a coding path as a JSON path: `$`, `$.feed.post_count`, `$.script[3]`.
func jsonPath(_ codingPath: [any CodingKey]) -> String {
    var path = "$"
    for key in codingPath {
        if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
            path += "[\(index)]"
        } else {
            path += ".\(key.stringValue)"
        }
    }
    return path
}

/// Turns anything `JSONDecoder` or our validation threw into a `ScenarioError`.
func scenarioError(file: String, from error: any Error) -> ScenarioError {
    switch error {
    case let error as ScenarioError:
        return error
    case let failure as DecodingFailure:
        return ScenarioError(file: file, path: jsonPath(failure.codingPath), expected: failure.expected)
    case let DecodingError.keyNotFound(key, context):
        return ScenarioError(
            file: file, path: jsonPath(context.codingPath + [key]),
            expected: "expected the required field `\(key.stringValue)`, which is missing")
    case let DecodingError.typeMismatch(type, context):
        return ScenarioError(
            file: file, path: jsonPath(context.codingPath), expected: "expected \(describe(type))")
    case let DecodingError.valueNotFound(type, context):
        return ScenarioError(
            file: file, path: jsonPath(context.codingPath), expected: "expected \(describe(type)), found null")
    case let DecodingError.dataCorrupted(context):
        if context.codingPath.isEmpty {
            let detail = (context.underlyingError.map { "\($0)" } ?? context.debugDescription)
            return ScenarioError(file: file, path: "$", expected: "expected valid JSON (\(detail))")
        }
        return ScenarioError(
            file: file, path: jsonPath(context.codingPath), expected: "expected \(context.debugDescription)")
    default:
        return ScenarioError(file: file, path: "$", expected: "expected a readable scenario (\(error))")
    }
}

private func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    case is Double.Type, is Float.Type: return "a number"
    case is Int.Type, is Int64.Type, is UInt64.Type, is UInt32.Type, is Int32.Type: return "an integer"
    default:
        let name = "\(type)"
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("Dictionary") { return "an object" }
        return "a \(name) (an object)"
    }
}
