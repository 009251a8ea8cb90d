import FeedEngine
import FeedScenario
import Testing

@testable import FeedSimulator

/// The warm-up that runs before every run, so that its allocation counts do
/// not depend on what the process ran before (the end-to-end tests compare
/// the counts themselves, alone and after other runs).
@Suite("Warm-up")
struct WarmUpTests {
    /// A feed with images, in pages of `pageSize` like most bundled
    /// scenarios, or whole in one response (0) like the benchmark session.
    static func request(seconds: Double, pageSize: Int = 20) -> RunRequest {
        var request = TestWorld.request(
            posts: 600, seconds: seconds, hz: 120, mediaFraction: 0.5, pageSize: pageSize)
        request.loaded.scenario.network = NetworkSettings(
            profile: "very_bad", offlineWindows: [5_000_000_000..<9_000_000_000])
        return request
    }

    /// Every request of `session`, as (kind, outcome), in the order sent.
    static func exchanges(_ session: Scenario, of request: RunRequest) throws -> [(kind: String, outcome: String)] {
        var warmUp = request
        warmUp.loaded.scenario = session
        warmUp.recordTimeline = true
        let timeline = try #require(try Simulation(request: warmUp).run().timeline)
        return (timeline.requests + timeline.imageLoads).sorted { $0.start < $1.start }.map { ($0.kind, $0.outcome) }
    }

    @Test(
        """
        the warm-up meets every answer the engine tells apart: each kind of request answered and failed for want \
        of a network, a held like sent again, a like refused; paged or not
        """,
        arguments: [20, 0]
    )
    func everyAnswer(pageSize: Int) throws {
        let request = WarmUpTests.request(seconds: 60, pageSize: pageSize)
        let sessions = Simulation.warmUpSessions(for: request)
        try #require(sessions.count == 2)
        let answers = try WarmUpTests.exchanges(sessions[0], of: request)
        // A feed sent in one response has no pages to ask for.
        for kind in ["refresh", "page", "like", "image"] where kind != "page" || pageSize > 0 {
            #expect(answers.contains { $0 == (kind, "success") }, "no \(kind) answered")
            #expect(answers.contains { $0 == (kind, "offline") }, "no \(kind) failed for want of a network")
        }
        let likes = answers.filter { $0.kind == "like" }.map(\.outcome)
        let held = try #require(likes.firstIndex(of: "offline"))
        #expect(likes[held...].contains("success"), "the held like was not sent again: \(likes)")
        let refused = try WarmUpTests.exchanges(sessions[1], of: request)
        #expect(refused.contains { $0 == ("like", "server_error") }, "\(refused)")
    }

    @Test("every seed of a scenario gets the same warm-up, which a worker's log runs once")
    func oneWarmUpPerScenario() {
        let base = WarmUpTests.request(seconds: 5)
        var seeded = base
        seeded.seed = base.seed &+ 41
        let warmUp = Simulation.warmUpRequests(for: base)
        #expect(warmUp.count == 2)
        #expect(warmUp == Simulation.warmUpRequests(for: seeded))
        #expect(warmUp.allSatisfy { $0.seed == base.loaded.scenario.seed })

        var log = WarmUpLog()
        let first = log.warmUp(for: base)
        #expect(first, "a first warm-up runs")
        let otherSeed = log.warmUp(for: seeded)
        #expect(!otherSeed, "another seed of the scenario needs none")
        var faster = base
        faster.refreshHz = 60
        let otherRate = log.warmUp(for: faster)
        #expect(otherRate, "another rate is another warm-up")
        let again = log.warmUp(for: base)
        #expect(!again, "the first is still remembered")
        // The log keeps the last few: past them, a warm-up runs again.
        for index in 0..<WarmUpLog.capacity {
            var other = base
            other.loaded.file = "other-\(index).json"
            let ran = log.warmUp(for: other)
            #expect(ran, "\(other.loaded.file)")
        }
        let forgotten = log.warmUp(for: seeded)
        #expect(forgotten, "forgotten after \(WarmUpLog.capacity) others")
    }

    @Test("the warm-up does not grow with the request: the same sessions for a minute and for ten")
    func boundedByTheTour() {
        let minute = Simulation.warmUpSessions(for: WarmUpTests.request(seconds: 60))
        let tenMinutes = Simulation.warmUpSessions(for: WarmUpTests.request(seconds: 600))
        #expect(minute.map(\.durationNs) == tenMinutes.map(\.durationNs))
        #expect(minute.map(\.script) == tenMinutes.map(\.script))
        #expect(minute.allSatisfy { $0.feed.postCount <= Simulation.warmUpPagedPostCount })
        #expect(minute.allSatisfy { $0.durationNs < 20_000_000_000 }, "\(minute.map(\.durationNs))")
    }
}
