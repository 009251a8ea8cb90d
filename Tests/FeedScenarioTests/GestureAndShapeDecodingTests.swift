import FeedScenario
import Foundation
import Testing

/// Item heights and the actions that put the reader at an exact place, hold
/// a pull, and shrink the feed.
@Suite("Item heights, scroll_to, pull and remove_posts")
struct GestureAndShapeDecodingTests {
    static func scenario(feed: String = #"{ "post_count": 20 }"#, step: String) throws -> Scenario {
        try ScenarioFixtures.load(
            """
            { "schema_version": 1, "name": "shapes", "description": "d", "device": "iphone-60hz", "duration_s": 10,
              "feed": \(feed), "script": [ \(step) ] }
            """
        ).scenario
    }

    static let valid: [(feed: String, step: String, expected: ScriptAction?, height: ItemHeight)] = [
        (#"{ "post_count": 20, "item_height_pt": 100 }"#, #"{ "at_ms": 0, "action": "like" }"#, .like, .fixed(100)),
        (
            #"{ "post_count": 20, "item_height_pt": { "min": 60, "max": 240.5 } }"#,
            #"{ "at_ms": 0, "action": "like" }"#, .like, .uniform(60...240.5)
        ),
        (
            #"{ "post_count": 20, "item_height_pt": { "min": 90, "max": 90 } }"#, #"{ "at_ms": 0, "action": "like" }"#,
            .like, .fixed(90)
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "scroll_to", "offset_pt": 1000 }"#,
            .scrollTo(target: .offset(1_000), animated: false), .content
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "scroll_to", "post_index": 12, "animated": true }"#,
            .scrollTo(target: .post(index: 12), animated: true), .content
        ),
        (
            #"{ "post_count": 20 }"#,
            #"{ "at_ms": 5, "action": "scroll_to", "post_index": 12, "into_post_pt": -20.5 }"#,
            .scrollTo(target: .intoPost(index: 12, pointsIn: -20.5), animated: false), .content
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "scroll_to", "post_index": 12, "into_post_pt": 0 }"#,
            .scrollTo(target: .post(index: 12), animated: false), .content
        ),
        (
            #"{ "post_count": 20 }"#,
            #"{ "at_ms": 5, "action": "pull", "distance_pt": 100, "duration_ms": 300, "hold_ms": 2000 }"#,
            .pull(distancePt: 100, durationNs: 300_000_000, holdNs: 2_000_000_000), .content
        ),
        (
            #"{ "post_count": 20 }"#,
            #"{ "at_ms": 5, "action": "remove_posts", "count": 3, "where": "around_reader" }"#,
            .removePosts(count: 3, place: .aroundReader, push: true), .content
        ),
        (
            #"{ "post_count": 20 }"#,
            #"{ "at_ms": 5, "action": "remove_posts", "count": 1, "where": "bottom", "delivery": "server" }"#,
            .removePosts(count: 1, place: .bottom, push: false), .content
        ),
    ]

    @Test("valid fields decode to exactly their values", arguments: valid.indices)
    func decodes(_ index: Int) throws {
        let example = GestureAndShapeDecodingTests.valid[index]
        let scenario = try GestureAndShapeDecodingTests.scenario(feed: example.feed, step: example.step)
        #expect(scenario.feed.itemHeight == example.height)
        #expect(scenario.script.first?.action == example.expected)
    }

    static let invalid: [(feed: String, step: String, path: String, fragment: String)] = [
        (
            #"{ "post_count": 20, "item_height_pt": 0 }"#, #"{ "at_ms": 0, "action": "like" }"#,
            "$.feed.item_height_pt", "expected a value in 1.0...10000.0 pt, found 0.0"
        ),
        (
            #"{ "post_count": 20, "item_height_pt": 100, "quote_fraction": 0.2 }"#,
            #"{ "at_ms": 0, "action": "like" }"#,
            "$.feed.quote_fraction", "expected no `quote_fraction` with `item_height_pt`"
        ),
        (
            #"{ "post_count": 20, "external_card_fraction": 1.5 }"#, #"{ "at_ms": 0, "action": "like" }"#,
            "$.feed.external_card_fraction", "expected a value in 0.0...1.0"
        ),
        (
            #"{ "post_count": 20, "item_height_pt": "tall" }"#, #"{ "at_ms": 0, "action": "like" }"#,
            "$.feed.item_height_pt", "expected a number of points or an object {min, max}"
        ),
        (
            #"{ "post_count": 20, "item_height_pt": { "min": 200, "max": 100 } }"#,
            #"{ "at_ms": 0, "action": "like" }"#, "$.feed.item_height_pt.max",
            "expected max >= min (200.0), found 100.0"
        ),
        (
            #"{ "post_count": 20, "item_height_pt": { "min": 20, "avg": 30, "max": 100 } }"#,
            #"{ "at_ms": 0, "action": "like" }"#, "$.feed.item_height_pt.avg", "unknown field `avg`"
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "scroll_to" }"#, "$.script[0].offset_pt",
            "expected exactly one of `offset_pt` and `post_index`"
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "scroll_to", "offset_pt": 1, "post_index": 1 }"#,
            "$.script[0].offset_pt", "expected exactly one of"
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "scroll_to", "offset_pt": 1, "into_post_pt": 3 }"#,
            "$.script[0].into_post_pt", "expected `into_post_pt` only with `post_index`"
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "scroll_to", "offset_pt": -1 }"#,
            "$.script[0].offset_pt", "expected a value in 0.0...100000000.0 pt"
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "scroll_to", "post_index": 1, "velocity_pt_s": 5 }"#,
            "$.script[0].velocity_pt_s", "unknown field `velocity_pt_s` for a scroll_to"
        ),
        (
            #"{ "post_count": 20 }"#,
            #"{ "at_ms": 5, "action": "pull", "distance_pt": 600, "duration_ms": 300, "hold_ms": 0 }"#,
            "$.script[0].distance_pt", "<= 500.0 pt, found 600.0"
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "pull", "distance_pt": 100, "duration_ms": 300 }"#,
            "$.script[0].hold_ms", "required field `hold_ms`"
        ),
        (
            #"{ "post_count": 20 }"#,
            #"""
            { "at_ms": 5, "action": "pull", "distance_pt": 100, "duration_ms": 300, "hold_ms": 500, "repeat": { \#
            "count": 2, "every_ms": 700 } }
            """#,
            "$.script[0].repeat.every_ms", "expected at least the pull's own length (800.0 ms)"
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "remove_posts", "count": 3, "where": "middle" }"#,
            "$.script[0].where", #"expected one of "top", "around_reader", "bottom""#
        ),
        (
            #"{ "post_count": 20 }"#, #"{ "at_ms": 5, "action": "remove_posts", "count": 0, "where": "top" }"#,
            "$.script[0].count", "expected a value in 1...100000 posts"
        ),
    ]

    @Test("invalid fields are named with their JSON path", arguments: invalid.indices)
    func rejected(_ index: Int) {
        let example = GestureAndShapeDecodingTests.invalid[index]
        let error = #expect(throws: ScenarioError.self) {
            try GestureAndShapeDecodingTests.scenario(feed: example.feed, step: example.step)
        }
        #expect(error?.path == example.path, "\(String(describing: error))")
        #expect(error?.expected.contains(example.fragment) == true, "\(String(describing: error))")
    }
}
