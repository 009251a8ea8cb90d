import Foundation

/// What a JUnit reader from PyPI (`junitparser`) saw in a file.
public struct JUnitReading: Decodable, Sendable {
    public struct Suite: Decodable, Sendable {
        public var name: String
        public var tests: Int
        public var failures: Int
        public var errors: Int
    }

    public struct Case: Decodable, Sendable {
        public var suite: String
        public var classname: String
        public var name: String
        public var passed: Bool
        public var results: [Result]
    }

    public struct Result: Decodable, Sendable {
        public var kind: String
        public var message: String?
        public var type: String?
    }

    public var tests: Int
    public var failures: Int
    public var errors: Int
    public var suites: [Suite]
    public var cases: [Case]

    public var failed: [Case] { cases.filter { !$0.passed } }

    /// A file junitparser could not read.
    public struct Unreadable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads `file` with read_junit.py (beside this file).
    public static func read(_ file: URL) throws -> JUnitReading {
        let script = PackageRoot.appending("Tests/FeedSimTestSupport/read_junit.py")
        let outcome = try ChildProcess.run(ChildProcess.env, ["python3", script.path, file.path], timeout: 60)
        guard outcome.status == 0 else {
            throw Unreadable(
                description: """
                    junitparser could not read the file (scripts/bootstrap installs it: python3 -m pip install \
                    junitparser): \(outcome)
                    """)
        }
        return try JSONDecoder().decode(JUnitReading.self, from: Data(outcome.stdout.utf8))
    }
}
