import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedScenario

// `scenarios/schema.json` is generated from the field tables the decoder
// reads (Sources/FeedScenario/Schema), so names, enum values and bounds
// agree by construction. These tests check what construction cannot: that
// the committed file is the generator's output, and that the generated JSON
// Schema means what the decoder does. Every bundled scenario passes both, a
// table of edits to a valid scenario gets the same verdict from both (or a
// documented, pinned difference), and every bounded field of the table is
// probed just inside and just outside its bounds. The schema side runs in
// Python's `jsonschema` (Draft 2020-12) through Fixtures/validate_schema.py.

// MARK: - Running the schema validator

/// What `validate_schema.py` said about one file.
struct SchemaVerdict: Decodable, Sendable {
    var file: String
    var valid: Bool
    var errors: [String]

    /// The JSON paths the errors name (`$.script[1]` of `$.script[1]: …`).
    var errorPaths: [String] {
        errors.map { String($0.prefix { $0 != ":" }) }
    }
}

/// Why the validator could not give verdicts.
struct SchemaRunFailure: Error, Sendable, CustomStringConvertible {
    var description: String
    /// Python runs but has no `jsonschema` package.
    var packageMissing = false
}

enum SchemaValidator {
    static let schemaURL = ScenarioFixtures.scenariosFolder.appendingPathComponent("schema.json")
    static let scriptURL = ScenarioFixtures.packageRoot
        .appendingPathComponent("Tests/FeedScenarioTests/Fixtures/validate_schema.py")

    /// A validation of a few hundred small files takes a second or two; one
    /// still running after this long is hung.
    static let timeout: TimeInterval = 180

    /// Validates `files` against the schema in one Python process; verdicts by file path.
    static func validate(_ files: [URL]) throws(SchemaRunFailure) -> [String: SchemaVerdict] {
        let outcome: ProcessOutcome
        do {
            outcome = try ChildProcess.run(
                ChildProcess.env, ["python3", scriptURL.path, schemaURL.path] + files.map(\.path), timeout: timeout)
        } catch {
            throw SchemaRunFailure(description: "could not start /usr/bin/env python3: \(error)")
        }
        guard !outcome.timedOut else {
            throw SchemaRunFailure(
                description:
                    "validate_schema.py ran for more than \(Int(timeout)) s and was killed; stderr:\n\(outcome.stderr)")
        }
        switch outcome.status {
        case 0:
            break
        case 3:
            throw SchemaRunFailure(
                description: """
                    Python's `jsonschema` package is missing, and the schema tests validate with it. \
                    Run scripts/bootstrap, which installs it (or: python3 -m pip install jsonschema). \
                    Python said: \(outcome.stderr)
                    """, packageMissing: true)
        case 127:
            throw SchemaRunFailure(
                description:
                    """
                    python3 is not on PATH; the schema tests need Python 3 with the `jsonschema` package \
                    (scripts/bootstrap installs it). \(outcome.stderr)
                    """
            )
        default:
            throw SchemaRunFailure(
                description: "validate_schema.py exited with status \(outcome.status):\n\(outcome.stderr)")
        }

        var verdicts: [String: SchemaVerdict] = [:]
        for line in outcome.stdout.split(separator: "\n") where !line.isEmpty {
            guard let verdict = try? JSONDecoder().decode(SchemaVerdict.self, from: Data(line.utf8)) else {
                throw SchemaRunFailure(description: "validate_schema.py printed a line that is not a verdict: \(line)")
            }
            verdicts[verdict.file] = verdict
        }
        let missing = files.filter { verdicts[$0.path] == nil }
        guard missing.isEmpty else {
            throw SchemaRunFailure(
                description: "no verdict for \(missing.map(\.lastPathComponent)); stderr:\n\(outcome.stderr)")
        }
        return verdicts
    }
}

// MARK: - The agreement table

/// An edited copy of the valid base scenario and what the decoder and the
/// schema must each say about it.
struct SchemaCase: Sendable, CustomTestStringConvertible {
    enum Expectation: Sendable, Equatable {
        /// Both the decoder and the schema reject the file.
        case rejectedByBoth
        /// Both reject the file: the decoder naming `path`, the schema
        /// `schemaPath` (where a `oneOf` of shapes fails, the field holding them).
        case rejectedByBothAt(path: String, schemaPath: String)
        /// Both accept it.
        case acceptedByBoth
        /// The decoder rejects it, the schema cannot: the rule, which the
        /// schema's top-level description must mention.
        case onlyDecoderRejects(rule: String)
        /// The schema rejects what the decoder accepts; also documented.
        case onlySchemaRejects(rule: String)
        /// A key given twice: the decoder and the validator (through its
        /// JSON reader) both refuse the file, naming the same path.
        case duplicateKey(path: String)
    }

    var label: String
    var edits: [(String, JSONValue?)]
    var expectation: Expectation

    init(_ label: String, _ edits: [(String, JSONValue?)], _ expectation: Expectation) {
        self.label = label
        self.edits = edits
        self.expectation = expectation
    }

    /// One field set (or removed with nil).
    init(_ label: String, set path: String, to value: JSONValue?, _ expectation: Expectation) {
        self.init(label, [(path, value)], expectation)
    }

    var testDescription: String { label }

    /// The file's text.
    var json: String { edits.reduce(InvalidScenario.base) { $0.setting($1.0, to: $1.1) }.text }

    /// The JSON paths the edits touch, as the validator writes them.
    var editedPaths: [String] {
        edits.map { path, _ in "$." + path }
    }

    /// Whether a schema error at `errorPath` is about an edit: at the edited
    /// field, at the object holding it, or inside it.
    func isAboutAnEdit(_ errorPath: String) -> Bool {
        editedPaths.contains { edited in
            errorPath == edited || errorPath == Self.parent(of: edited)
                || errorPath.hasPrefix(edited + ".") || errorPath.hasPrefix(edited + "[")
        }
    }

    static func parent(of path: String) -> String {
        if path.hasSuffix("]"), let open = path.lastIndex(of: "[") { return String(path[..<open]) }
        if let dot = path.lastIndex(of: ".") { return String(path[..<dot]) }
        return "$"
    }
}

extension SchemaCase {
    static let drag = InvalidScenario.trajectoryDrag
    static let everyEngineField: JSONValue = [
        "estimated_item_height_pt": 180.5, "position_strategy": "anchor", "diff_algorithm": "collection_difference",
        "debounce_ms": 150, "viewmodel_cache_count": 1000, "viewmodel_cache_cost_bytes": 4_000_000,
        "new_posts_policy": "indicator", "hide_replies": true, "hide_reposts": false, "refresh_trigger_pt": 60,
        "memory_warning_policy": "trim_half", "image_decode": "main", "image_memory_cache_mb": 64.5,
        "image_disk_cache_mb": 1024, "image_prefetch_window": 0,
    ]
    static let everyNetworkField: JSONValue = [
        "profile": "3g", "latency": ["distribution": "lognormal", "median_ms": 120, "sigma": 0.4], "jitter_ms": 10,
        "downlink_kbps": 780, "uplink_kbps": 330, "loss_rate": 0.02, "timeout_ms": 30_000, "max_retries": 3,
        "backoff_ms": 250, "backoff_multiplier": 1.5,
        "offline": [["from_s": 0.5, "to_s": 1], ["from_s": 1.5, "to_s": 1.75]],
    ]
    static let everyAction: JSONValue = [
        [
            "at_ms": 0, "action": "drag", "trajectory": [["t_ms": 0, "dy_pt": 0], ["t_ms": 50, "dy_pt": -40.5]],
            "release": "stop", "deceleration": "fast",
        ],
        ["at_ms": 100, "action": "fling", "velocity_pt_s": -3000, "deceleration": "fast"],
        ["at_ms": 200, "action": "refresh"],
        ["at_ms": 300, "action": "new_posts", "count": 3, "delivery": "server"],
        ["at_ms": 300, "action": "new_posts", "count": 1],
        ["at_ms": 400, "action": "tap_new_posts"],
        ["at_ms": 500, "action": "scroll_to_top"],
        ["at_ms": 600, "action": "like", "repeat": ["count": 3, "every_ms": 10]],
        ["at_ms": 700, "action": "content_updates", "count": 2],
        ["at_ms": 800, "action": "rotate", "width_pt": 844, "height_pt": 390],
        ["at_ms": 900, "action": "text_size", "scale": 1.35],
        ["at_ms": 1000, "action": "background", "duration_s": 0.25],
        ["at_ms": 1300, "action": "terminate", "relaunch_after_s": 0],
        ["at_ms": 1999, "action": "memory_warning"],
    ]

