import FeedEngine
import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// `default_anchor_bottom`: SwiftUI's `.defaultScrollAnchor(.bottom)` (for
/// `.sizeChanges` from iOS 18) with no scroll position bound
/// (docs/swiftui-hosts.md, "Updates by identity"). Apple's documentation
/// says only that the anchor is used for content size changes; developers
/// who measured it report that the bottom is kept only while the last row
/// is on screen, and the top otherwise.
@Suite("defaultScrollAnchor(.bottom)")
struct DefaultScrollAnchorTests {
    /// How far each change of `cause` moved the reader, per variant, in a
    /// lazy stack under SwiftUI's default and with the bottom anchor.
    static func moved(
        _ cause: ChangeCause, feed: String, server: String = "", script: String
    ) throws -> [String: [Double]] {
        let json = """
            {"schema_version": 1, "name": "bottom", "description": "d", "device": "iphone-60hz", "seed": 3, \
            "duration_s": 8,
             "feed": {\(feed), "media_fraction": 0}, "network": {"profile": "wifi"}\(server),
             "engine": {"estimated_item_height_pt": 100, "host": "lazy_vstack"},
             "variants": [{"name": "default", "position_strategy": "swiftui_default"},
                          {"name": "bottom", "position_strategy": "default_anchor_bottom"}],
             "script": [\(script)]}
            """
        let loaded = try ScenarioLoader.load(
            data: Data(json.utf8), file: "bottom.json", deviceDirectories: [CustomStrategyTests.devices])
        var moved: [String: [Double]] = [:]
        for request in RunRequest.expand(loaded, seedOverride: nil, recordFrames: false) {
            let drift = try Simulation(request: request).run().drift
            moved[request.variant] = drift.filter { $0.cause == cause.rawValue }.compactMap { record in
                record.afterY.map { $0 - record.beforeY }
            }
        }
        return moved
    }

    @Test(
        """
        at the end of the feed, new posts above keep the reader where they are under the bottom anchor, and move \
        them under the default
        """
    )
    func newPostsAtTheEnd() throws {
        let moved = try Self.moved(
            .newPosts, feed: #""post_count": 60"#,
            script: """
                {"at_ms": 1000, "action": "scroll_to", "offset_pt": 100000, "repeat": {"count": 3, "every_ms": 500}},
                {"at_ms": 3000, "action": "new_posts", "count": 3, "delivery": "push"}
                """)
        #expect(moved["bottom"]?.count == 1 && moved["bottom"]!.allSatisfy { abs($0) < 1 }, "\(moved)")
        #expect(moved["default"]?.count == 1 && moved["default"]!.allSatisfy { $0 > 100 }, "\(moved)")
    }

    @Test(
        """
        away from the end, the bottom anchor keeps the top as the default does: new posts above move the reader \
        under both
        """
    )
    func newPostsAwayFromTheEnd() throws {
        let moved = try Self.moved(
            .newPosts, feed: #""post_count": 60"#,
            script: """
                {"at_ms": 1000, "action": "scroll_to", "offset_pt": 1500},
                {"at_ms": 3000, "action": "new_posts", "count": 3, "delivery": "push"}
                """)
        #expect(moved["bottom"] == moved["default"], "\(moved)")
        #expect(moved["bottom"]?.count == 1 && moved["bottom"]!.allSatisfy { $0 > 100 }, "\(moved)")
    }

    @Test(
        """
        a page appended while the last row shows keeps the last row in view under the bottom anchor: the reader \
        is carried a page on; the default leaves them
        """
    )
    func pageAtTheEnd() throws {
        // The server takes 2 s to answer: the reader is at the end, jumped
        // there again as the rows measured on the way grew the content,
        // when the page comes.
        let moved = try Self.moved(
            .append, feed: #""post_count": 200, "page_size": 20"#, server: #", "server": {"latency_ms": 2000}"#,
            script: """
                {"at_ms": 2500, "action": "scroll_to", "offset_pt": 100000, "repeat": {"count": 3, "every_ms": 300}}
                """)
        #expect(moved["default"]?.allSatisfy { abs($0) < 1 } == true, "\(moved)")
        #expect(moved["bottom"]?.contains { $0 < -100 } == true, "\(moved)")
    }
}
