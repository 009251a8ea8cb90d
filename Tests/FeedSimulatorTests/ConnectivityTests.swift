import FeedEngine
import FeedScenario
import Testing

@testable import FeedSimulator

/// The network's comings and goings as every launch of the app sees them:
/// a relaunched engine holds likes made offline and sends them when the
/// network returns, as the first launch's does.
@Suite("Connectivity across launches")
struct ConnectivityTests {
    static let ms: Int64 = 1_000_000
    static let s: Int64 = 1_000_000_000

    /// How the first launch ends.
    enum Kill: Sendable {
        /// The reader's `terminate` action, relaunching at once.
        case terminate(at: Int64)
        /// Posts pushed in take the app over its memory limit: a jetsam kill.
        case jetsam(at: Int64)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var kill: Kill
        var offline: Range<Int64>
        /// When the reader likes the post in view, in the second launch.
        var likeAt: Int64
        var testDescription: String { label }
    }

    /// A run that drags into the feed and rests (the app saves its state),
    /// ends its first launch by `kill`, relaunches from the saved state and
    /// runs `script` after; no network during `offline`.
    static func simulation(kill: Kill, offline: [Range<Int64>], script: [ScriptStep]) throws -> Simulation {
        let drag = ScriptStep(
            atNs: 500 * ms,
            action: .drag(
                trajectory: [.init(timeNs: 0, displacementPt: 0), .init(timeNs: 500 * ms, displacementPt: 2_000)],
                release: .stop, deceleration: .normal))
        let killing: ScriptStep
        switch kill {
        case let .terminate(at): killing = ScriptStep(atNs: at, action: .terminate(relaunchAfterNs: 0))
        case let .jetsam(at): killing = ScriptStep(atNs: at, action: .newPosts(count: 60, push: true))
        }
        var request = TestWorld.request(seconds: 8, script: [drag, killing] + script, frames: false)
        request.recordTimeline = true
        request.loaded.scenario.network.offlineWindows = offline
        // A request that fails for want of a network fails for good: the
        // like is held at once, not retried past the window.
        request.loaded.scenario.network.maxRetries = 0
        // 300 posts at 150 KB over a 150 MB baseline: 194 MB, under the
        // 200 MB limit; 60 more pushed in take the app over it.
        request.loaded.scenario.memory = MemorySettings(
            limitBytes: 200 << 20, baselineBytes: 150 << 20, bytesPerPost: 150 << 10, warningFraction: 0.99,
            criticalFraction: 1)
        return try Simulation(request: request)
    }

    @Test(
        "a like made offline in a relaunched app is held and sent once when the network returns",
        arguments: [
            Case(
                label: "terminated, relaunched before the window", kill: .terminate(at: 1_500 * ms),
                offline: 3_500 * ms..<5_500 * ms, likeAt: 4_500 * ms),
            Case(
                label: "killed for memory, relaunched before the window", kill: .jetsam(at: 1_500 * ms),
                offline: 3_500 * ms..<5_500 * ms, likeAt: 4_500 * ms),
            Case(
                label: "terminated and relaunched inside the window", kill: .terminate(at: 2_500 * ms),
                offline: 2 * s..<6 * s, likeAt: 4_500 * ms),
            Case(
                label: "terminated before the window, relaunched inside it", kill: .terminate(at: 1_500 * ms),
                offline: 2 * s..<6 * s, likeAt: 4_500 * ms),
        ])
    func relaunchedEngineHearsTheNetworkReturn(_ row: Case) throws {
        let simulation = try Self.simulation(
            kill: row.kill, offline: [row.offline], script: [ScriptStep(atNs: row.likeAt, action: .like)])
        let result = try simulation.run()
        let timeline = try #require(result.timeline)
        let relaunch = try #require(timeline.marks.first { $0.name == "relaunch" }, "the app was not relaunched")
        #expect(relaunch.time < row.likeAt, "the like must fall in the second launch")

        let likes = timeline.requests.filter { $0.kind == "like" }
        // Offline at its start, the relaunched engine learns it from the
        // like's own request, which fails at once for want of a network.
        #expect(likes.map(\.outcome) == ["offline", "success"], "\(likes.map { ($0.start, $0.outcome) })")
        #expect(likes.map(\.start) == [row.likeAt, row.offline.upperBound])
        let counters = simulation.engine.counters
        #expect(counters.actionsQueued == 1)
        #expect(counters.actionsReplayed == 1)
        #expect(counters.likeRollbacks == 0)
        #expect(!simulation.engine.believesOffline)
    }

    @Test("a window that ends while the app is dead wakes no engine: nothing is sent until the relaunch")
    func nothingSentWhileDead() throws {
        let (ms, s) = (Self.ms, Self.s)
        // The like is held by the first launch's engine, which is killed
        // before the network returns.
        let simulation = try Self.simulation(
            kill: .terminate(at: 2_500 * ms), offline: [2 * s..<3 * s],
            script: [ScriptStep(atNs: 2_200 * ms, action: .like)])
        let timeline = try #require(try simulation.run().timeline)
        let terminated = try #require(timeline.marks.first { $0.name == "terminate" }).time
        let relaunched = try #require(timeline.marks.first { $0.name == "relaunch" }).time
        try #require(terminated < 3 * s && 3 * s < relaunched)
        let sentWhileDead = (timeline.requests + timeline.imageLoads).filter {
            (terminated..<relaunched).contains($0.start)
        }
        #expect(sentWhileDead.isEmpty, "\(sentWhileDead.map { ($0.kind, $0.start) })")
        #expect(simulation.engine.counters.actionsReplayed == 0)
    }
}