    static func variant(_ members: [(String, JSONValue)]) -> JSONValue { .array([.object(members)]) }

    /// `fields` with a `name` in front: a variant.
    static func named(_ name: String, _ fields: JSONValue) -> JSONValue {
        guard case let .object(members) = fields else { return fields }
        return .object([("name", .string(name))] + members)
    }

    /// Files both must reject: unknown fields at every level, wrong types,
    /// numbers out of range, unknown enum strings, missing required fields,
    /// drags that mix their two forms, fields of another action, bad repeats,
    /// bad networks and bad variants.
    static let rejected: [SchemaCase] = [
        // Unknown fields, level by level.
        SchemaCase("unknown top-level field", set: "colour", to: "blue", .rejectedByBoth),
        SchemaCase(
            "$schema at the top (unknown to feedsim)", set: "$schema",
            to: "https://json-schema.org/draft/2020-12/schema", .rejectedByBoth),
        SchemaCase("unknown field in feed", set: "feed.post_cnt", to: 5, .rejectedByBoth),
        SchemaCase("unknown field in text_length", set: "feed.text_length.avg", to: 5, .rejectedByBoth),
        SchemaCase("unknown field in engine", set: "engine.estimated_height", to: 5, .rejectedByBoth),
        SchemaCase("name in engine (only variants have one)", set: "engine.name", to: "fast", .rejectedByBoth),
        SchemaCase("network in engine", set: "engine.network", to: ["profile": "wifi"], .rejectedByBoth),
        SchemaCase("unknown field in limits", set: "limits.max_frames", to: 5, .rejectedByBoth),
        SchemaCase("unknown field in server", set: "server", to: ["latency_ms": 5, "timeout_ms": 3], .rejectedByBoth),
        SchemaCase("unknown field in memory", set: "memory", to: ["limit_gb": 2], .rejectedByBoth),
        SchemaCase("unknown field in lifecycle", set: "lifecycle", to: ["warm_start_ms": 2], .rejectedByBoth),
        SchemaCase(
            "unknown field in network", set: "network", to: ["profile": "lte", "bandwidth": 5], .rejectedByBoth),
        SchemaCase(
            "unknown field in an offline window", set: "network", to: ["offline": [["from_s": 0, "until_s": 1]]],
            .rejectedByBoth),
        SchemaCase(
            "unknown field in a latency", set: "network",
            to: ["latency": ["distribution": "constant", "ms": 5, "jitter": 1]], .rejectedByBoth),
        SchemaCase("unknown field in a step", set: "script[1].speed", to: 3, .rejectedByBoth),
        SchemaCase(
            "unknown field in a trajectory point", [("script[0]", drag), ("script[0].trajectory[1].dx_pt", 3)],
            .rejectedByBoth),
        SchemaCase(
            "unknown field in repeat", set: "script[1].repeat", to: ["count": 2, "every_ms": 100, "times": 2],
            .rejectedByBoth),
        SchemaCase(
            "unknown field in a variant", set: "variants", to: variant([("name", "a"), ("colour", "red")]),
            .rejectedByBoth),
        SchemaCase(
            "unknown field in a variant's network", set: "variants",
            to: variant([("name", "a"), ("network", ["profile": "lte", "speed": 1])]), .rejectedByBoth),

        // Wrong types.
        SchemaCase("a string for a number", set: "duration_s", to: "2", .rejectedByBoth),
        SchemaCase("a string for an integer", set: "feed.post_count", to: "fifty", .rejectedByBoth),
        SchemaCase("a number for a string", set: "name", to: 7, .rejectedByBoth),
        SchemaCase("feed an array", set: "feed", to: [], .rejectedByBoth),
        SchemaCase("script an object", set: "script", to: [:], .rejectedByBoth),
        SchemaCase("a string for a boolean", set: "engine.hide_replies", to: "yes", .rejectedByBoth),
        SchemaCase("a boolean for a number", set: "feed.media_fraction", to: true, .rejectedByBoth),
        SchemaCase("refresh rates not an array", set: "refresh_rates_hz", to: 60, .rejectedByBoth),
        SchemaCase("post_count not a whole number", set: "feed.post_count", to: 1.5, .rejectedByBoth),
        SchemaCase(
            "repeat count not a whole number", set: "script[1].repeat", to: ["count": 2.5, "every_ms": 100],
            .rejectedByBoth),
        SchemaCase("max_retries not a whole number", set: "network", to: ["max_retries": 1.5], .rejectedByBoth),
        SchemaCase("a fractional refresh rate", set: "refresh_rates_hz", to: [60.5], .rejectedByBoth),
        SchemaCase("engine null", set: "engine", to: JSONValue.null, .rejectedByBoth),
        SchemaCase("feed null", set: "feed", to: JSONValue.null, .rejectedByBoth),
        SchemaCase("device null", set: "device", to: JSONValue.null, .rejectedByBoth),
        SchemaCase("variants null", set: "variants", to: JSONValue.null, .rejectedByBoth),
        SchemaCase("repeat null", set: "script[1].repeat", to: JSONValue.null, .rejectedByBoth),
        SchemaCase("text_length null", set: "feed.text_length", to: JSONValue.null, .rejectedByBoth),
        SchemaCase("media_fraction null", set: "feed.media_fraction", to: JSONValue.null, .rejectedByBoth),
        SchemaCase("a step that is a string", set: "script[1]", to: "fling", .rejectedByBoth),

        // Out of range.
        SchemaCase("negative seed", set: "seed", to: -1, .rejectedByBoth),
        SchemaCase("seed past UInt64", [("seed", .double(18_446_744_073_709_551_616.0))], .rejectedByBoth),
        SchemaCase("refresh rate 90", set: "refresh_rates_hz", to: [90], .rejectedByBoth),
        SchemaCase("a refresh rate twice", set: "refresh_rates_hz", to: [60, 60], .rejectedByBoth),
        SchemaCase("post_count past a million", set: "feed.post_count", to: 1_000_001, .rejectedByBoth),
        SchemaCase("media_fraction above 1", set: "feed.media_fraction", to: 1.5, .rejectedByBoth),
        SchemaCase("duration_s 0", set: "duration_s", to: 0, .rejectedByBoth),
        SchemaCase("duration_s past a day", set: "duration_s", to: 86_401, .rejectedByBoth),
        SchemaCase("limits.max_events too small", set: "limits.max_events", to: 10, .rejectedByBoth),
        SchemaCase("estimated height 0", set: "engine.estimated_item_height_pt", to: 0, .rejectedByBoth),
        SchemaCase("image_prefetch_window 51", set: "engine.image_prefetch_window", to: 51, .rejectedByBoth),
        SchemaCase("negative at_ms", set: "script[0].at_ms", to: -1, .rejectedByBoth),
        SchemaCase("fling velocity 0", set: "script[1].velocity_pt_s", to: 0, .rejectedByBoth),
        SchemaCase("fling velocity -0.0", set: "script[1].velocity_pt_s", to: .double(-0.0), .rejectedByBoth),
        SchemaCase("fling faster than 100,000 pt/s", set: "script[1].velocity_pt_s", to: 100_001, .rejectedByBoth),
        SchemaCase(
            "text_size scale 4", set: "script[1]", to: ["at_ms": 1000, "action": "text_size", "scale": 4],
            .rejectedByBoth),
        SchemaCase(
            "rotate narrower than 100 pt", set: "script[1]",
            to: ["at_ms": 1000, "action": "rotate", "width_pt": 99, "height_pt": 800], .rejectedByBoth),
        SchemaCase(
            "background for 0 s", set: "script[1]", to: ["at_ms": 1000, "action": "background", "duration_s": 0],
            .rejectedByBoth),
        SchemaCase("memory warning_fraction below 0.1", set: "memory", to: ["warning_fraction": 0.05], .rejectedByBoth),
        SchemaCase("cold start past a minute", set: "lifecycle", to: ["cold_start_ms": 60_001], .rejectedByBoth),
        SchemaCase("text_length max past 10,000", set: "feed.text_length.max", to: 10_001, .rejectedByBoth),
        SchemaCase("drag duration 0", set: "script[0].duration_ms", to: 0, .rejectedByBoth),
        SchemaCase(
            "new_posts count 0", set: "script[1]", to: ["at_ms": 1000, "action": "new_posts", "count": 0],
            .rejectedByBoth),

        // Unknown enum strings.
        SchemaCase("schema_version 2", set: "schema_version", to: 2, .rejectedByBoth),
        SchemaCase("unknown action", set: "script[1].action", to: "pinch", .rejectedByBoth),
        SchemaCase("unknown deceleration", set: "script[1].deceleration", to: "slow", .rejectedByBoth),
        SchemaCase("unknown release", set: "script[0].release", to: "bounce", .rejectedByBoth),
        SchemaCase("unknown position strategy", set: "engine.position_strategy", to: "sticky", .rejectedByBoth),
        SchemaCase("unknown diff algorithm", set: "engine.diff_algorithm", to: "myers", .rejectedByBoth),
        SchemaCase(
            "unknown memory warning policy", set: "engine.memory_warning_policy", to: "trim_all", .rejectedByBoth),
        SchemaCase("unknown image decode", set: "engine.image_decode", to: "gpu", .rejectedByBoth),
        SchemaCase("unknown new posts policy", set: "engine.new_posts_policy", to: "append", .rejectedByBoth),
        SchemaCase(
            "unknown delivery", set: "script[1]",
            to: ["at_ms": 1000, "action": "new_posts", "count": 2, "delivery": "email"], .rejectedByBoth),
        SchemaCase("action in capitals", set: "script[1].action", to: "FLING", .rejectedByBoth),

        // Missing required fields.
        SchemaCase("missing schema_version", set: "schema_version", to: nil, .rejectedByBoth),
        SchemaCase("missing name", set: "name", to: nil, .rejectedByBoth),
        SchemaCase("missing description", set: "description", to: nil, .rejectedByBoth),
        SchemaCase("missing device", set: "device", to: nil, .rejectedByBoth),
        SchemaCase("missing duration_s", set: "duration_s", to: nil, .rejectedByBoth),
        SchemaCase("missing feed", set: "feed", to: nil, .rejectedByBoth),
        SchemaCase("missing post_count", set: "feed.post_count", to: nil, .rejectedByBoth),
        SchemaCase("missing text_length max", set: "feed.text_length.max", to: nil, .rejectedByBoth),
        SchemaCase("missing at_ms", set: "script[1].at_ms", to: nil, .rejectedByBoth),
        SchemaCase("missing action", set: "script[1].action", to: nil, .rejectedByBoth),
        SchemaCase("fling without velocity", set: "script[1].velocity_pt_s", to: nil, .rejectedByBoth),
        SchemaCase(
            "new_posts without count", set: "script[1]", to: ["at_ms": 1000, "action": "new_posts"], .rejectedByBoth),
        SchemaCase(
            "rotate without height", set: "script[1]", to: ["at_ms": 1000, "action": "rotate", "width_pt": 390],
            .rejectedByBoth),
        SchemaCase(
            "terminate without relaunch_after_s", set: "script[1]", to: ["at_ms": 1000, "action": "terminate"],
            .rejectedByBoth),
        SchemaCase("repeat without every_ms", set: "script[1].repeat", to: ["count": 2], .rejectedByBoth),
        SchemaCase("offline window without to_s", set: "network", to: ["offline": [["from_s": 0]]], .rejectedByBoth),
        SchemaCase("latency without distribution", set: "network", to: ["latency": ["ms": 5]], .rejectedByBoth),
        SchemaCase(
            "uniform latency without max_ms", set: "network",
            to: ["latency": ["distribution": "uniform", "min_ms": 5]], .rejectedByBoth),

        // Drags.
        SchemaCase(
            "drag with both trajectory and distance", set: "script[0].trajectory",
            to: [["t_ms": 0, "dy_pt": 0], ["t_ms": 100, "dy_pt": 50]], .rejectedByBoth),
        SchemaCase(
            "drag with trajectory and duration_ms", [("script[0]", drag), ("script[0].duration_ms", 200)],
            .rejectedByBoth),
        SchemaCase(
            "drag with trajectory and distance_pt", [("script[0]", drag), ("script[0].distance_pt", 200)],
            .rejectedByBoth),
        SchemaCase(
            "drag with neither form", [("script[0].distance_pt", nil), ("script[0].duration_ms", nil)],
            .rejectedByBoth),
        SchemaCase("drag without distance_pt", set: "script[0].distance_pt", to: nil, .rejectedByBoth),
        SchemaCase("drag without duration_ms", set: "script[0].duration_ms", to: nil, .rejectedByBoth),
        SchemaCase(
            "trajectory with one point", [("script[0]", drag), ("script[0].trajectory", [["t_ms": 0, "dy_pt": 0]])],
            .rejectedByBoth),
        SchemaCase(
            "trajectory starting at t_ms 10", [("script[0]", drag), ("script[0].trajectory[0].t_ms", 10)],
            .rejectedByBoth),
        SchemaCase(
            "trajectory starting at dy_pt 5", [("script[0]", drag), ("script[0].trajectory[0].dy_pt", 5)],
            .rejectedByBoth),
        SchemaCase(
            "trajectory point without dy_pt", [("script[0]", drag), ("script[0].trajectory[2].dy_pt", nil)],
            .rejectedByBoth),
        SchemaCase(
            "trajectory not an array", [("script[0]", drag), ("script[0].trajectory", ["t_ms": 0, "dy_pt": 0])],
            .rejectedByBoth),

        // Fields of another action.
        SchemaCase("velocity_pt_s on a drag", set: "script[0].velocity_pt_s", to: 500, .rejectedByBoth),
        SchemaCase("release on a fling", set: "script[1].release", to: "stop", .rejectedByBoth),
        SchemaCase(
            "count on a refresh", set: "script[1]", to: ["at_ms": 1000, "action": "refresh", "count": 2],
            .rejectedByBoth),
        SchemaCase(
            "delivery on content_updates", set: "script[1]",
            to: ["at_ms": 1000, "action": "content_updates", "count": 2, "delivery": "push"], .rejectedByBoth),
        SchemaCase(
            "scale on a rotate", set: "script[1]",
            to: ["at_ms": 1000, "action": "rotate", "width_pt": 390, "height_pt": 844, "scale": 2], .rejectedByBoth),
        SchemaCase(
            "duration_s on a terminate", set: "script[1]",
            to: ["at_ms": 1000, "action": "terminate", "relaunch_after_s": 1, "duration_s": 1], .rejectedByBoth),
        SchemaCase(
            "deceleration on a like", set: "script[1]", to: ["at_ms": 1000, "action": "like", "deceleration": "fast"],
            .rejectedByBoth),
        SchemaCase("release null on a fling", set: "script[1].release", to: JSONValue.null, .rejectedByBoth),

        // Repeats.
        SchemaCase("repeat count 0", set: "script[1].repeat", to: ["count": 0, "every_ms": 100], .rejectedByBoth),
        SchemaCase(
            "repeat count past 10,000", set: "script[1].repeat", to: ["count": 10_001, "every_ms": 0.001],
            .rejectedByBoth),
        SchemaCase("repeat every_ms 0", set: "script[1].repeat", to: ["count": 2, "every_ms": 0], .rejectedByBoth),
        SchemaCase(
            "repeat every_ms negative", set: "script[1].repeat", to: ["count": 2, "every_ms": -5], .rejectedByBoth),
        SchemaCase("repeat a number", set: "script[1].repeat", to: 3, .rejectedByBoth),

        // Networks.
        SchemaCase("unknown network profile", set: "network", to: ["profile": "5g"], .rejectedByBoth),
        SchemaCase("network profile null", set: "network", to: ["profile": JSONValue.null], .rejectedByBoth),
        SchemaCase(
            "unknown latency distribution", set: "network", to: ["latency": ["distribution": "gamma", "ms": 5]],
            .rejectedByBoth),
        SchemaCase(
            "a field of another distribution", set: "network",
            to: ["latency": ["distribution": "constant", "ms": 5, "mean_ms": 5]], .rejectedByBoth),
        SchemaCase(
            "lognormal median 0", set: "network",
            to: ["latency": ["distribution": "lognormal", "median_ms": 0, "sigma": 0.3]], .rejectedByBoth),
        SchemaCase(
            "lognormal sigma 6", set: "network",
            to: ["latency": ["distribution": "lognormal", "median_ms": 50, "sigma": 6]], .rejectedByBoth),
        SchemaCase(
            "pareto shape 1", set: "network", to: ["latency": ["distribution": "pareto", "scale_ms": 50, "shape": 1]],
            .rejectedByBoth),
        SchemaCase("latency null", set: "network", to: ["latency": JSONValue.null], .rejectedByBoth),
        SchemaCase("loss_rate above 1", set: "network", to: ["loss_rate": 1.5], .rejectedByBoth),
        SchemaCase("downlink 0 kbps", set: "network", to: ["downlink_kbps": 0], .rejectedByBoth),
        SchemaCase("timeout 0 ms", set: "network", to: ["timeout_ms": 0], .rejectedByBoth),
        SchemaCase("backoff multiplier below 1", set: "network", to: ["backoff_multiplier": 0.5], .rejectedByBoth),
        SchemaCase("offline an object", set: "network", to: ["offline": ["from_s": 0, "to_s": 1]], .rejectedByBoth),
        SchemaCase(
            "offline window before launch", set: "network", to: ["offline": [["from_s": -1, "to_s": 1]]],
            .rejectedByBoth),
        SchemaCase("network an array", set: "network", to: [], .rejectedByBoth),

        // Variants.
        SchemaCase("no variants", set: "variants", to: [], .rejectedByBoth),
        SchemaCase(
            "a variant without a name", set: "variants", to: variant([("diff_algorithm", "heckel")]), .rejectedByBoth),
        SchemaCase(
            "a variant name with a space", set: "variants", to: variant([("name", "fast one")]), .rejectedByBoth),
        SchemaCase("a blank variant name", set: "variants", to: variant([("name", "")]), .rejectedByBoth),
        SchemaCase(
            "a variant with a bad strategy", set: "variants",
            to: variant([("name", "a"), ("position_strategy", "sticky")]), .rejectedByBoth),
        SchemaCase(
            "a variant's network null", set: "variants", to: variant([("name", "a"), ("network", JSONValue.null)]),
            .rejectedByBoth),
        SchemaCase(
            "a variant's network with a bad profile", set: "variants",
            to: variant([("name", "a"), ("network", ["profile": "wlan"])]), .rejectedByBoth),
        SchemaCase("a variant that is a string", set: "variants", to: ["fast"], .rejectedByBoth),

        // Strings.
        SchemaCase("a blank description", set: "description", to: "  \t", .rejectedByBoth),
        SchemaCase("an empty device", set: "device", to: "", .rejectedByBoth),
        SchemaCase("a name with a slash", set: "name", to: "../escape", .rejectedByBoth),
        SchemaCase("a name with a space", set: "name", to: "fast fling", .rejectedByBoth),
        SchemaCase("an empty name", set: "name", to: "", .rejectedByBoth),
    ]

