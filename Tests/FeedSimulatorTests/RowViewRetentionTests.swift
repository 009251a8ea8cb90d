import FeedEngine
import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// The row views a lazy stack keeps off screen (docs/swiftui-hosts.md, "Row
/// views kept alive"; "S321" is WWDC26 session 321, "Dive into lazy stacks
/// and scrolling with SwiftUI"). Each session scrolls 4,500 pt down a feed of
/// 200 text posts (estimated at 100 pt) and stops.
@Suite("Row views a lazy stack keeps")
struct RowViewRetentionTests {
    static let scrolls = """
        {"at_ms": 1000, "action": "drag", "distance_pt": 1500, "duration_ms": 400, "release": "stop"},
        {"at_ms": 3000, "action": "drag", "distance_pt": 1500, "duration_ms": 400, "release": "stop"},
        {"at_ms": 5000, "action": "drag", "distance_pt": 1500, "duration_ms": 400, "release": "stop"}
        """

    /// Runs the session with `engine`'s fields and `more` script steps: the
    /// engine at the end, the result, and the device's cost of configuring
    /// a cell, in ns.
    static func run(
        _ engine: String, more: String = ""
    ) throws -> (engine: FeedEngine, result: RunResult, configureNs: Double) {
        let json = """
            {"schema_version": 1, "name": "rows", "description": "d", "device": "iphone-60hz", "seed": 3, \
            "duration_s": 12,
             "feed": {"post_count": 200, "media_fraction": 0},
             "engine": {"estimated_item_height_pt": 100, \(engine)}, "script": [\(scrolls)\(more)]}
            """
        let loaded = try ScenarioLoader.load(
            data: Data(json.utf8), file: "rows.json", deviceDirectories: [CustomStrategyTests.devices])
        let request = try #require(RunRequest.expand(loaded, seedOverride: nil, recordFrames: true).first)
        // Frames carry allocation counts: the warm-up pays the runtime's
        // one-time costs, as `feedsim run` does, so that counts compared
        // between runs do not depend on which test of the process ran first.
        Simulation.warmUpRuntime(for: request)
        let simulation = try Simulation(request: request)
        let result = try simulation.run()
        return (simulation.engine, result, request.loaded.device.costs.cellConfigure.value)
    }

    @Test("a collection view and a List reuse their cells: no row view is kept off screen")
    func reusingHostsKeepNone() throws {
        for host in ["collection_view", "list"] {
            let (engine, _, _) = try Self.run(#""host": "\#(host)", "row_retention": "pinned""#)
            #expect(engine.keptRowViews == 0, "\(host)")
        }
    }

    @Test(
        """
        released: a row view leaves the stack row_kept_updates updates after it leaves the screen (S321 \
        16:59–17:13); a screen at rest has no updates, so what it keeps stays
        """
    )
    func releasedAfterUpdates() throws {
        let none = try Self.run(#""host": "lazy_vstack", "row_kept_updates": 0"#)
        let some = try Self.run(#""host": "lazy_vstack", "row_kept_updates": 30"#)
        let all = try Self.run(#""host": "lazy_vstack", "row_kept_updates": 10000"#)
        let pinned = try Self.run(#""host": "lazy_vstack", "row_retention": "pinned""#)
        #expect(none.engine.keptRowViews == 0)
        // 4,500 pt of rows left the screen: 10,000 updates keep them all, as pinning does.
        #expect(all.engine.keptRowViews > 20, "\(all.engine.keptRowViews)")
        #expect(all.engine.keptRowViews == pinned.engine.keptRowViews)
        // 30 updates keep the rows of the last drag's final half second or so: some, not all.
        #expect(
            some.engine.keptRowViews > 0 && some.engine.keptRowViews < all.engine.keptRowViews,
            "\(some.engine.keptRowViews) of \(all.engine.keptRowViews)")
    }

    @Test("each kept row view counts row_view_kb in peak memory; nothing else differs")
    func keptViewsInPeakMemory() throws {
        let none = try Self.run(#""host": "lazy_vstack", "row_kept_updates": 0"#)
        let pinned = try Self.run(#""host": "lazy_vstack", "row_retention": "pinned", "row_view_kb": 64"#)
        let extraMB = Double(pinned.engine.keptRowViews * 64) / 1024
        #expect(
            abs((pinned.result.peakMemoryMB - none.result.peakMemoryMB) - extraMB) < 1e-9,
            "\(pinned.result.peakMemoryMB) - \(none.result.peakMemoryMB) vs \(extraMB)")
        #expect(pinned.result.drift == none.result.drift)
    }

    @Test(
        """
        pinned: an environment change (the text size) runs the bodies of the rows kept off screen again, work a \
        released stack does not do (S321 11:15–12:50)
        """
    )
    func pinnedBodiesRunOnEnvironmentChange() throws {
        let textSize = #", {"at_ms": 9000, "action": "text_size", "scale": 1.25}"#
        let released = try Self.run(#""host": "lazy_vstack", "row_kept_updates": 0"#, more: textSize)
        let pinned = try Self.run(#""host": "lazy_vstack", "row_retention": "pinned""#, more: textSize)
        func work(_ result: RunResult) -> SimTime {
            result.frames.filter { $0.time >= 9_000_000_000 && $0.time < 9_100_000_000 }.reduce(0) { $0 + $1.work }
        }
        let perBody = pinned.configureNs
        #expect(pinned.engine.keptRowViews > 20)
        #expect(
            Double(work(pinned.result) - work(released.result)) >= Double(pinned.engine.keptRowViews) * perBody,
            """
            pinned \(work(pinned.result)) ns, released \(work(released.result)) ns, \(pinned.engine.keptRowViews) \
            bodies of \(perBody) ns
            """
        )
    }

    @Test("a row whose post leaves the feed ends with its identity, kept or not")
    func removedRowsEnd() throws {
        // scroll_position_id keeps the top row through the removal, so no
        // row comes on screen or leaves it.
        let pinned = #""host": "lazy_vstack", "position_strategy": "scroll_position_id", "row_retention": "pinned""#
        let kept = try Self.run(pinned)
        let removed = try Self.run(
            pinned,
            more: #", {"at_ms": 9000, "action": "remove_posts", "count": 5, "where": "top", "delivery": "push"}"#)
        #expect(removed.engine.keptRowViews == kept.engine.keptRowViews - 5)
    }
}
