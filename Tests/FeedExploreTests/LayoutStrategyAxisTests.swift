import FeedEngine
import FeedScenario
import FeedSimulator
import Foundation
import Testing

@testable import FeedExplore

/// Explore over layout strategies: an axis like the prefetch policies, and
/// the property that holds a precomputed height to the main thread's measure.
@Suite("Layout strategies in explore")
struct LayoutStrategyAxisTests {
    @Test("layout_strategies runs every variant once per layout strategy, named <variant>-<layout strategy>")
    func axis() throws {
        let config = try ScenarioLoader.exploreConfig(
            from: Data(
                #"{"strategies": ["none", "anchor"], "layout_strategies": ["self_sizing", "async_display"]}"#.utf8),
            file: "x.json")
        #expect(
            config.variantNames == [
                "none-self_sizing", "none-async_display", "anchor-self_sizing", "anchor-async_display",
            ])
        let session = SessionGenerator(config: config, device: try ExploreFixtures.device(), seed: 5).session(3)
        #expect(session.variants.map(\.name) == config.variantNames)
        #expect(
            session.variants.map(\.engine.layoutStrategy.name) == [
                "self_sizing", "async_display", "self_sizing", "async_display",
            ])
    }

    @Test("an unknown layout strategy, a repeated one or one set in engine besides the axis is refused with its path")
    func refused() {
        for (text, path) in [
            (#"{"layout_strategies": ["magic"]}"#, "$.layout_strategies[0]"),
            (#"{"layout_strategies": ["precomputed", "precomputed"]}"#, "$.layout_strategies"),
            (
                #"{"layout_strategies": ["precomputed"], "engine": {"layout_strategy": "self_sizing"}}"#,
                "$.engine.layout_strategy"
            ),
        ] {
            #expect {
                try ScenarioLoader.exploreConfig(from: Data(text.utf8), file: "x.json")
            } throws: { error in
                "\(error)".contains(path)
            }
        }
    }

    @Test("precomputed_height: a run whose precomputed heights differ from measuring the rows breaks the property")
    func property() throws {
        var result = try #require(try Self.anyRun())
        #expect(Violation.precomputedHeights(in: result).isEmpty)
        result.offMain.heightsApplied = 40
        result.offMain.heightMismatches = 3
        result.offMain.firstMismatch = "row 7 got a precomputed height of 120.0 pt where measuring it gives 140.0 pt"
        let violations = Violation.precomputedHeights(in: result)
        #expect(violations.map(\.property) == [.precomputedHeight])
        #expect(violations.first?.detail.contains("3 of 40") == true)
        #expect(ExploreProperty.precomputedHeight.rawValue == "precomputed_height")
    }

    /// A short run of a drawn session, to hold a real result.
    static func anyRun() throws -> RunResult? {
        let device = try ExploreFixtures.device()
        let session = SessionGenerator(config: .defaults, device: device, seed: 1).session(0)
        let loaded = LoadedScenario(file: "s.json", scenario: session, device: device)
        guard let request = RunRequest.expand(loaded, seedOverride: nil, recordFrames: false).first else { return nil }
        return try Simulation(request: request).run()
    }
}