    /// Rules the decoder checks and the schema cannot express: both sides'
    /// verdicts pinned, and each rule named in the schema's description.
    static let knownDifferences: [SchemaCase] = [
        SchemaCase(
            "a device that does not exist", set: "device", to: "iphone-3g",
            .onlyDecoderRejects(rule: "`device` must name a profile")),
        SchemaCase(
            "120 Hz on a 60 Hz device", set: "refresh_rates_hz", to: [60, 120],
            .onlyDecoderRejects(rule: "one the device supports")),
        SchemaCase(
            "duration past limits.max_simulated_s", set: "duration_s", to: 61,
            .onlyDecoderRejects(rule: "`duration_s` must be at most `limits.max_simulated_s`")),
        SchemaCase(
            "duration past the default max_simulated_s", [("limits", nil), ("script", []), ("duration_s", 3_601)],
            .onlyDecoderRejects(rule: "3,600 s when `limits` does not set it")),
        SchemaCase(
            "a step at the end of the run", set: "script[1].at_ms", to: 2000,
            .onlyDecoderRejects(rule: "must come before the end of the run")),
        SchemaCase(
            "a script of more than 10,000 steps, repetitions counted",
            set: "script",
            to: .array(
                Array(
                    repeating: ["at_ms": 100, "action": "like", "repeat": ["count": 10_000, "every_ms": 0.1]], count: 2)
            ),
            .onlyDecoderRejects(rule: "at most 10,000 steps")),
        SchemaCase(
            "more vsyncs than limits.max_events", [("duration_s", 60), ("limits.max_events", 1_000)],
            .onlyDecoderRejects(rule: "must fit in `limits.max_events`")),
        SchemaCase(
            "more than 1,000,000 posts over the run", set: "script[1]",
            to: ["at_ms": 1000, "action": "new_posts", "count": 100_000, "repeat": ["count": 10, "every_ms": 1]],
            .onlyDecoderRejects(rule: "at most 1,000,000 posts")),
        SchemaCase(
            "a repetition past the end of the run", set: "script[1].repeat", to: ["count": 3, "every_ms": 500],
            .onlyDecoderRejects(rule: "every repetition of it")),
        SchemaCase(
            "steps out of time order", set: "script[1].at_ms", to: 50,
            .onlyDecoderRejects(rule: "script steps must be in time order")),
        SchemaCase(
            "a repeated drag closer than its length", set: "script[0].repeat", to: ["count": 2, "every_ms": 150],
            .onlyDecoderRejects(rule: "of a repeated drag must be at least the drag's own length")),
        SchemaCase(
            "a repeated trajectory drag closer than its length",
            [("script[0]", drag), ("script[0].repeat", ["count": 2, "every_ms": 150])],
            .onlyDecoderRejects(rule: "the last trajectory point's `t_ms`")),
        SchemaCase(
            "trajectory times not increasing", [("script[0]", drag), ("script[0].trajectory[2].t_ms", 100)],
            .onlyDecoderRejects(rule: "trajectory times `t_ms` must increase")),
        SchemaCase(
            "a drag rounding to 0 ns", set: "script[0].duration_ms", to: 0.0000001,
            .onlyDecoderRejects(rule: "must round to at least 1 ns")),
        SchemaCase(
            "a repeat interval rounding to 0 ns", set: "script[1].repeat", to: ["count": 2, "every_ms": 0.0000001],
            .onlyDecoderRejects(rule: "must round to at least 1 ns")),
        SchemaCase(
            "text_length min above max", [("feed.text_length.min", 200), ("feed.text_length.max", 100)],
            .onlyDecoderRejects(rule: "`feed.text_length.min` must be at most")),
        SchemaCase(
            "critical fraction below warning fraction", set: "memory",
            to: ["warning_fraction": 0.9, "critical_fraction": 0.85],
            .onlyDecoderRejects(rule: "`memory.critical_fraction` must be at least `memory.warning_fraction`")),
        SchemaCase(
            "warning fraction above the default critical", set: "memory", to: ["warning_fraction": 0.95],
            .onlyDecoderRejects(rule: "defaults 0.8, 0.9, 150 MB and 2,048 MB")),
        SchemaCase(
            "baseline at the memory limit", set: "memory", to: ["limit_mb": 400, "baseline_mb": 400],
            .onlyDecoderRejects(rule: "`memory.baseline_mb` less than `memory.limit_mb`")),
        SchemaCase(
            "a memory limit below the default baseline", set: "memory", to: ["limit_mb": 100],
            .onlyDecoderRejects(rule: "defaults 0.8, 0.9, 150 MB and 2,048 MB")),
        SchemaCase(
            "check_under_s below keep_under_s", set: "lifecycle", to: ["keep_under_s": 200, "check_under_s": 100],
            .onlyDecoderRejects(rule: "`lifecycle.check_under_s` must be at least `lifecycle.keep_under_s`")),
        SchemaCase(
            "check_under_s below the default keep_under_s", set: "lifecycle", to: ["check_under_s": 300],
            .onlyDecoderRejects(rule: "defaults 600 s and 1,800 s")),
        SchemaCase(
            "uniform latency max below min", set: "network",
            to: ["latency": ["distribution": "uniform", "min_ms": 50, "max_ms": 10]],
            .onlyDecoderRejects(rule: "`max_ms` of a uniform latency must be at least its `min_ms`")),
        SchemaCase(
            "an offline window ending where it starts", set: "network", to: ["offline": [["from_s": 1, "to_s": 1]]],
            .onlyDecoderRejects(rule: "`to_s` of an offline window must be after its `from_s`")),
        SchemaCase(
            "two variants with one name", set: "variants", to: [["name": "a"], ["name": "a", "debounce_ms": 0]],
            .onlyDecoderRejects(rule: "variant names must be unique")),
        // The other way round: the schema's pattern is stricter.
        SchemaCase(
            "a name with a combining accent", set: "name", to: "cafe\u{301}",
            .onlySchemaRejects(rule: "letters written with combining marks")),
        SchemaCase(
            "a first trajectory point rounding to 0 ns",
            [("script[0]", drag), ("script[0].trajectory[0].t_ms", 0.0000001)],
            .onlySchemaRejects(rule: "the first trajectory point is at 0 once rounded")),
    ]

