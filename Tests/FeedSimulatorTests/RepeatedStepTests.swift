import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// A step with `repeat` is one step of the script as written, in memory as
/// in its file: the run performs every repetition, and the file written
/// back keeps the step as one. Explore's shrinker writes repeated jumps;
/// its runs and its repro files must agree.
@Suite("Repeated steps")
struct RepeatedStepTests {
    let ms: Int64 = 1_000_000

    @Test("a step repeated in memory runs every repetition, as the same steps written out one by one do")
    func repeatedInMemoryRunsEveryRepetition() throws {
        let fling = ScriptAction.fling(velocityPtPerS: 2500, deceleration: .normal)
        let repeated = [ScriptStep(atNs: 500 * ms, action: fling, repeatCount: 3, repeatEveryNs: 1000 * ms)]
        let written = (0..<3).map { ScriptStep(atNs: (500 + Int64($0) * 1000) * ms, action: fling) }
        let once = try Simulation(
            request: TestWorld.request(seconds: 5, script: [ScriptStep(atNs: 500 * ms, action: fling)])
        ).run()
        let a = try Simulation(request: TestWorld.request(seconds: 5, script: repeated)).run()
        let b = try Simulation(request: TestWorld.request(seconds: 5, script: written)).run()
        #expect(a.frames == b.frames)
        #expect(a.frames.last?.contentOffset != once.frames.last?.contentOffset)
    }

    @Test("a repeated step interleaves with the steps after it by time, ties in the order written")
    func repetitionsInterleave() {
        let steps = [
            ScriptStep(atNs: 0, action: .like, repeatCount: 3, repeatEveryNs: 1000 * ms),
            ScriptStep(atNs: 1000 * ms, action: .refresh),
        ]
        let expanded = Scenario(
            name: "r", description: "r", device: "d", durationNs: 5_000 * ms, feed: FeedSettings(postCount: 10),
            script: steps
        ).expandedScript
        #expect(expanded.map(\.atNs) == [0, 1000 * ms, 1000 * ms, 2000 * ms])
        #expect(expanded.map(\.action) == [.like, .like, .refresh, .like])
        #expect(expanded.allSatisfy { $0.repeatCount == 1 })
    }

    @Test("a file's repeated step reads back as one step and is written back as one")
    func fileKeepsRepeat() throws {
        let json = """
            {"schema_version": 1, "name": "r", "description": "d", "device": "iphone-60hz", "duration_s": 10,
             "feed": {"post_count": 50},
             "script": [{"at_ms": 1000, "action": "scroll_to", "post_index": 20, "repeat": {"count": 4, "every_ms": \
            1000}},
                        {"at_ms": 1500, "action": "like"}]}
            """
        let scenario = try ScenarioLoader.scenario(from: Data(json.utf8), file: "r.json")
        #expect(scenario.script.count == 2)
        #expect(scenario.script[0].repeatCount == 4)
        #expect(scenario.fileText.contains(#""repeat""#), "\(scenario.fileText)")
        #expect(scenario.expandedScript.count == 5)
    }
}
