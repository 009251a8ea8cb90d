import FeedReports
import FeedScenario
import FeedSimTestSupport
import FeedSimulator
import Foundation
import Testing

/// The background cores on a run's trace (docs/main-thread.md).
@Suite("Background cores on the trace")
struct BackgroundTraceTests {
    /// A paged feed flung and rotated under `layout`, with its timeline.
    static func run(_ layout: String) throws -> RunResult {
        let json = """
            {"schema_version": 1, "name": "trace", "description": "d", "device": "iphone-60hz", "seed": 5, \
            "duration_s": 6, "feed": {"post_count": 120, "page_size": 25, "media_fraction": 0.5}, \
            "engine": {"position_strategy": "anchor", "layout_strategy": "\(layout)"}, "script": [\
            {"at_ms": 1000, "action": "fling", "velocity_pt_s": 4000}, \
            {"at_ms": 4000, "action": "rotate", "width_pt": 844, "height_pt": 390}]}
            """
        let loaded = try ScenarioLoader.load(
            data: Data(json.utf8), file: "trace.json",
            deviceDirectories: [PackageRoot.appending("scenarios/devices")])
        let request = try #require(
            RunRequest.expand(loaded, seedOverride: nil, recordFrames: true, recordTimeline: true).first)
        return try Simulation(request: request).run()
    }

    @Test("a thread per background core, each job a slice with its post and its wait for the core; none without jobs")
    func tracks() throws {
        let trace = try #require(ChromeTrace.render(try Self.run("precomputed")))
        #expect(trace.contains(#""args":{"name":"background core 1"}"#))
        #expect(trace.contains(#""args":{"name":"background core 2"}"#))
        #expect(trace.contains(#""name":"height","cat":"background","ph":"X""#))
        #expect(trace.contains(#""wait_ms":"#))
        let selfSizing = try #require(ChromeTrace.render(try Self.run("self_sizing")))
        #expect(!selfSizing.contains("background core"))
    }
}
