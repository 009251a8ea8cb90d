import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// `scroll_to` with `into_post_pt`: the reader's place within a post, to
/// the point, which a repro needs when a failure rests on it, and which
/// each frame records (`pointsIntoFirstRow`).
@Suite("Scrolling into a post")
struct ScrollIntoPostTests {
    /// The last frame of a run whose only step is `step`, over a feed of
    /// 200 posts of fixed height, so that nothing is re-measured after it.
    static func restingFrame(_ step: String) throws -> FrameRecord {
        let json = """
            {"schema_version": 1, "name": "into", "description": "d", "device": "iphone-60hz", "seed": 3, \
            "duration_s": 3,
             "feed": {"post_count": 200, "media_fraction": 0}, "engine": {"estimated_item_height_pt": 100},
             "variants": [{"name": "anchor", "position_strategy": "anchor"}],
             "script": [{"at_ms": 500, "action": "scroll_to", \(step)}]}
            """
        let loaded = try ScenarioLoader.load(
            data: Data(json.utf8), file: "into.json", deviceDirectories: [CustomStrategyTests.devices])
        let request = try #require(RunRequest.expand(loaded, seedOverride: nil, recordFrames: true).first)
        return try #require(try Simulation(request: request).run().frames.last)
    }

    @Test(
        """
        a scroll into a post rests that many points further than one to its top, and frames record how far into \
        the first row the reader is
        """
    )
    func intoPost() throws {
        let top = try Self.restingFrame(#""post_index": 40"#)
        let into = try Self.restingFrame(#""post_index": 40, "into_post_pt": 37"#)
        #expect(
            abs(into.contentOffset - top.contentOffset - 37) < 0.001, "\(top.contentOffset) → \(into.contentOffset)")
        #expect(into.visible.lowerBound == top.visible.lowerBound)
        #expect(
            abs(into.pointsIntoFirstRow - top.pointsIntoFirstRow - 37) < 0.001,
            "\(top.pointsIntoFirstRow) → \(into.pointsIntoFirstRow)")
        // The place a frame records is where a jump into that row puts the reader again.
        let again = try Self.restingFrame(
            #""post_index": \#(into.visible.lowerBound), "into_post_pt": \#(into.pointsIntoFirstRow)"#)
        #expect(abs(again.contentOffset - into.contentOffset) < 0.001, "\(into.contentOffset) → \(again.contentOffset)")
    }
}
