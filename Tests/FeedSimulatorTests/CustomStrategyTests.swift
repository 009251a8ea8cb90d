import FeedEngine
import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// A strategy some apps ship: after any batch update the feed jumps back to
/// its top, so the reader always sees the newest posts first. Defined here,
/// outside the engine, to show a strategy is a type anyone can add.
struct JumpToTopKeeper: PositionKeeper {
    static let name = "jump_to_top"

    func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        // Clamped by the engine to the top of the content.
        PlaceOutcome(.moveOffset(to: -.greatestFiniteMagnitude))
    }

    func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        .moveOffset(to: -.greatestFiniteMagnitude)
    }
}

@Suite("A position strategy defined outside the engine")
struct CustomStrategyTests {
    static let devices = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios/devices", isDirectory: true)

    static func scenario(strategy: String) -> String {
        """
        { "schema_version": 1, "name": "custom-keeper", "description": "d", "device": "iphone-60hz", "duration_s": 4,
          "feed": { "post_count": 100, "item_height_pt": 100 },
          "engine": { "estimated_item_height_pt": 100, "position_strategy": "\(strategy)" },
          "script": [
            { "at_ms": 500, "action": "scroll_to", "offset_pt": 1500 },
            { "at_ms": 1000, "action": "new_posts", "count": 2 }
          ] }
        """
    }

    @Test("registered by name, chosen by a scenario's position_strategy, and used by the engine")
    func registeredAndChosen() throws {
        PositionStrategy.register(PositionStrategy(JumpToTopKeeper.self))
        #expect(PositionStrategy.known.map(\.name).last == "jump_to_top")
        let loaded = try ScenarioLoader.load(
            data: Data(CustomStrategyTests.scenario(strategy: "jump_to_top").utf8), file: "custom.json",
            deviceDirectories: [CustomStrategyTests.devices])
        #expect(loaded.scenario.engine.positionStrategy.name == "jump_to_top")

        let request = try #require(RunRequest.expand(loaded, seedOverride: nil, recordFrames: true).first)
        let result = try Simulation(request: request).run()
        let record = try #require(result.drift.first { $0.cause == "new_posts" })
        let frame = try #require(result.frames.first { $0.time == record.time })
        #expect(frame.contentOffset == -47, "back at the top, under the 47 pt inset")
        #expect(
            record.beforeY == 47 && record.afterY == 47 + 200 + 1_500, "the old anchor moved down by 1,500 + 200 pt")
    }

    @Test("an unknown strategy name is rejected with the names that are known")
    func unknownName() {
        let error = #expect(throws: ScenarioError.self) {
            try ScenarioLoader.load(
                data: Data(CustomStrategyTests.scenario(strategy: "teleport").utf8), file: "custom.json",
                deviceDirectories: [CustomStrategyTests.devices])
        }
        #expect(error?.path == "$.engine.position_strategy")
        #expect(
            error?.expected.contains(#""none", "index_restore", "offset_adjust", "anchor", "virtual_space""#) == true)
    }
}