    /// Edits both must accept.
    static let accepted: [SchemaCase] = [
        SchemaCase("the base as it is", [], .acceptedByBoth),
        SchemaCase("no refresh rates", set: "refresh_rates_hz", to: [], .acceptedByBoth),
        SchemaCase("refresh rates absent", set: "refresh_rates_hz", to: nil, .acceptedByBoth),
        SchemaCase("refresh rates null", set: "refresh_rates_hz", to: JSONValue.null, .acceptedByBoth),
        SchemaCase(
            "both rates on the 120 Hz device", [("device", "iphone-pro-120hz"), ("refresh_rates_hz", [120, 60])],
            .acceptedByBoth),
        SchemaCase("seed null", set: "seed", to: JSONValue.null, .acceptedByBoth),
        SchemaCase("an integer written as 50.0", set: "feed.post_count", to: .double(50), .acceptedByBoth),
        SchemaCase("a name in other scripts", set: "name", to: "fünf_ß-日本語", .acceptedByBoth),
        SchemaCase("a description with spaces around", set: "description", to: "  text  ", .acceptedByBoth),
        SchemaCase("text_length of one length", set: "feed.text_length", to: ["min": 7, "max": 7], .acceptedByBoth),
        SchemaCase(
            "every feed field", set: "feed",
            to: [
                "post_count": 0, "text_length": ["min": 0, "max": 10_000], "media_fraction": 0, "reply_fraction": 0.4,
                "repost_fraction": 1,
                "page_size": 25, "load_more_threshold": 0, "media_size_known_fraction": 0.5,
            ], .acceptedByBoth),
        SchemaCase("server null", set: "server", to: JSONValue.null, .acceptedByBoth),
        SchemaCase(
            "every server field", set: "server", to: ["latency_ms": 600_000, "like_failure_rate": 1], .acceptedByBoth),
        SchemaCase("every engine field", set: "engine", to: everyEngineField, .acceptedByBoth),
        SchemaCase("an empty engine", set: "engine", to: [:], .acceptedByBoth),
        SchemaCase("engine absent", set: "engine", to: nil, .acceptedByBoth),
        SchemaCase("hide_replies null", set: "engine.hide_replies", to: JSONValue.null, .acceptedByBoth),
        SchemaCase("limits absent", set: "limits", to: nil, .acceptedByBoth),
        SchemaCase("limits null", set: "limits", to: JSONValue.null, .acceptedByBoth),
        SchemaCase(
            "every memory field", set: "memory",
            to: [
                "limit_mb": 1024, "baseline_mb": 100, "per_post_kb": 8, "warning_fraction": 0.7,
                "critical_fraction": 0.7,
            ], .acceptedByBoth),
        SchemaCase("memory null", set: "memory", to: JSONValue.null, .acceptedByBoth),
        SchemaCase(
            "every lifecycle field", set: "lifecycle",
            to: ["keep_under_s": 60, "check_under_s": 60, "restore_max_age_s": 2_592_000, "cold_start_ms": 0],
            .acceptedByBoth),
        SchemaCase("lifecycle null", set: "lifecycle", to: JSONValue.null, .acceptedByBoth),
        SchemaCase("every network field", set: "network", to: everyNetworkField, .acceptedByBoth),
        SchemaCase("an empty network", set: "network", to: [:], .acceptedByBoth),
        SchemaCase("network null", set: "network", to: JSONValue.null, .acceptedByBoth),
        SchemaCase(
            "the offline profile with no windows", set: "network", to: ["profile": "offline", "offline": []],
            .acceptedByBoth),
        SchemaCase(
            "a constant latency", set: "network", to: ["latency": ["distribution": "constant", "ms": 0]],
            .acceptedByBoth),
        SchemaCase(
            "a uniform latency", set: "network",
            to: ["latency": ["distribution": "uniform", "min_ms": 10, "max_ms": 10]], .acceptedByBoth),
        SchemaCase(
            "a normal latency", set: "network",
            to: ["latency": ["distribution": "normal", "mean_ms": 0, "std_dev_ms": 600_000]], .acceptedByBoth),
        SchemaCase(
            "a pareto latency", set: "network",
            to: ["latency": ["distribution": "pareto", "scale_ms": 600_000, "shape": 100]], .acceptedByBoth),
        SchemaCase(
            "variants with engine fields and networks", set: "variants",
            to: [
                ["name": "wifi", "network": ["profile": "wifi"]],
                [
                    "name": "edge_slow",
                    "network": [
                        "profile": "edge", "latency": ["distribution": "normal", "mean_ms": 300, "std_dev_ms": 50],
                    ], "debounce_ms": 0,
                ],
                named("all-fields", everyEngineField),
                ["name": "nulls", "hide_replies": JSONValue.null, "hide_reposts": JSONValue.null],
            ], .acceptedByBoth),
        SchemaCase("no script", set: "script", to: [], .acceptedByBoth),
        SchemaCase("script null", set: "script", to: JSONValue.null, .acceptedByBoth),
        SchemaCase("every action", set: "script", to: everyAction, .acceptedByBoth),
        SchemaCase("a trajectory drag", set: "script[0]", to: drag, .acceptedByBoth),
        SchemaCase("steps at the same time", set: "script[1].at_ms", to: 100, .acceptedByBoth),
        SchemaCase("the fastest backwards fling", set: "script[1].velocity_pt_s", to: -100_000, .acceptedByBoth),
        SchemaCase("a step just before the end", set: "script[1].at_ms", to: 1999.999, .acceptedByBoth),
        SchemaCase("a repeat of one", set: "script[1].repeat", to: ["count": 1, "every_ms": 1], .acceptedByBoth),
        SchemaCase(
            "a drag repeated at its own length", set: "script[0].repeat", to: ["count": 2, "every_ms": 200],
            .acceptedByBoth),
        SchemaCase("a drag of exactly 1 ns", set: "script[0].duration_ms", to: 0.000001, .acceptedByBoth),
    ]

