import FeedEngine
import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// An animated scroll to a post the host has not laid out
/// (docs/swiftui-hosts.md, "Programmatic scrolling"; "S321" is WWDC26
/// session 321). A feed of 300 text posts estimated at 100 pt, most of them
/// taller, and an animated `scroll_to` post 120 from the top: the rows the
/// animation passes are measured on the way, and the post moves.
@Suite("Programmatic scrolling to rows never laid out")
struct ProgrammaticScrollTests {
    /// Where post 120's top rests, below the top of the readable area, in
    /// points, after the scroll.
    static func landing(host: String, strategy: String) throws -> Double {
        let json = """
            {"schema_version": 1, "name": "scroll-to", "description": "d", "device": "iphone-60hz", "seed": 3, \
            "duration_s": 4,
             "feed": {"post_count": 300, "media_fraction": 0, "text_length": {"min": 200, "max": 600}},
             "engine": {"estimated_item_height_pt": 100, "host": "\(host)", "position_strategy": "\(strategy)"},
             "script": [{"at_ms": 1000, "action": "scroll_to", "post_index": 120, "animated": true}]}
            """
        let loaded = try ScenarioLoader.load(
            data: Data(json.utf8), file: "scroll-to.json", deviceDirectories: [CustomStrategyTests.devices])
        let request = try #require(RunRequest.expand(loaded, seedOverride: nil, recordFrames: true).first)
        let simulation = try Simulation(request: request)
        _ = try simulation.run()
        let list = simulation.engine.listView
        return list.minY(of: 120) - (simulation.scrollView.contentOffset + simulation.scrollView.insetTop)
    }

    @Test(
        """
        a lazy stack re-estimates the target at every frame of an animated scroll and lands on the post (S321 \
        18:10–18:19)
        """,
        arguments: ["swiftui_default", "scroll_position_id"])
    func lazyStackLandsOnThePost(strategy: String) throws {
        let landed = try Self.landing(host: "lazy_vstack", strategy: strategy)
        #expect(abs(landed) < 1, "post 120 rests \(landed) pt from the top")
    }

    @Test(
        """
        a collection view's animated scroll goes to the offset it estimated at the start, and the post lands \
        elsewhere (UIKit's setContentOffset animates to a fixed offset)
        """
    )
    func collectionViewLandsWhereItEstimated() throws {
        let landed = try Self.landing(host: "collection_view", strategy: "anchor")
        #expect(abs(landed) > 100, "post 120 rests \(landed) pt from the top")
    }
}
