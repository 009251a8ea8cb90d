import FeedScenario
import Foundation
import Testing

/// A JSON document built from literals, edited at a path and written out, so
/// each invalid case reads as the one change it makes to a valid scenario.
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order written.
    case object([(String, JSONValue)])

    /// The value as JSON text.
    var text: String {
        switch self {
        case .null: "null"
        case let .bool(value): value ? "true" : "false"
        case let .int(value): String(value)
        case let .double(value): String(value)
        case let .string(value): JSONText.quoted(value)
        case let .array(items): "[" + items.map(\.text).joined(separator: ", ") + "]"
        case let .object(members):
            "{" + members.map { JSONText.quoted($0.0) + ": " + $0.1.text }.joined(separator: ", ") + "}"
        }
    }

    /// A copy with the value at `path` (`feed.text_length.min`, `script[1].repeat`)
    /// replaced, added at the end of its object, or removed when `value` is nil.
    func setting(_ path: String, to value: JSONValue?) -> JSONValue {
        setting(Self.components(of: path)[...], to: value)
    }

    private enum Component { case key(String), index(Int) }

    private static func components(of path: String) -> [Component] {
        path.split(separator: ".").flatMap { part -> [Component] in
            let pieces = part.split(separator: "[")
            return [.key(String(pieces[0]))] + pieces.dropFirst().map { .index(Int($0.dropLast())!) }
        }
    }

    private func setting(_ path: ArraySlice<Component>, to value: JSONValue?) -> JSONValue {
        guard let first = path.first else { return value ?? .null }
        let rest = path.dropFirst()
        switch (self, first) {
        case let (.object(members), .key(key)):
            var members = members
            if let i = members.firstIndex(where: { $0.0 == key }) {
                if rest.isEmpty && value == nil {
                    members.remove(at: i)
                } else {
                    members[i].1 = members[i].1.setting(rest, to: value)
                }
            } else if let value {
                precondition(rest.isEmpty, "no object at \(key) to add a member below")
                members.append((key, value))
            }
            return .object(members)
        case let (.array(items), .index(i)):
            var items = items
            if rest.isEmpty && value == nil {
                items.remove(at: i)
            } else if i == items.count, let value, rest.isEmpty {
                items.append(value)
            } else {
                items[i] = items[i].setting(rest, to: value)
            }
            return .array(items)
        default:
            preconditionFailure("path does not match the document")
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    init(nilLiteral: ()) { self = .null }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(floatLiteral value: Double) { self = .double(value) }
    init(stringLiteral value: String) { self = .string(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}

/// One change to the valid base scenario and the error it must produce.
struct InvalidScenario: Sendable, CustomTestStringConvertible {
    enum Change: Sendable {
        /// The file's whole text.
        case text(String)
        /// Each path of the base set to its value; nil removes the field.
        case edits([(String, JSONValue?)])
    }

    var label: String
    var change: Change
    /// The JSON path the error must name, exactly.
    var path: String
    /// Part of what the error must say was expected.
    var fragment: String

    init(_ label: String, _ change: Change, path: String, expecting fragment: String) {
        self.label = label
        self.change = change
        self.path = path
        self.fragment = fragment
    }

    init(
        _ label: String, set path: String, to value: JSONValue?, errorAt errorPath: String? = nil,
        expecting fragment: String
    ) {
        self.init(label, .edits([(path, value)]), path: errorPath ?? "$." + path, expecting: fragment)
    }

    var testDescription: String { label }

    /// The file's bytes.
    var data: Data {
        switch change {
        case let .text(text):
            Data(text.utf8)
        case let .edits(edits):
            Data(edits.reduce(InvalidScenario.base) { $0.setting($1.0, to: $1.1) }.text.utf8)
        }
    }

    /// A valid scenario that uses every section, two seconds long on the 60 Hz device.
    static let base: JSONValue = [
        "schema_version": 1,
        "name": "base-case",
        "description": "The valid scenario every invalid case changes in one place.",
        "device": "iphone-60hz",
        "refresh_rates_hz": [60],
        "seed": 5,
        "duration_s": 2,
        "feed": ["post_count": 50, "text_length": ["min": 0, "max": 300], "media_fraction": 0.4],
        "engine": ["estimated_item_height_pt": 200],
        "limits": ["max_events": 100_000, "max_simulated_s": 60],
        "script": [
            ["at_ms": 100, "action": "drag", "distance_pt": 300, "duration_ms": 200, "release": "fling"],
            ["at_ms": 1000, "action": "fling", "velocity_pt_s": 2000],
        ],
    ]

    static let trajectoryDrag: JSONValue = [
        "at_ms": 100, "action": "drag",
        "trajectory": [["t_ms": 0, "dy_pt": 0], ["t_ms": 100, "dy_pt": 50], ["t_ms": 200, "dy_pt": 80]],
    ]

    static let all: [InvalidScenario] = [
        InvalidScenario("not JSON at all", .text("schema_version = 1\n"), path: "$", expecting: "expected valid JSON"),
        InvalidScenario("an empty file", .text(""), path: "$", expecting: "expected valid JSON"),
        InvalidScenario("an array, not an object", .text("[]"), path: "$", expecting: "expected an object"),
        InvalidScenario("wrong schema version", set: "schema_version", to: 2, expecting: "expected 1, found 2"),
        InvalidScenario(
            "missing schema version", set: "schema_version", to: nil, expecting: "required field `schema_version`"),
        InvalidScenario(
            "missing name", set: "name", to: nil, expecting: "expected the required field `name`, which is missing"),
        InvalidScenario(
            "a name with spaces", set: "name", to: "fast fling",
            expecting: "letters, digits, `-` and `_` only, found \"fast fling\""),
        InvalidScenario(
            "a name with a slash", set: "name", to: "../escape", expecting: "letters, digits, `-` and `_` only"),
        // Names become file names (traces/<scenario>--<variant>--<hz>hz.json).
        InvalidScenario(
            "a name of 101 characters", set: "name", to: .string(String(repeating: "n", count: 101)),
            expecting: "expected at most 100 characters, found 101"),
        InvalidScenario(
            "a name of 5,000 characters", set: "name", to: .string(String(repeating: "é", count: 5_000)),
            expecting: "expected at most 100 characters, found 5000"),
        InvalidScenario(
            "a variant name of 101 characters", set: "variants",
            to: [["name": .string(String(repeating: "v", count: 101))]],
            errorAt: "$.variants[0].name", expecting: "expected at most 100 characters, found 101"),
        InvalidScenario("a blank description", set: "description", to: "  ", expecting: "expected a non-empty string"),
        InvalidScenario(
            "unknown top-level field", set: "colour", to: "blue",
            expecting: "unknown field `colour`; expected one of: schema_version, name"),
        InvalidScenario(
            "a script of more than 10,000 steps", set: "script",
            to: .array(
                Array(
                    repeating: ["at_ms": 100, "action": "like", "repeat": ["count": 10_000, "every_ms": 0.1]], count: 2)
            ),
            errorAt: "$.script[1]",
            expecting:
                "expected at most 10000 steps in the script counting every repetition, found 20000 by this step"),
        InvalidScenario(
            "more than a million posts over the run", set: "script[1]",
            to: ["at_ms": 1000, "action": "new_posts", "count": 100_000, "repeat": ["count": 10, "every_ms": 1]],
            errorAt: "$.script[1].count",
            expecting:
                """
                expected at most 1000000 posts over the run (feed.post_count and every new_posts count times its \
                repetitions), found 1000050 by this step
                """
        ),
        InvalidScenario(
            "a key given twice", set: "feed", to: .object([("post_count", 50), ("post_count", 1_000_000)]),
            errorAt: "$.feed.post_count",
            expecting: "expected each key once per object, found `post_count` twice (lines 1 and 1)"),
        InvalidScenario(
            "unknown field inside feed", set: "feed.post_cnt", to: 5,
            expecting: "unknown field `post_cnt`; expected one of: post_count, text_length, media_fraction"),
        InvalidScenario(
            "unknown field inside text_length", set: "feed.text_length.avg", to: 5,
            expecting: "unknown field `avg`; expected one of: min, max"),
        InvalidScenario(
            "unknown field inside engine", set: "engine.estimated_height", to: 5,
            expecting: "unknown field `estimated_height`"),
        InvalidScenario(
            "unknown field inside limits", set: "limits.max_frames", to: 5, expecting: "unknown field `max_frames`"),
        InvalidScenario("missing feed", set: "feed", to: nil, expecting: "expected the required field `feed`"),
        InvalidScenario(
            "missing post_count", set: "feed.post_count", to: nil, expecting: "expected the required field `post_count`"
        ),
        InvalidScenario(
            "post_count negative", set: "feed.post_count", to: -1,
            expecting: "expected a value in 0...1000000 posts, found -1"),
        InvalidScenario(
            "post_count too large", set: "feed.post_count", to: 1_000_001,
            expecting: "expected a value in 0...1000000 posts, found 1000001"),
        InvalidScenario(
            "post_count not a whole number", set: "feed.post_count", to: 1.5,
            expecting: "expected a whole number that fits"),
        InvalidScenario("negative seed", set: "seed", to: -1, expecting: "expected a whole number ≥ 0 that fits"),
        InvalidScenario(
            "drag duration rounding to 0 ns", set: "script[0].duration_ms", to: 0.0000001,
            expecting: "expected at least 1 ns"),
        InvalidScenario(
            "trajectory starting away from 0",
            .edits([("script[0]", trajectoryDrag), ("script[0].trajectory[0].dy_pt", 5)]),
            path: "$.script[0].trajectory[0].dy_pt", expecting: "expected the first point at t_ms 0 and dy_pt 0"),
        InvalidScenario(
            "media_fraction above 1", set: "feed.media_fraction", to: 1.5,
            expecting: "expected a value in 0.0...1.0, found 1.5"),
        InvalidScenario("media_fraction below 0", set: "feed.media_fraction", to: -0.1, expecting: "found -0.1"),
        InvalidScenario(
            "text_length min above max", .edits([("feed.text_length.min", 200), ("feed.text_length.max", 100)]),
            path: "$.feed.text_length.max", expecting: "expected max >= min (200), found 100"),
        InvalidScenario(
            "text_length max above 10,000", set: "feed.text_length.max", to: 10_001,
            expecting: "expected a value in 0...10000 characters"),
        InvalidScenario(
            "duration_s 0", set: "duration_s", to: 0, expecting: "expected a value > 0.0 and <= 86400.0 s, found 0.0"),
        InvalidScenario("duration_s negative", set: "duration_s", to: -2, expecting: "expected a value > 0.0"),
        InvalidScenario(
            "duration_s beyond a day", set: "duration_s", to: 86_401, expecting: "<= 86400.0 s, found 86401.0"),
        InvalidScenario(
            "duration_s beyond limits.max_simulated_s", set: "duration_s", to: 61,
            expecting: "expected at most limits.max_simulated_s (60.0 s), found 61.0 s"),
        InvalidScenario(
            "refresh rate 90", set: "refresh_rates_hz", to: [90], errorAt: "$.refresh_rates_hz[0]",
            expecting: "expected 60 or 120, found 90"),
        InvalidScenario(
            "duplicate refresh rate", set: "refresh_rates_hz", to: [60, 60], errorAt: "$.refresh_rates_hz[1]",
            expecting: "expected each rate once, found 60 twice"),
        InvalidScenario("refresh rates not an array", set: "refresh_rates_hz", to: 60, expecting: "expected an array"),
        InvalidScenario(
            "only a refresh rate the device does not support", set: "refresh_rates_hz", to: [120],
            errorAt: "$.refresh_rates_hz[0]",
            expecting: "expected a rate iphone-60hz supports (60 Hz), found 120"),
        InvalidScenario(
            "refresh rate the device does not support", set: "refresh_rates_hz", to: [60, 120],
            errorAt: "$.refresh_rates_hz[1]",
            expecting: "expected a rate iphone-60hz supports (60 Hz), found 120"),
        InvalidScenario(
            "device that does not exist", set: "device", to: "iphone-3g",
            expecting: "expected the name of a device profile, found \"iphone-3g\": no iphone-3g.json in "),
        InvalidScenario("device null", set: "device", to: JSONValue.null, expecting: "expected a string, found null"),
        InvalidScenario(
            "wrong type: a string for a number", set: "duration_s", to: "2", expecting: "expected a number"),
        InvalidScenario(
            "wrong type: a string for an integer", set: "feed.post_count", to: "fifty", expecting: "expected an integer"
        ),
        InvalidScenario("wrong type: a number for a string", set: "name", to: 7, expecting: "expected a string"),
        InvalidScenario("wrong type: feed is an array", set: "feed", to: [], expecting: "expected an object"),
        InvalidScenario("wrong type: script is an object", set: "script", to: [:], expecting: "expected an array"),
        InvalidScenario(
            "limits.max_events too small", set: "limits.max_events", to: 10,
            expecting: "expected a value in 1000...1000000000, found 10"),
        InvalidScenario(
            "limits.max_simulated_s 0", set: "limits.max_simulated_s", to: 0,
            expecting: "expected a value in 1.0...86400.0 s, found 0.0"),
        InvalidScenario(
            "engine estimated height 0", set: "engine.estimated_item_height_pt", to: 0,
            expecting: "expected a value in 1.0...10000.0 pt, found 0.0"),
        InvalidScenario(
            "a step after the end of the run", set: "script[1].at_ms", to: 2000,
            expecting: "expected every repetition before the end of the run (2.0 s), found one at 2000.0 ms"),
        InvalidScenario(
            "a repetition after the end of the run", set: "script[1].repeat", to: ["count": 3, "every_ms": 500],
            expecting: "expected every repetition before the end of the run (2.0 s), found one at 2000.0 ms"),
        InvalidScenario(
            "steps out of order", set: "script[1].at_ms", to: 50, expecting: "expected steps in time order"),
        InvalidScenario(
            "negative at_ms", set: "script[1].at_ms", to: -1,
            expecting: "expected a value in 0.0...86400000.0 ms, found -1.0"),
        InvalidScenario(
            "missing at_ms", set: "script[1].at_ms", to: nil, expecting: "expected the required field `at_ms`"),
        InvalidScenario(
            "unknown action", set: "script[1].action", to: "pinch", expecting: "expected one of \"drag\", \"fling\""),
        InvalidScenario("unknown field in a step", set: "script[1].speed", to: 3, expecting: "unknown field `speed`"),
        InvalidScenario(
            "fling with velocity 0", set: "script[1].velocity_pt_s", to: 0, expecting: "expected a non-zero velocity"),
        InvalidScenario(
            "fling faster than 100,000 pt/s", set: "script[1].velocity_pt_s", to: 100_001,
            expecting: "expected a value in -100000.0...100000.0 pt/s, found 100001.0"),
        InvalidScenario(
            "fling without velocity", set: "script[1].velocity_pt_s", to: nil,
            expecting: "expected the required field `velocity_pt_s`"),
        InvalidScenario(
            "unknown deceleration", set: "script[1].deceleration", to: "slow",
            expecting: "expected one of \"normal\", \"fast\", found \"slow\""),
        InvalidScenario(
            "velocity_pt_s on a drag", set: "script[0].velocity_pt_s", to: 500,
            expecting: "unknown field `velocity_pt_s` for a drag"),
        InvalidScenario(
            "release on a fling", set: "script[1].release", to: "stop", expecting: "unknown field `release` for a fling"
        ),
        InvalidScenario(
            "unknown release", set: "script[0].release", to: "bounce",
            expecting: "expected one of \"fling\", \"stop\", found \"bounce\""),
        InvalidScenario(
            "drag duration 0", set: "script[0].duration_ms", to: 0,
            expecting: "expected a value > 0.0 and <= 600000.0 ms, found 0.0"),
        InvalidScenario(
            "drag without duration", set: "script[0].duration_ms", to: nil,
            expecting: "expected the required field `duration_ms`"),
        InvalidScenario(
            "trajectory whose first point is not at 0",
            .edits([("script[0]", trajectoryDrag), ("script[0].trajectory[0].t_ms", 10)]),
            path: "$.script[0].trajectory[0].t_ms", expecting: "expected the first point at t_ms 0 and dy_pt 0"),
        InvalidScenario(
            "trajectory times not increasing",
            .edits([("script[0]", trajectoryDrag), ("script[0].trajectory[2].t_ms", 100)]),
            path: "$.script[0].trajectory[2].t_ms",
            expecting: "expected times that increase, found 100.0 ms after 100.0 ms"),
        InvalidScenario(
            "trajectory with one point",
            .edits([("script[0]", trajectoryDrag), ("script[0].trajectory", [["t_ms": 0, "dy_pt": 0]])]),
            path: "$.script[0].trajectory", expecting: "expected at least two points"),
        InvalidScenario(
            "unknown field in a trajectory point",
            .edits([("script[0]", trajectoryDrag), ("script[0].trajectory[1].dx_pt", 3)]),
            path: "$.script[0].trajectory[1].dx_pt", expecting: "unknown field `dx_pt`; expected one of: t_ms, dy_pt"),
        InvalidScenario(
            "both trajectory and distance_pt", set: "script[0].trajectory", to: trajectoryDrag.trajectory,
            expecting: "expected either `trajectory` or `distance_pt` with `duration_ms`, not both"),
        InvalidScenario(
            "repeat with count 0", set: "script[1].repeat", to: ["count": 0, "every_ms": 100],
            errorAt: "$.script[1].repeat.count",
            expecting: "expected a value in 1...10000, found 0"),
        InvalidScenario(
            "repeat with every_ms 0", set: "script[1].repeat", to: ["count": 2, "every_ms": 0],
            errorAt: "$.script[1].repeat.every_ms",
            expecting: "expected a value > 0.0"),
        InvalidScenario(
            "unknown field in repeat", set: "script[1].repeat", to: ["count": 2, "every_ms": 100, "times": 2],
            errorAt: "$.script[1].repeat.times",
            expecting: "unknown field `times`; expected one of: count, every_ms"),
        InvalidScenario(
            "a repeated drag closer together than its own length", set: "script[0].repeat",
            to: ["count": 2, "every_ms": 150],
            errorAt: "$.script[0].repeat.every_ms",
            expecting: "expected at least the drag's own length (200.0 ms), found 150.0 ms"),
    ]
}

extension JSONValue {
    /// The `trajectory` member of an object.
    fileprivate var trajectory: JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == "trajectory" }?.1
    }
}

@Suite("Invalid scenarios")
struct InvalidScenarioTests {
    @Test(
        "An invalid scenario names the file, the exact JSON path and what was expected", arguments: InvalidScenario.all)
    func rejected(_ example: InvalidScenario) {
        let file = "cases/\(example.label.replacingOccurrences(of: " ", with: "-")).json"
        let error = #expect(throws: ScenarioError.self) {
            try ScenarioFixtures.load(String(decoding: example.data, as: UTF8.self), file: file)
        }
        guard let error else { return }
        #expect(error.file == file)
        #expect(error.path == example.path, "\(error)")
        #expect(error.expected.contains(example.fragment), "\(error)")
        #expect(error.description == "\(file): \(example.path): \(error.expected)")
    }

    @Test("The table has many distinct cases, each a different document")
    func tableIsDistinct() {
        let documents = InvalidScenario.all.map(\.data)
        #expect(InvalidScenario.all.count >= 16)
        #expect(Set(documents).count == documents.count)
        #expect(Set(InvalidScenario.all.map(\.label)).count == InvalidScenario.all.count)
    }

    @Test("The base every invalid case starts from is itself valid")
    func baseIsValid() throws {
        let loaded = try ScenarioFixtures.load(InvalidScenario.base.text, file: "base.json")
        #expect(loaded.scenario.name == "base-case")
        #expect(loaded.scenario.script.count == 2)
    }

    @Test(
        "Edits that stay inside the schema do not throw",
        arguments: [
            ("refresh_rates_hz", [] as JSONValue?),
            ("refresh_rates_hz", nil),
            ("device", "iphone-pro-120hz"),
            ("feed.post_count", 1_000_000),
            ("feed.media_fraction", 1),
            ("feed.text_length", ["min": 7, "max": 7]),
            ("duration_s", 1.0001),
            ("script", []),
            ("script[1].at_ms", 1999.999),
            ("script[1].velocity_pt_s", -100_000),
            ("script[1].repeat", ["count": 1, "every_ms": 1]),
            ("script[0].repeat", ["count": 2, "every_ms": 200]),
            ("limits", nil),
            ("engine", nil),
            ("name", .string(String(repeating: "n", count: 100))),
            ("variants", [["name": .string(String(repeating: "v", count: 100))]]),
        ] as [(String, JSONValue?)])
    func accepted(_ path: String, _ value: JSONValue?) throws {
        let json = InvalidScenario.base.setting(path, to: value).text
        #expect(throws: Never.self) { try ScenarioFixtures.load(json, file: "valid.json") }
    }
}