    /// The hand-written table.
    /// Keys given twice, at several depths: Foundation's decoder would keep
    /// the first and Python's `json` the last, so both must refuse them.
    static let duplicateKeys: [SchemaCase] = [
        SchemaCase(
            "a key twice in feed", set: "feed", to: .object([("post_count", 50), ("post_count", 60)]),
            .duplicateKey(path: "$.feed.post_count")),
        SchemaCase(
            "a key twice in a step", set: "script[1]",
            to: .object([("at_ms", 1000), ("action", "fling"), ("velocity_pt_s", 2000), ("at_ms", 1500)]),
            .duplicateKey(path: "$.script[1].at_ms")),
        SchemaCase(
            "a variant's name twice", set: "variants", to: .array([.object([("name", "a"), ("name", "b")])]),
            .duplicateKey(path: "$.variants[0].name")),
        SchemaCase(
            "a key twice with the same value", set: "limits",
            to: .object([("max_events", 100_000), ("max_events", 100_000)]),
            .duplicateKey(path: "$.limits.max_events")),
        SchemaCase(
            "a key twice in text_length", set: "feed.text_length", to: .object([("min", 0), ("max", 300), ("min", 0)]),
            .duplicateKey(path: "$.feed.text_length.min")),
    ]

    static let table: [SchemaCase] = rejected + knownDifferences + accepted + duplicateKeys
}

