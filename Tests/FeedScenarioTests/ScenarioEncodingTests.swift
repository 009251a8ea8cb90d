import FeedScenario
import Foundation
import Testing

/// The scenario writer that `feedsim explore` saves shrunk sessions with:
/// what it writes must read back as the scenario it was given.
@Suite("Scenario encoding")
struct ScenarioEncodingTests {
    static let bundled = ScenarioFixtures.jsonFiles(in: ScenarioFixtures.scenariosFolder)
        .filter { $0.lastPathComponent != "schema.json" }

    @Test("Every bundled scenario written back reads as the same scenario", arguments: bundled)
    func roundTrip(_ url: URL) throws {
        let original = try ScenarioLoader.scenario(from: Data(contentsOf: url), file: url.lastPathComponent)
        let text = original.fileText
        let reread = try ScenarioLoader.scenario(from: Data(text.utf8), file: "written-\(url.lastPathComponent)")
        #expect(reread == original, "\(url.lastPathComponent) written as:\n\(text)")
        // Writing is a fixed point: the text of the reread scenario is the same text.
        #expect(reread.fileText == text)
    }

    @Test("The scenario that sets every field round-trips, fields at their defaults are left out")
    func everyFieldAndDefaults() throws {
        let loaded = try ScenarioFixtures.load(
            """
            {"schema_version": 1, "name": "w", "description": "d", "device": "iphone-pro-120hz", "refresh_rates_hz": \
            [120, 60],
             "seed": 18446744073709551615, "duration_s": 2.5,
             "feed": {"post_count": 120, "text_length": {"min": 10, "max": 80}, "media_fraction": 0.25, \
            "reply_fraction": 0.1,
                      "repost_fraction": 0.2, "page_size": 30, "load_more_threshold": 7, "media_size_known_fraction": \
            0.5,
                      "item_height_pt": {"min": 80, "max": 240}},
             "server": {"latency_ms": 12.5, "like_failure_rate": 0.25},
             "network": {"profile": "lte", "latency": {"distribution": "lognormal", "median_ms": 80, "sigma": 0.5}, \
            "jitter_ms": 4,
                         "downlink_kbps": 9000, "uplink_kbps": 1000, "loss_rate": 0.01, "timeout_ms": 9000, \
            "max_retries": 3,
                         "backoff_ms": 250, "backoff_multiplier": 3, "offline": [{"from_s": 0.5, "to_s": 1.25}]},
             "engine": {"estimated_item_height_pt": 150, "position_strategy": "anchor", "debounce_ms": 150, \
            "new_posts_policy": "indicator",
                        "hide_replies": true, "image_decode": "main", "image_memory_cache_mb": 10, \
            "image_prefetch_window": 0},
             "variants": [{"name": "a"}, {"name": "b", "position_strategy": "virtual_space", "network": {"profile": \
            "3g"}}],
             "memory": {"limit_mb": 1024, "baseline_mb": 100, "per_post_kb": 8, "warning_fraction": 0.7, \
            "critical_fraction": 0.85},
             "lifecycle": {"keep_under_s": 60, "check_under_s": 120, "restore_max_age_s": 600, "cold_start_ms": 800},
             "script": [
               {"at_ms": 0, "action": "drag", "trajectory": [{"t_ms": 0, "dy_pt": 0}, {"t_ms": 50, "dy_pt": 30}, \
            {"t_ms": 120, "dy_pt": 90}], "release": "stop"},
               {"at_ms": 200, "action": "drag", "distance_pt": -400, "duration_ms": 250, "deceleration": "fast"},
               {"at_ms": 600, "action": "pull", "distance_pt": 120, "duration_ms": 200, "hold_ms": 300},
               {"at_ms": 1200, "action": "scroll_to", "post_index": 40, "animated": true},
               {"at_ms": 1250, "action": "scroll_to", "offset_pt": 1000},
               {"at_ms": 1260, "action": "scroll_to", "post_index": 7, "into_post_pt": 31.5},
               {"at_ms": 1300, "action": "remove_posts", "count": 3, "where": "around_reader", "delivery": "server"},
               {"at_ms": 1400, "action": "new_posts", "count": 5, "repeat": {"count": 3, "every_ms": 100}},
               {"at_ms": 1800, "action": "fling", "velocity_pt_s": -2500},
               {"at_ms": 1900, "action": "rotate", "width_pt": 852, "height_pt": 393},
               {"at_ms": 2000, "action": "text_size", "scale": 1.5},
               {"at_ms": 2100, "action": "background", "duration_s": 0.1},
               {"at_ms": 2200, "action": "terminate", "relaunch_after_s": 0.05},
               {"at_ms": 2300, "action": "memory_warning"}, {"at_ms": 2310, "action": "like"}, {"at_ms": 2320, \
            "action": "refresh"},
               {"at_ms": 2330, "action": "tap_new_posts"}, {"at_ms": 2340, "action": "scroll_to_top"}, {"at_ms": 2350, \
            "action": "content_updates", "count": 2}
             ],
             "limits": {"max_events": 50000, "max_simulated_s": 10}}
            """)
        let text = loaded.scenario.fileText
        let reread = try ScenarioLoader.scenario(from: Data(text.utf8), file: "written.json")
        #expect(reread == loaded.scenario, "written as:\n\(text)")

        let plain = try ScenarioFixtures.load(
            """
            {"schema_version": 1, "name": "p", "description": "d", "device": "iphone-60hz", "duration_s": 1, "feed": \
            {"post_count": 3}}
            """)
        #expect(
            plain.scenario.fileText == """
                {
                  "schema_version": 1,
                  "name": "p",
                  "description": "d",
                  "device": "iphone-60hz",
                  "duration_s": 1,
                  "feed": {
                    "post_count": 3
                  }
                }

                """)
    }
}
