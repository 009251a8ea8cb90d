import FeedScenario
import FeedSimTestSupport
import Foundation
import Testing

/// The package's own scenario folders, found from this file's location so the
/// tests read the profiles users run with, not copies.
enum ScenarioFixtures {
    static let packageRoot = PackageRoot.url
    static let scenariosFolder = packageRoot.appendingPathComponent("scenarios", isDirectory: true)
    static let devicesFolder = scenariosFolder.appendingPathComponent("devices", isDirectory: true)

    /// Loads `json` as a scenario file named `file`, resolving devices in `scenarios/devices/`.
    static func load(_ json: String, file: String = "test.json") throws(ScenarioError) -> LoadedScenario {
        try ScenarioLoader.load(data: Data(json.utf8), file: file, deviceDirectories: [devicesFolder])
    }

    /// The JSON files directly inside `folder`, sorted by name.
    static func jsonFiles(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }
}

@Suite("Scenario decoding")
struct ScenarioDecodingTests {
    @Test("A scenario that sets every field decodes to exactly those values")
    func everyField() throws {
        let loaded = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1,
              "name": "every_field-1",
              "description": "Sets every field the schema has.",
              "device": "iphone-pro-120hz",
              "refresh_rates_hz": [120, 60],
              "seed": 18446744073709551615,
              "duration_s": 2.5,
              "feed": { "post_count": 120, "text_length": { "min": 10, "max": 80 }, "media_fraction": 0.25 },
              "engine": { "estimated_item_height_pt": 180.5 },
              "limits": { "max_events": 5000, "max_simulated_s": 10 },
              "script": [
                { "at_ms": 0.5, "action": "fling", "velocity_pt_s": -3000, "deceleration": "fast" },
                { "at_ms": 100, "action": "drag", "distance_pt": 250, "duration_ms": 120.5, "release": "stop", \
            "deceleration": "normal" },
                { "at_ms": 400, "action": "drag", "trajectory": [ { "t_ms": 0, "dy_pt": 0 }, { "t_ms": 16.25, "dy_pt": \
            -40.5 } ] },
                { "at_ms": 2000, "action": "fling", "velocity_pt_s": 1500, "repeat": { "count": 2, "every_ms": 250 } }
              ]
            }
            """, file: "every-field.json")

        #expect(loaded.file == "every-field.json")
        #expect(loaded.device.name == "iphone-pro-120hz")
        #expect(loaded.refreshRates == [120, 60])
        let scenario = loaded.scenario
        #expect(scenario.name == "every_field-1")
        #expect(scenario.description == "Sets every field the schema has.")
        #expect(scenario.device == "iphone-pro-120hz")
        #expect(scenario.refreshRatesHz == [120, 60])
        #expect(scenario.seed == UInt64.max)
        #expect(scenario.durationNs == 2_500_000_000)
        #expect(scenario.feed == FeedSettings(postCount: 120, textLength: 10...80, mediaFraction: 0.25))
        #expect(scenario.engine == EngineSettings(estimatedItemHeightPt: 180.5))
        #expect(scenario.limits == RunLimits(maxEvents: 5000, maxSimulatedNs: 10_000_000_000))
        #expect(
            scenario.expandedScript == [
                ScriptStep(atNs: 500_000, action: .fling(velocityPtPerS: -3000, deceleration: .fast)),
                ScriptStep(
                    atNs: 100_000_000,
                    action: .drag(
                        trajectory: [
                            TrajectoryPoint(timeNs: 0, displacementPt: 0),
                            TrajectoryPoint(timeNs: 120_500_000, displacementPt: 250),
                        ],
                        release: .stop, deceleration: .normal)),
                ScriptStep(
                    atNs: 400_000_000,
                    action: .drag(
                        trajectory: [
                            TrajectoryPoint(timeNs: 0, displacementPt: 0),
                            TrajectoryPoint(timeNs: 16_250_000, displacementPt: -40.5),
                        ],
                        release: .fling, deceleration: .normal)),
                ScriptStep(atNs: 2_000_000_000, action: .fling(velocityPtPerS: 1500, deceleration: .normal)),
                ScriptStep(atNs: 2_250_000_000, action: .fling(velocityPtPerS: 1500, deceleration: .normal)),
            ])
    }

    @Test("Optional fields take their documented defaults when absent")
    func defaults() throws {
        let loaded = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1,
              "name": "minimal",
              "description": "Only the required fields.",
              "device": "iphone-60hz",
              "duration_s": 1,
              "feed": { "post_count": 0 }
            }
            """)
        let scenario = loaded.scenario
        #expect(scenario.seed == 1)
        #expect(scenario.refreshRatesHz.isEmpty)
        #expect(loaded.refreshRates == [60], "no rates listed runs at the device's own rate")
        #expect(scenario.engine.estimatedItemHeightPt == 200)
        #expect(scenario.limits.maxEvents == 2_000_000)
        #expect(scenario.limits.maxSimulatedNs == 3_600_000_000_000)
        #expect(scenario.feed.postCount == 0)
        #expect(scenario.feed.textLength == 0...300)
        #expect(scenario.feed.mediaFraction == 0.4)
        #expect(scenario.script.isEmpty)

        #expect(EngineSettings.defaults == EngineSettings(estimatedItemHeightPt: 200))
        #expect(RunLimits.defaults == RunLimits(maxEvents: 2_000_000, maxSimulatedNs: 3_600_000_000_000))
        #expect(FeedSettings.defaultTextLength == 0...300)
        #expect(FeedSettings.defaultMediaFraction == 0.4)
    }

    @Test("Empty engine and limits objects also take the defaults")
    func emptySectionsTakeDefaults() throws {
        let scenario = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1, "name": "empty-sections", "description": "Empty objects.",
              "device": "iphone-60hz", "duration_s": 1, "feed": { "post_count": 3 },
              "engine": {}, "limits": {}, "script": []
            }
            """
        ).scenario
        #expect(scenario.engine == .defaults)
        #expect(scenario.limits == .defaults)
        #expect(scenario.script.isEmpty)
    }

    @Test("A device with a 120 Hz display runs at 120 Hz when no rates are listed")
    func deviceRateIsTheDefault() throws {
        let loaded = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1, "name": "pro", "description": "No rates.",
              "device": "iphone-pro-120hz", "duration_s": 1, "feed": { "post_count": 3 }
            }
            """)
        #expect(loaded.refreshRates == [120])
    }

    struct RepeatCase: Sendable, CustomTestStringConvertible {
        var atMs: String
        var count: Int
        var everyMs: String
        var expectedNs: [Int64]
        var testDescription: String { "at \(atMs) ms, \(count) × every \(everyMs) ms" }
    }

    @Test(
        "`repeat` expands one step into `count` steps, `every_ms` apart",
        arguments: [
            RepeatCase(atMs: "500", count: 1, everyMs: "400", expectedNs: [500_000_000]),
            RepeatCase(atMs: "500", count: 3, everyMs: "400", expectedNs: [500_000_000, 900_000_000, 1_300_000_000]),
            RepeatCase(atMs: "0", count: 4, everyMs: "0.5", expectedNs: [0, 500_000, 1_000_000, 1_500_000]),
            RepeatCase(atMs: "0.25", count: 2, everyMs: "1000.125", expectedNs: [250_000, 1_000_375_000]),
        ])
    func repeatExpands(_ example: RepeatCase) throws {
        let scenario = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1, "name": "repeat", "description": "One repeated fling, then one more.",
              "device": "iphone-60hz", "duration_s": 10, "feed": { "post_count": 10 },
              "script": [
                { "at_ms": \(example.atMs), "action": "fling", "velocity_pt_s": 800,
                  "repeat": { "count": \(example.count), "every_ms": \(example.everyMs) } },
                { "at_ms": 9000, "action": "fling", "velocity_pt_s": -800 }
              ]
            }
            """
        ).scenario
        let repeated = ScriptAction.fling(velocityPtPerS: 800, deceleration: .normal)
        let expected =
            example.expectedNs.map { ScriptStep(atNs: $0, action: repeated) }
            + [ScriptStep(atNs: 9_000_000_000, action: .fling(velocityPtPerS: -800, deceleration: .normal))]
        #expect(scenario.expandedScript == expected)
        #expect(scenario.expandedScript.allSatisfy { $0.repeatCount == 1 && $0.repeatEveryNs == 0 })
        // The script keeps the step as written, one step.
        #expect(scenario.script.count == 2 && scenario.script[0].repeatCount == example.count)
    }

    @Test("A repeated drag repeats its whole trajectory at each start time")
    func repeatedDrag() throws {
        let scenario = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1, "name": "repeat-drag", "description": "A drag three times.",
              "device": "iphone-60hz", "duration_s": 5, "feed": { "post_count": 10 },
              "script": [
                { "at_ms": 1000, "action": "drag", "distance_pt": 320, "duration_ms": 700, "release": "stop",
                  "repeat": { "count": 3, "every_ms": 700 } }
              ]
            }
            """
        ).scenario
        let drag = ScriptAction.drag(
            trajectory: [
                TrajectoryPoint(timeNs: 0, displacementPt: 0),
                TrajectoryPoint(timeNs: 700_000_000, displacementPt: 320),
            ],
            release: .stop, deceleration: .normal)
        #expect(
            scenario.expandedScript
                == [1_000_000_000, 1_700_000_000, 2_400_000_000].map { ScriptStep(atNs: $0, action: drag) })
    }

    @Test("Repetitions interleave with later steps in time order, ties in file order")
    func repetitionsInterleave() throws {
        let scenario = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1, "name": "interleave", "description": "A repeated fling with other steps between.",
              "device": "iphone-60hz", "duration_s": 2, "feed": { "post_count": 10 },
              "script": [
                { "at_ms": 100, "action": "fling", "velocity_pt_s": 1000, "repeat": { "count": 3, "every_ms": 300 } },
                { "at_ms": 400, "action": "fling", "velocity_pt_s": -2000 },
                { "at_ms": 500, "action": "fling", "velocity_pt_s": 3000 }
              ]
            }
            """
        ).scenario
        #expect(
            scenario.expandedScript.map(\.atNs) == [100_000_000, 400_000_000, 400_000_000, 500_000_000, 700_000_000])
        #expect(
            scenario.expandedScript.map(\.action)
                == [1000, 1000, -2000, 3000, 1000].map {
                    ScriptAction.fling(velocityPtPerS: $0, deceleration: .normal)
                })
    }

    @Test("ScriptStep.expanded and lastNs agree with the repeat fields")
    func expandedStep() {
        let step = ScriptStep(
            atNs: 10, action: .fling(velocityPtPerS: 1, deceleration: .fast), repeatCount: 3, repeatEveryNs: 5)
        #expect(step.lastNs == 20)
        #expect(step.expanded.map(\.atNs) == [10, 15, 20])
        #expect(step.expanded.allSatisfy { $0.action == step.action && $0.repeatCount == 1 })
    }

    @Test("A drag given as distance and duration becomes a two-point trajectory; release defaults to fling")
    func distanceDrag() throws {
        let scenario = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1, "name": "distance-drag", "description": "A constant-speed drag upwards.",
              "device": "iphone-60hz", "duration_s": 2, "feed": { "post_count": 10 },
              "script": [ { "at_ms": 1, "action": "drag", "distance_pt": -123.5, "duration_ms": 0.75 } ]
            }
            """
        ).scenario
        #expect(
            scenario.script == [
                ScriptStep(
                    atNs: 1_000_000,
                    action: .drag(
                        trajectory: [
                            TrajectoryPoint(timeNs: 0, displacementPt: 0),
                            TrajectoryPoint(timeNs: 750_000, displacementPt: -123.5),
                        ],
                        release: .fling, deceleration: .normal))
            ])
    }

    @Test("A trajectory drag keeps every point, times in nanoseconds")
    func trajectoryDrag() throws {
        let scenario = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1, "name": "trajectory-drag", "description": "Pull past the top, then let go.",
              "device": "iphone-60hz", "duration_s": 2, "feed": { "post_count": 10 },
              "script": [
                { "at_ms": 1000, "action": "drag", "release": "stop", "deceleration": "fast",
                  "trajectory": [ { "t_ms": 0, "dy_pt": 0 }, { "t_ms": 8.5, "dy_pt": -20 }, { "t_ms": 200, "dy_pt": \
            -120 },
                                  { "t_ms": 400.001, "dy_pt": -180.25 } ] }
              ]
            }
            """
        ).scenario
        #expect(
            scenario.script == [
                ScriptStep(
                    atNs: 1_000_000_000,
                    action: .drag(
                        trajectory: [
                            TrajectoryPoint(timeNs: 0, displacementPt: 0),
                            TrajectoryPoint(timeNs: 8_500_000, displacementPt: -20),
                            TrajectoryPoint(timeNs: 200_000_000, displacementPt: -120),
                            TrajectoryPoint(timeNs: 400_001_000, displacementPt: -180.25),
                        ],
                        release: .stop, deceleration: .fast))
            ])
    }

    struct DurationCase: Sendable, CustomTestStringConvertible {
        var durationS: String
        var atMs: String
        var expectedDurationNs: Int64
        var expectedAtNs: Int64
        var testDescription: String { "duration_s \(durationS), at_ms \(atMs)" }
    }

    @Test(
        "Seconds and milliseconds convert to integer nanoseconds, rounded to the nearest",
        arguments: [
            DurationCase(durationS: "1", atMs: "0", expectedDurationNs: 1_000_000_000, expectedAtNs: 0),
            DurationCase(durationS: "0.001", atMs: "0.000001", expectedDurationNs: 1_000_000, expectedAtNs: 1),
            DurationCase(
                durationS: "1.5", atMs: "1499.9999994", expectedDurationNs: 1_500_000_000, expectedAtNs: 1_499_999_999),
            DurationCase(
                durationS: "60", atMs: "59999.0000006", expectedDurationNs: 60_000_000_000, expectedAtNs: 59_999_000_001
            ),
            DurationCase(
                durationS: "3600", atMs: "1e3", expectedDurationNs: 3_600_000_000_000, expectedAtNs: 1_000_000_000),
        ])
    func timeConversion(_ example: DurationCase) throws {
        let scenario = try ScenarioFixtures.load(
            """
            {
              "schema_version": 1, "name": "times", "description": "Unit conversion.",
              "device": "iphone-60hz", "duration_s": \(example.durationS), "feed": { "post_count": 1 },
              "script": [ { "at_ms": \(example.atMs), "action": "fling", "velocity_pt_s": 100 } ]
            }
            """
        ).scenario
        #expect(scenario.durationNs == example.expectedDurationNs)
        #expect(scenario.script.map(\.atNs) == [example.expectedAtNs])
    }

    @Test(
        "The example scenarios shipped in scenarios/ load",
        arguments: ScenarioFixtures.jsonFiles(in: ScenarioFixtures.scenariosFolder).filter {
            $0.lastPathComponent != "schema.json"
        })
    func shippedScenarioLoads(_ url: URL) throws {
        let loaded = try ScenarioLoader.load(url: url, file: url.lastPathComponent)
        #expect(loaded.file == url.lastPathComponent)
        #expect(!loaded.refreshRates.isEmpty)
    }
}

@Suite("Device profiles")
struct DeviceProfileTests {
    struct DeviceCase: Sendable, CustomTestStringConvertible {
        var name: String
        var maxRefreshHz: Double
        var supportedRates: [Int]
        var screenWidthPt: Double
        var testDescription: String { name }
    }

    @Test(
        "The shipped device profiles decode",
        arguments: [
            DeviceCase(name: "iphone-60hz", maxRefreshHz: 60, supportedRates: [60], screenWidthPt: 390),
            DeviceCase(name: "iphone-pro-120hz", maxRefreshHz: 120, supportedRates: [60, 120], screenWidthPt: 393),
        ])
    func shippedProfileDecodes(_ example: DeviceCase) throws {
        let url = ScenarioFixtures.devicesFolder.appendingPathComponent("\(example.name).json")
        let profile = try JSONDecoder().decode(DeviceProfile.self, from: Data(contentsOf: url))
        #expect(profile.name == example.name)
        #expect(!profile.description.isEmpty)
        #expect(profile.maxRefreshHz.value == example.maxRefreshHz)
        #expect(profile.supportedRefreshRates == example.supportedRates)
        #expect(profile.screenWidthPt.value == example.screenWidthPt)
        #expect(profile.costs.frameBase.value > 0)
        #expect(profile.costs.cellMeasure.value > profile.costs.offsetQuery.value)
        #expect(profile.safeAreaTopPt.value + profile.safeAreaBottomPt.value < profile.screenHeightPt.value / 2)
    }

    @Test("There are device profiles to check")
    func profilesExist() {
        #expect(ScenarioFixtures.jsonFiles(in: ScenarioFixtures.devicesFolder).count >= 2)
    }

    @Test(
        "Every number in a device profile carries a non-empty rationale",
        arguments: ScenarioFixtures.jsonFiles(in: ScenarioFixtures.devicesFolder))
    func everyNumberHasRationale(_ url: URL) throws {
        let profile = try JSONDecoder().decode(DeviceProfile.self, from: Data(contentsOf: url))
        let rated = Self.ratedValues(in: profile)
        // max refresh, four screen measures, ten flat costs, five content-aware
        // and four render-server costs, the background result's cost, the
        // jitter's σ, the background cores and their speed, and the four
        // costs of quoted records and external cards.
        #expect(rated.count == 32)
        for (label, value) in rated {
            #expect(
                !value.rationale.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                "\(url.lastPathComponent): \(label)")
        }

        // The same in the raw file, so a number the decoder skipped is caught too.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let bare = Self.numbersWithoutRationale(json, path: "$").filter { $0 != "$.schema_version" }
        #expect(bare.isEmpty, "\(url.lastPathComponent): numbers without a rationale at \(bare)")
    }

    /// Every `Rated` reachable from `value`, labelled with its property path.
    static func ratedValues(in value: Any, path: String = "") -> [(String, Rated)] {
        if let rated = value as? Rated { return [(path, rated)] }
        return Mirror(reflecting: value).children.flatMap { child in
            ratedValues(in: child.value, path: path + "." + (child.label ?? "?"))
        }
    }

    /// JSON paths of numbers that are not the `value` of an object with a non-empty `rationale`.
    static func numbersWithoutRationale(_ json: Any, path: String) -> [String] {
        if let object = json as? [String: Any] {
            let explained =
                (object["rationale"] as? String).map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? false
            return object.keys.sorted().flatMap { key -> [String] in
                if key == "value", explained, object[key] is NSNumber { return [] }
                return numbersWithoutRationale(object[key]!, path: "\(path).\(key)")
            }
        }
        if let array = json as? [Any] {
            return array.enumerated().flatMap { numbersWithoutRationale($1, path: "\(path)[\($0)]") }
        }
        // A switch (`true`/`false`) is a setting, not a number to explain.
        guard let number = json as? NSNumber, String(cString: number.objCType) != "c" else { return [] }
        return [path]
    }
}