// MARK: - Every bounded field of the table, probed

/// Every object of the schema's table, labelled by its definition's name or
/// by where it is written (`feed.text_length`, `latency[uniform]`).
enum SchemaObjects {
    static let all: [(label: String, object: ObjectSchema)] = {
        var found: [(label: String, object: ObjectSchema)] = []
        func visit(_ object: ObjectSchema, _ label: String) {
            guard !found.contains(where: { $0.label == label }) else { return }
            found.append((label, object))
            if let base = object.base?.schema { visit(base, base.definition ?? label + "^") }
            for field in object.fields { visit(field.kind, "\(label).\(field.name)") }
            for branch in object.branches?.list ?? [] {
                visit(branch.object, branch.object.definition ?? "\(label)[\(branch.value)]")
            }
        }
        func visit(_ kind: SchemaField.Kind, _ label: String) {
            switch kind {
            case let .object(object): visit(object, object.definition ?? label)
            case let .array(array):
                visit(array.items.kind, label + "[]")
                if let first = array.first { visit(first.kind, label + "[0]") }
            case let .oneOf(shapes): for shape in shapes { visit(shape, label) }
            default: break
            }
        }
        visit(Scenario.schema, "scenario")
        return found
    }()

    static func named(_ label: String) -> ObjectSchema? {
        all.first { $0.label == label }?.object
    }
}

/// One bounded field of the table at one place in the base scenario, and
/// what the scenario needs around it so that only the bound decides.
struct SchemaBound: Sendable {
    enum Probe: String, Sendable, CaseIterable {
        case belowMinimum = "below minimum", atMinimum = "at minimum", atMaximum = "at maximum", aboveMaximum =
            "above maximum"
        case atExclusiveMinimum = "at exclusive minimum", aboveExclusiveMinimum = "just above exclusive minimum"
        case fraction = "with a fraction"
    }

    /// `<object label>.<field>`.
    var label: String
    var field: SchemaField
    /// The field's path in the scenario.
    var path: String
    /// Where the schema reports the field's errors.
    var schemaPath: String
    var context: [(String, JSONValue?)]
    /// Probes a cross-field rule decides instead of the bound; each rule is
    /// among the known differences.
    var skipped: Set<Probe>

    /// Where an object sits in the base scenario, and what it needs there.
    struct Placement: Sendable {
        var path: String
        var context: [(String, JSONValue?)]
        /// The object is one shape of a `oneOf`: the schema reports its
        /// fields' errors at the field holding the shapes.
        var isShape: Bool

        init(_ path: String, _ context: [(String, JSONValue?)] = [], isShape: Bool = false) {
            self.path = path
            self.context = context
            self.isShape = isShape
        }

        func field(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }
    }

    /// A field a cross-field rule constrains: what else it needs, and the
    /// probes that rule decides.
    struct Exception: Sendable {
        var context: [(String, JSONValue?)] = []
        var skip: Set<Probe> = []
    }

    static func latency(_ members: JSONValue) -> [Placement] {
        [Placement("network.latency", [("network", ["latency": members])])]
    }

    /// A step of `action` in place of the fling, with its required fields.
    static func step(_ action: String, _ fields: [(String, JSONValue)] = []) -> [Placement] {
        [Placement("script[1]", [("script[1]", .object([("at_ms", 1000), ("action", .string(action))] + fields))])]
    }

    /// Every object with a bounded field, by its label in `SchemaObjects`.
    static let placements: [String: [Placement]] = [
        "scenario": [Placement("")],
        "feed": [Placement("feed")],
        "feed.text_length": [Placement("feed.text_length")],
        "feed.item_height_pt": [
            Placement("feed.item_height_pt", [("feed.item_height_pt", ["min": 1, "max": 10_000])], isShape: true)
        ],
        "server": [Placement("server", [("server", [:])])],
        "engine_fields": [Placement("engine"), Placement("variants[0]", [("variants", [["name": "v"]])])],
        "variant": [Placement("variants[0]", [("variants", [["name": "v"]])])],
        "limits": [Placement("limits")],
        "memory": [Placement("memory", [("memory", [:])])],
        "lifecycle": [Placement("lifecycle", [("lifecycle", [:])])],
        "network": [
            Placement("network", [("network", [:])]),
            Placement("variants[0].network", [("variants", [["name": "v", "network": [:]]])]),
        ],
        "offline_window": [Placement("network.offline[0]", [("network", ["offline": [["from_s": 0, "to_s": 1]]])])],
        "latency[constant]": latency(["distribution": "constant", "ms": 1]),
        "latency[uniform]": latency(["distribution": "uniform", "min_ms": 0, "max_ms": 600_000]),
        "latency[normal]": latency(["distribution": "normal", "mean_ms": 1, "std_dev_ms": 1]),
        "latency[lognormal]": latency(["distribution": "lognormal", "median_ms": 1, "sigma": 1]),
        "latency[pareto]": latency(["distribution": "pareto", "scale_ms": 1, "shape": 2]),
        // The only step, so that its repetitions are the script's whole allowance.
        "repeat": [
            Placement("script[0].repeat", [("script[0]", nil), ("script[0].repeat", ["count": 1, "every_ms": 0.001])])
        ],
        "trajectory_point": [Placement("script[0].trajectory[1]", [("script[0]", InvalidScenario.trajectoryDrag)])],
        "step": [Placement("script[0]")],
        "drag_step": [Placement("script[0]")],
        "fling_step": [Placement("script[1]")],
        "new_posts_step": step("new_posts", [("count", 1)]),
        "content_updates_step": step("content_updates", [("count", 1)]),
        "rotate_step": step("rotate", [("width_pt", 390), ("height_pt", 844)]),
        "text_size_step": step("text_size", [("scale", 1)]),
        "background_step": step("background", [("duration_s", 1)]),
        "terminate_step": step("terminate", [("relaunch_after_s", 1)]),
        // Either field alone: the probe writes it.
        "scroll_to_step": step("scroll_to"),
        "pull_step": step("pull", [("distance_pt", 100), ("duration_ms", 100), ("hold_ms", 0)]),
        "remove_posts_step": step("remove_posts", [("count", 1), ("where", "top")]),
    ]

    /// Fields a cross-field rule constrains, as `<object label>.<field>`.
    static let exceptions: [String: Exception] = [
        // Past the default max_simulated_s and max_events, and past the script.
        "scenario.duration_s": Exception(context: [
            ("script", []), ("limits.max_simulated_s", 86_400), ("limits.max_events", 10_000_000),
        ]),
        "feed.text_length.min": Exception(context: [("feed.text_length.max", 10_000)]),
        "limits.max_simulated_s": Exception(context: [("script", []), ("duration_s", 1)]),
        "memory.limit_mb": Exception(context: [("memory", ["baseline_mb": 0])]),
        // baseline_mb at its maximum always equals or passes limit_mb's maximum.
        "memory.baseline_mb": Exception(context: [("memory", ["limit_mb": 65_536])], skip: [.atMaximum]),
        "memory.warning_fraction": Exception(context: [("memory", ["critical_fraction": 1])]),
        "memory.critical_fraction": Exception(context: [("memory", ["warning_fraction": 0.1])]),
        "lifecycle.keep_under_s": Exception(context: [("lifecycle", ["check_under_s": 86_400])]),
        "lifecycle.check_under_s": Exception(context: [("lifecycle", ["keep_under_s": 0])]),
        // A window must end after it starts: from_s cannot reach the end of the day, to_s cannot be 0.
        "offline_window.from_s": Exception(
            context: [("network", ["offline": [["from_s": 0, "to_s": 86_400]]])], skip: [.atMaximum]),
        "offline_window.to_s": Exception(skip: [.atMinimum]),
        // A point into a post needs the post.
        "scroll_to_step.into_post_pt": Exception(context: [("script[1].post_index", 3)]),
        // A step at the largest at_ms would be past the end of any run.
        "step.at_ms": Exception(skip: [.atMaximum]),
        // Just above 0 ms rounds to 0 ns (a known difference).
        "repeat.every_ms": Exception(skip: [.aboveExclusiveMinimum]),
        "drag_step.duration_ms": Exception(skip: [.aboveExclusiveMinimum]),
        "pull_step.duration_ms": Exception(skip: [.aboveExclusiveMinimum]),
        // Later points must come after the touch-down at 0.
        "trajectory_point.t_ms": Exception(context: [("script[0].trajectory[2]", nil)], skip: [.atMinimum]),
    ]

