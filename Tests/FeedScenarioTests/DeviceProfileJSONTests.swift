import Foundation
import Testing

@testable import FeedScenario

/// Profiles written back as JSON read back equal, in the bundled layout.
@Suite("Device profile JSON")
struct DeviceProfileJSONTests {
    static let devices = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios/devices", isDirectory: true)

    @Test(
        "each bundled profile is written back byte for byte",
        arguments: ["iphone-60hz", "iphone-pro-120hz", "iphone-pro-120hz-promotion"])
    func bundled(_ name: String) throws {
        let text = try String(
            contentsOf: DeviceProfileJSONTests.devices.appendingPathComponent("\(name).json"), encoding: .utf8)
        let profile = try ScenarioLoader.device(from: Data(text.utf8), file: "\(name).json")
        #expect(profile.jsonText == text)
    }

    @Test("strings that need escaping, fractions and adaptive refresh survive the round trip")
    func escaping() throws {
        let text = try String(
            contentsOf: DeviceProfileJSONTests.devices.appendingPathComponent("iphone-pro-120hz.json"), encoding: .utf8)
        var profile = try ScenarioLoader.device(from: Data(text.utf8), file: "p.json")
        profile.description = "Quote \" backslash \\ tab \t line\nbreak, bell \u{7} and µ×"
        profile.adaptiveRefresh = true
        profile.costs.offsetQuery = Rated(value: 976.3, rationale: "fitted")
        profile.costs.diffElement = Rated(value: 0.000125, rationale: "tiny")
        let loaded = try ScenarioLoader.device(from: Data(profile.jsonText.utf8), file: "p.json")
        #expect(loaded == profile)
    }

    @Test("the writer lists every key the decoder reads, once")
    func everyKey() {
        #expect(CostTable.fields.map(\.key) == CostTable.Keys.allCases)
    }
}
