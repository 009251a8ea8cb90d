import Foundation
import Testing

@testable import FeedScenario

/// A document with a repeated key, and where the scan must find it.
struct DuplicateKeyCase: Sendable, CustomTestStringConvertible {
    var label: String
    var json: String
    /// The path, key and lines the scan must report; nil when it must find none.
    var expected: DuplicateKey?
    var testDescription: String { label }

    static let all: [DuplicateKeyCase] = [
        DuplicateKeyCase(
            label: "at the top level", json: #"{"a": 1, "b": 2, "a": 3}"#,
            expected: DuplicateKey(path: "$.a", key: "a", firstLine: 1, line: 1)),
        DuplicateKeyCase(
            label: "in a nested object, on later lines",
            json: "{\n\"feed\": {\n\"post_count\": 5,\n\"post_count\": 6\n}\n}",
            expected: DuplicateKey(path: "$.feed.post_count", key: "post_count", firstLine: 3, line: 4)),
        DuplicateKeyCase(
            label: "in an object inside an array", json: #"{"script": [{"at_ms": 1}, {"at_ms": 2, "at_ms": 3}]}"#,
            expected: DuplicateKey(path: "$.script[1].at_ms", key: "at_ms", firstLine: 1, line: 1)),
        DuplicateKeyCase(
            label: "spelt once with an escape", json: #"{"name": "a", "n\u0061me": "b"}"#,
            expected: DuplicateKey(path: "$.name", key: "name", firstLine: 1, line: 1)),
        DuplicateKeyCase(
            label: "deep in arrays of arrays", json: #"[[[{"k": 1}], [{"k": 1, "k": 2}]]]"#,
            expected: DuplicateKey(path: "$[0][1][0].k", key: "k", firstLine: 1, line: 1)),
        DuplicateKeyCase(
            label: "the first of two repeats is reported", json: #"{"x": {"b": 1, "b": 2}, "a": 1, "a": 2}"#,
            expected: DuplicateKey(path: "$.x.b", key: "b", firstLine: 1, line: 1)),
        DuplicateKeyCase(
            label: "the same key in sibling objects is fine", json: #"[{"a": 1}, {"a": 2}, {"b": {"a": 3}}]"#,
            expected: nil),
        DuplicateKeyCase(label: "keys differing only in case are different", json: #"{"a": 1, "A": 2}"#, expected: nil),
        DuplicateKeyCase(
            label: "a key repeated as a string value is fine", json: #"{"a": "a", "b": ["a", "a"]}"#, expected: nil),
        DuplicateKeyCase(label: "not JSON: the decoder reports it", json: #"{"a": 1, "a": 2"#, expected: nil),
        DuplicateKeyCase(label: "trailing text: the decoder reports it", json: #"{"a": 1, "a": 2} x"#, expected: nil),
        DuplicateKeyCase(
            label: "a lone surrogate in a key: not JSON", json: #"{"\ud800": 1, "\ud800": 2}"#, expected: nil),
        DuplicateKeyCase(
            label: "a surrogate pair in a key", json: #"{"\ud83d\ude00": 1, "😀": 2}"#,
            expected: DuplicateKey(path: "$.😀", key: "😀", firstLine: 1, line: 1)),
    ]
}

@Suite("Duplicate JSON keys")
struct DuplicateKeyTests {
    @Test(
        "The scan finds the first repeated key with its path and lines, and nothing else",
        arguments: DuplicateKeyCase.all)
    func scan(_ example: DuplicateKeyCase) {
        #expect(JSONDuplicateKeys.first(in: Array(example.json.utf8)) == example.expected)
    }

    @Test("Nesting a hundred thousand deep neither overflows the stack nor takes long")
    func deepNesting() {
        let depth = 100_000
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(JSONDuplicateKeys.first(in: Array(arrays.utf8)) == nil)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(JSONDuplicateKeys.first(in: Array(objects.utf8)) == nil)
        let repeated =
            String(repeating: #"{"a":"#, count: depth) + #"{"b": 1, "b": 2}"# + String(repeating: "}", count: depth)
        let found = JSONDuplicateKeys.first(in: Array(repeated.utf8))
        #expect(found?.key == "b")
        #expect(found?.path == "$" + String(repeating: ".a", count: depth) + ".b")
    }

    @Test("A scenario with a repeated key exits as invalid, naming the key, its path and both lines")
    func scenarioRefused() {
        let json = """
            {
              "schema_version": 1,
              "name": "twice",
              "description": "Posts given twice.",
              "device": "iphone-60hz",
              "duration_s": 2,
              "feed": { "post_count": 50,
                        "post_count": 1000000 },
              "script": []
            }
            """
        let error = #expect(throws: ScenarioError.self) { try ScenarioFixtures.load(json, file: "twice.json") }
        #expect(error?.file == "twice.json")
        #expect(error?.path == "$.feed.post_count")
        #expect(error?.expected == "expected each key once per object, found `post_count` twice (lines 7 and 8)")
    }

    @Test("A device profile with a repeated key is refused the same way")
    func deviceRefused() throws {
        let device = try String(
            contentsOf: ScenarioFixtures.devicesFolder.appendingPathComponent("iphone-60hz.json"), encoding: .utf8)
        let brace = try #require(device.firstIndex(of: "{"))
        let doubled = device.replacingCharacters(in: brace...brace, with: #"{"name": "again", "#)
        let error = #expect(throws: ScenarioError.self) {
            try ScenarioLoader.device(from: Data(doubled.utf8), file: "devices/doubled.json")
        }
        #expect(error?.path == "$.name")
        #expect(error?.expected.contains("found `name` twice") == true)
        #expect(throws: Never.self) {
            try ScenarioLoader.device(from: Data(device.utf8), file: "devices/iphone-60hz.json")
        }
    }
}

/// The hostile files in Fixtures/invalid/: each must be refused with a
/// `ScenarioError` (exit 65 in the command), never a crash. The fuzz corpus
/// is seeded from them, and every input the fuzzer found crashing the
/// scenario reader is added here.
@Suite("Hostile scenario files")
struct HostileScenarioFileTests {
    static let folder = ScenarioFixtures.packageRoot.appendingPathComponent(
        "Tests/FeedScenarioTests/Fixtures/invalid", isDirectory: true)
    static let files = ScenarioFixtures.jsonFiles(in: folder)

    /// What the error for some of the files must say, by file name.
    static let expected: [String: (path: String, fragment: String)] = [
        "duplicate-top-level-key.json": ("$.name", "found `name` twice"),
        "duplicate-key-in-feed.json": ("$.feed.post_count", "found `post_count` twice"),
        "duplicate-key-spelt-with-escape.json": ("$.name", "found `name` twice"),
        "byte-order-mark.json": ("$", "expected UTF-8 JSON text without a byte-order mark"),
        "utf-16.json": ("$", "expected UTF-8 JSON text without a byte-order mark"),
        "binary.json": ("$", "expected UTF-8 JSON text"),
        "nested-100000-arrays.json": ("$", "expected valid JSON"),
        "nested-50000-objects.json": ("$", "expected valid JSON"),
        "number-beyond-double.json": ("$.duration_s", "expected a number that fits"),
        "integer-beyond-int64.json": ("$.feed.post_count", "expected a whole number that fits"),
        "nan.json": ("$", "expected valid JSON"),
        "truncated.json": ("$", "expected valid JSON"),
        "two-megabyte-description-and-unknown-field.json": ("$.colour", "unknown field `colour`"),
    ]

    @Test("There are hostile files, and every expectation names one")
    func filesExist() {
        #expect(Self.files.count >= 15)
        let names = Set(Self.files.map(\.lastPathComponent))
        for name in Self.expected.keys { #expect(names.contains(name), "\(name)") }
    }

    @Test("Each hostile file is refused with the file, a JSON path and what was expected", arguments: files)
    func refused(_ url: URL) throws {
        let data = try Data(contentsOf: url)
        let name = url.lastPathComponent
        let error = #expect(throws: ScenarioError.self) {
            try ScenarioLoader.load(
                data: data, file: "invalid/\(name)", deviceDirectories: [ScenarioFixtures.devicesFolder])
        }
        guard let error else { return }
        #expect(error.file == "invalid/\(name)")
        #expect(error.path.hasPrefix("$"))
        #expect(error.expected.hasPrefix("expected") || error.expected.hasPrefix("unknown field"), "\(error)")
        if let expected = Self.expected[name] {
            #expect(error.path == expected.path, "\(error)")
            #expect(error.expected.contains(expected.fragment), "\(error)")
        }
    }
}