    /// Every bounded field at every place its object sits.
    static let all: [SchemaBound] = SchemaObjects.all.flatMap { label, object in
        object.fields.filter(\.isBounded).flatMap { field in
            let exception = exceptions["\(label).\(field.name)"] ?? Exception()
            return (placements[label] ?? []).map { placement in
                SchemaBound(
                    label: "\(label).\(field.name)", field: field, path: placement.field(field.name),
                    schemaPath: placement.isShape ? placement.path : placement.field(field.name),
                    context: placement.context + exception.context, skipped: exception.skip)
            }
        }
    }

    /// A little past `bound`, in the direction of `sign`, as a number both sides read exactly.
    static func nudge(_ bound: Double, by sign: Double) -> Double {
        bound + sign * max(abs(bound) * 1e-9, 1e-9)
    }

    /// The probes of the field's bounds: on each bound and just past it, and
    /// a value with a fraction, which only a whole-number field refuses.
    var cases: [SchemaCase] {
        let outside = SchemaCase.Expectation.rejectedByBothAt(path: "$." + path, schemaPath: "$." + schemaPath)
        var probes: [(Probe, JSONValue, SchemaCase.Expectation)] = []
        switch field.kind {
        case let .integer(range):
            probes = [
                (.atMinimum, .int(range.lowerBound), .acceptedByBoth),
                (.belowMinimum, .int(range.lowerBound - 1), outside),
                (.atMaximum, .int(range.upperBound), .acceptedByBoth),
                (.aboveMaximum, .int(range.upperBound + 1), outside),
                (.fraction, .double(Double(range.lowerBound) + 0.5), outside),
            ]
        case let .text(_, maxLength?):
            probes = [
                (.atMaximum, .string(String(repeating: "n", count: maxLength)), .acceptedByBoth),
                (.aboveMaximum, .string(String(repeating: "n", count: maxLength + 1)), outside),
            ]
        default:
            let bounds = field.numberBounds
            probes =
                bounds.lowerIsExclusive
                ? [
                    (.atExclusiveMinimum, .double(bounds.lower), outside),
                    (.aboveExclusiveMinimum, .double(Self.nudge(bounds.lower, by: 1)), .acceptedByBoth),
                ]
                : [
                    (.atMinimum, .double(bounds.lower), .acceptedByBoth),
                    (.belowMinimum, .double(Self.nudge(bounds.lower, by: -1)), outside),
                ]
            probes += [
                (.atMaximum, .double(bounds.upper), .acceptedByBoth),
                (.aboveMaximum, .double(Self.nudge(bounds.upper, by: 1)), outside),
                (.fraction, .double(min(bounds.lower + 0.5, (bounds.lower + bounds.upper) / 2)), .acceptedByBoth),
            ]
        }
        return probes.filter { !skipped.contains($0.0) }.map { probe, value, expectation in
            SchemaCase(
                "bound \(label) at \(path) \(probe.rawValue) (\(value.text))", context + [(path, value)], expectation)
        }
    }

    static let allCases: [SchemaCase] = all.flatMap(\.cases)
}

// MARK: - Verdicts, computed once

enum SchemaVerdicts {
    /// The schema's verdict on each case, by label: every case written to a
    /// temporary folder and validated in one Python run.
    static let cases: Result<[String: SchemaVerdict], SchemaRunFailure> = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-schema-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = SchemaCase.table + SchemaBound.allCases
        var files: [URL] = []
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (i, example) in all.enumerated() {
                let file = folder.appendingPathComponent(String(format: "case-%04d.json", i))
                try Data(example.json.utf8).write(to: file)
                files.append(file)
            }
        } catch {
            return .failure(SchemaRunFailure(description: "could not write the cases to \(folder.path): \(error)"))
        }
        return Result { () throws(SchemaRunFailure) in
            let byFile = try SchemaValidator.validate(files)
            var byLabel: [String: SchemaVerdict] = [:]
            for (example, file) in zip(all, files) { byLabel[example.label] = byFile[file.path] }
            return byLabel
        }
    }()

    /// The bundled scenarios: every `scenarios/*.json` but the schema itself.
    static let bundledFiles: [URL] = ScenarioFixtures.jsonFiles(in: ScenarioFixtures.scenariosFolder)
        .filter { $0.lastPathComponent != "schema.json" }

    static let bundled: Result<[String: SchemaVerdict], SchemaRunFailure> = Result { () throws(SchemaRunFailure) in
        try SchemaValidator.validate(bundledFiles)
    }

    /// True when Python has no `jsonschema`: one test then fails saying how
    /// to install it, instead of every case failing with the same message.
    static var packageMissing: Bool {
        if case let .failure(failure) = cases { failure.packageMissing } else { false }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when the schema validator can run; otherwise
    /// "The schema is a valid Draft 2020-12 schema…" fails with the fix.
    static var needsJSONSchemaPackage: Self {
        .disabled(if: SchemaVerdicts.packageMissing, "Python's jsonschema package is missing: run scripts/bootstrap")
    }
}

/// Loads `json` with the real decoder and device profiles; the error if it is rejected.
private func decoderError(_ json: String, file: String) -> ScenarioError? {
    do {
        _ = try ScenarioFixtures.load(json, file: file)
        return nil
    } catch {
        return error
    }
}

// MARK: - Tests

