import Testing

@testable import FeedEngine

@Suite("Foreground policy")
struct ForegroundPolicyTests {
    static let minute: Int64 = 60_000_000_000

    @Test(
        "each band of time in the background triggers its policy (Catbird's 10 and 30 minutes)",
        arguments: [
            (Int64(0), ForegroundAction.keep),
            (5 * minute, .keep),
            (10 * minute - 1, .keep),
            (10 * minute, .checkForNewPosts),
            (15 * minute, .checkForNewPosts),
            (30 * minute - 1, .checkForNewPosts),
            (30 * minute, .fullRefresh),
            (45 * minute, .fullRefresh),
        ])
    func bands(away: Int64, expected: ForegroundAction) {
        #expect(ForegroundPolicy().action(after: away) == expected)
    }

    @Test("thresholds are configurable")
    func configurable() {
        let policy = ForegroundPolicy(keepUnder: 1 * Self.minute, checkUnder: 2 * Self.minute)
        #expect(policy.action(after: 90_000_000_000) == .checkForNewPosts)
        #expect(policy.action(after: 3 * Self.minute) == .fullRefresh)
    }

    @Test(
        """
        after 15 minutes new posts wait behind the indicator and the reader does not move; after 45 the feed \
        reloads at the top
        """
    )
    func engineFollowsPolicy() throws {
        for (away, expectHeld) in [(15 * Self.minute, true), (45 * Self.minute, false)] {
            let harness = EngineHarness(strategy: .anchor, timeline: posts(1...60))
            harness.start()
            harness.scroll(toDistanceFromTop: 2_000)
            let offset = harness.viewport.contentOffset
            harness.transport.timeline = posts(61...64) + harness.transport.timeline
            harness.engine.didEnterForeground(after: away, policy: ForegroundPolicy())
            harness.scheduler.advance(by: 100_000_000)
            if expectHeld {
                #expect(harness.engine.heldNewPosts.map(\.id) == [64, 63, 62, 61])
                #expect(harness.viewport.contentOffset == offset)
                #expect(harness.engine.list.index(of: 64) == nil)
            } else {
                #expect(harness.engine.list.items.first?.id == 64)
                #expect(harness.viewport.contentOffset == harness.engine.offsetRange.lowerBound)
            }
        }
    }
}