@Suite("Scenario JSON Schema")
struct SchemaTests {
    @Test("scenarios/schema.json is the generator's output, byte for byte")
    func committedFileIsGenerated() throws {
        let committed = try String(contentsOf: SchemaValidator.schemaURL, encoding: .utf8)
        let generated = ScenarioSchema.text
        let line =
            zip(
                committed.split(separator: "\n", omittingEmptySubsequences: false),
                generated.split(separator: "\n", omittingEmptySubsequences: false)
            )
            .prefix { $0 == $1 }.count + 1
        #expect(
            committed == generated,
            """
            scenarios/schema.json is not the table's schema (first difference at line \(line)); regenerate it: \
            swift run feedsim schema > scenarios/schema.json
            """
        )
        #expect(generated.hasSuffix("}\n") && !generated.hasSuffix("\n\n"))
    }

    @Test("The schema is a valid Draft 2020-12 schema that Python's jsonschema can run")
    func validatorRuns() throws {
        // Validating no files still loads and checks the schema.
        _ = try SchemaValidator.validate([])
    }

    @Test(
        "Every bundled scenario validates against the schema and loads with feedsim", .needsJSONSchemaPackage,
        arguments: SchemaVerdicts.bundledFiles)
    func bundledScenario(_ url: URL) throws {
        let verdicts = try SchemaVerdicts.bundled.get()
        let verdict = try #require(verdicts[url.path])
        #expect(verdict.valid, "\(url.lastPathComponent): \(verdict.errors.joined(separator: "\n"))")
        #expect(throws: Never.self) { try ScenarioLoader.load(url: url, file: url.lastPathComponent) }
    }

    @Test("There are bundled scenarios to check")
    func bundledScenariosExist() {
        #expect(SchemaVerdicts.bundledFiles.count >= 10)
        #expect(!SchemaVerdicts.bundledFiles.contains { $0.path.contains("/devices/") })
    }

    @Test(
        "The decoder and the schema agree on each edit, or differ only as documented", .needsJSONSchemaPackage,
        arguments: SchemaCase.table)
    func agreement(_ example: SchemaCase) throws {
        try Self.check(example)
    }

    @Test(
        "Each bound of the table: just inside, both accept; just outside, both reject at the field",
        .needsJSONSchemaPackage,
        arguments: SchemaBound.allCases)
    func bound(_ example: SchemaCase) throws {
        try Self.check(example)
    }

    static func check(_ example: SchemaCase) throws {
        let verdict = try #require(try SchemaVerdicts.cases.get()[example.label], "no verdict for \(example.label)")
        let decoded = decoderError(example.json, file: "schema-case.json")
        let schemaSays = verdict.valid ? "schema accepts" : "schema rejects: \(verdict.errors.joined(separator: "; "))"
        let decoderSays = decoded.map { "decoder rejects: \($0)" } ?? "decoder accepts"
        let both = "\(decoderSays)\n\(schemaSays)\n\(example.json)"
        let description = ScenarioSchema.rootDescription

        switch example.expectation {
        case .rejectedByBoth:
            #expect(decoded != nil, "\(both)")
            #expect(!verdict.valid, "\(both)")
            #expect(
                verdict.errorPaths.contains(where: example.isAboutAnEdit),
                "the schema rejects the file, but not at an edited field: \(both)")
        case let .rejectedByBothAt(path, schemaPath):
            #expect(decoded?.path == path, "\(both)")
            #expect(verdict.errorPaths.contains(schemaPath), "\(both)")
        case .acceptedByBoth:
            #expect(decoded == nil, "\(both)")
            #expect(verdict.valid, "\(both)")
        case let .onlyDecoderRejects(rule):
            #expect(decoded != nil, "a known difference the decoder no longer rejects: \(both)")
            #expect(verdict.valid, "a known difference the schema now rejects (move it to the rejected table): \(both)")
            #expect(description.contains(rule), "the schema's description does not mention: \(rule)")
        case let .onlySchemaRejects(rule):
            #expect(decoded == nil, "\(both)")
            #expect(!verdict.valid, "\(both)")
            #expect(description.contains(rule), "the schema's description does not mention: \(rule)")
        case let .duplicateKey(path):
            #expect(decoded?.path == path, "\(both)")
            #expect(decoded?.expected.contains("expected each key once per object") == true, "\(both)")
            #expect(!verdict.valid, "\(both)")
            #expect(verdict.errors == ["\(path): duplicate key"], "\(both)")
        }
    }

    @Test("The table is large, distinct and covers every kind of case")
    func tableShape() {
        let table = SchemaCase.table + SchemaBound.allCases
        #expect(Set(table.map(\.label)).count == table.count)
        #expect(Set(SchemaCase.table.map(\.json)).count == SchemaCase.table.count)
        #expect(table.filter { $0.expectation == .rejectedByBoth }.count >= 25)
        #expect(table.filter { $0.expectation == .acceptedByBoth }.count >= 10)
        #expect(table.filter { if case .onlyDecoderRejects = $0.expectation { true } else { false } }.count >= 10)
        #expect(table.filter { if case .duplicateKey = $0.expectation { true } else { false } }.count >= 5)
    }

    @Test("Every object with a bounded field has a place in the scenario to probe it; every rule names a bounded field")
    func boundsCovered() {
        let bounded = Set(SchemaObjects.all.filter { $0.object.fields.contains(where: \.isBounded) }.map(\.label))
        #expect(bounded == Set(SchemaBound.placements.keys))
        for name in SchemaBound.exceptions.keys {
            let (label, field) = (
                String(name[..<name.lastIndex(of: ".")!]), String(name[name.index(after: name.lastIndex(of: ".")!)...])
            )
            #expect(SchemaObjects.named(label)?.fields.contains { $0.name == field && $0.isBounded } == true, "\(name)")
        }
        #expect(SchemaBound.all.count >= 90)
    }

    @Test(
        "An object's fields, with its base's and its branches', are exactly its decoder's keys",
        arguments: SchemaObjects.all.filter { !$0.object.isFragment }.map(\.label))
    func fieldsAreDecoderKeys(_ label: String) throws {
        let object = try #require(SchemaObjects.named(label))
        #expect(Set(object.allFieldNames) == Set(object.keyNames))
        #expect(Set(object.fields.map(\.name)).count == object.fields.count)
    }

    @Test("Every definition an object refers to is under `$defs`, once")
    func definitionsListed() {
        let listed = ScenarioSchema.definitions.compactMap(\.definition)
        let referred = SchemaObjects.all.compactMap(\.object.definition)
        #expect(listed.count == ScenarioSchema.definitions.count)
        #expect(Set(listed).count == listed.count)
        #expect(Set(listed) == Set(referred))
    }

    @Test("The top-level description lists what only feedsim checks")
    func knownDifferencesDocumented() {
        let description = ScenarioSchema.rootDescription
        #expect(description.contains("Also checked by feedsim"))
        for rule in [
            "device", "refresh_rates_hz", "max_simulated_s", "time order", "text_length", "critical_fraction",
            "check_under_s", "min_ms", "from_s", "variant names must be unique", "16 MiB", "byte-order mark",
            "10,000 steps", "1,000,000 posts", "give a key twice", "fit in `limits.max_events`",
        ] {
            #expect(description.contains(rule), "\(rule)")
        }
        #expect(description.contains("\(ScenarioLoader.maximumFileBytes / (1 << 20)) MiB"))
    }

    @Test("Every field has a title and a description for editors")
    func fieldsDocumented() {
        let fields = SchemaObjects.all.flatMap { label, object in object.fields.map { ("\(label).\($0.name)", $0) } }
        #expect(fields.count >= 100)
        let undocumented = fields.filter { $0.1.title.isEmpty || $0.1.description.count < 10 }.map(\.0)
        #expect(undocumented.isEmpty, "\(undocumented)")
    }

    @Test(
        """
        Every bounded field's description names its bounds, so a bound changed in the table cannot leave its text \
        behind
        """
    )
    func boundsInDescriptions() {
        /// A bound as descriptions write it: digits grouped by commas, a minus sign for negatives.
        func written(_ value: Double) -> String {
            guard value.rounded() == value, abs(value) < 1e15 else { return "\(value)" }
            let digits = String(Int64(abs(value)))
            var grouped = ""
            for (i, digit) in digits.enumerated() {
                if i > 0, (digits.count - i) % 3 == 0 { grouped.append(",") }
                grouped.append(digit)
            }
            return (value < 0 ? "\u{2212}" : "") + grouped
        }
        func bounds(_ kind: SchemaField.Kind) -> [Double] {
            switch kind {
            case let .integer(range): [Double(range.lowerBound), Double(range.upperBound)]
            case let .number(bounds): [bounds.lower, bounds.upper]
            case let .text(_, maxLength?): [Double(maxLength)]
            case let .oneOf(kinds): kinds.flatMap(bounds)
            case let .array(items): bounds(items.items.kind) + (items.first.map { bounds($0.kind) } ?? [])
            default: []
            }
        }
        var checked = 0
        for (label, object) in SchemaObjects.all {
            for field in object.fields {
                let values = bounds(field.kind)
                guard !values.isEmpty else { continue }
                checked += 1
                let missing = values.map(written).filter { !field.description.contains($0) }
                #expect(
                    missing.isEmpty,
                    "\(label).\(field.name): the description does not name \(missing): \(field.description)")
            }
        }
        #expect(checked >= 60)
    }

    @Test(
        """
        Every choice field's description explains every value it allows, so a new case (a built-in strategy, a \
        policy) cannot go undocumented
        """
    )
    func choicesInDescriptions() {
        var checked = 0
        for (label, object) in SchemaObjects.all {
            for field in object.fields {
                guard case let .choice(values) = field.kind else { continue }
                checked += 1
                let missing = values.compactMap { value -> String? in
                    switch value {
                    case let .string(text): text
                    case let .int(number): String(number)
                    default: nil
                    }
                }.filter { !field.description.contains($0) }
                #expect(missing.isEmpty, "\(label).\(field.name): the description does not explain \(missing)")
            }
        }
        #expect(checked >= 10)
    }
}
