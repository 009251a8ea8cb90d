import FeedEngine
import FeedScenario
import Testing

@testable import FeedSimulator

/// The `held` property's watch: a post a change left in place stays there,
/// on a resting screen, until something moves it.
@Suite("Hold watch: a held post stays held until the reader moves it")
struct HoldWatchTests {
    static let post = PostID(7)
    static let resting = HoldWatch.Screen(isResting: true, changeInProgress: false, atEdge: false)
    static func record(afterY: Double? = 120, clampedBy: Double = 0, excuse: DriftRecord.Excuse? = nil) -> DriftRecord {
        DriftRecord(
            time: 1_000_000_000, cause: "new_posts", anchorID: post, beforeY: 120, afterY: afterY, clampedBy: clampedBy,
            excuse: excuse)
    }

    @Test(
        """
        a held record on a resting screen starts a watch where the post is; a later frame with the post moved by \
        more than 1 pt is a slip, and ends the watch
        """
    )
    func slip() throws {
        let (watch, none) = HoldWatch.frame(
            nil, newRecord: Self.record(), screen: Self.resting, at: 1_000_000_000, y: { _ in 120 })
        #expect(none == nil)
        let started = try #require(watch)
        #expect(started == HoldWatch(cause: "new_posts", since: 1_000_000_000, anchorID: Self.post, y: 120))

        let (still, quiet) = HoldWatch.frame(
            started, newRecord: nil, screen: Self.resting, at: 1_100_000_000, y: { _ in 120.9 })
        #expect(still == started && quiet == nil)

        let (ended, slip) = HoldWatch.frame(
            started, newRecord: nil, screen: Self.resting, at: 1_200_000_000, y: { _ in 64 })
        #expect(ended == nil)
        #expect(
            slip
                == HoldSlip(
                    time: 1_200_000_000, cause: "new_posts", heldSince: 1_000_000_000, anchorID: Self.post, heldY: 120,
                    y: 64))
    }

    @Test("no slip while the screen moves, while a change is in progress, or with the content resting at an edge")
    func excused() throws {
        let watch = HoldWatch(cause: "new_posts", since: 0, anchorID: Self.post, y: 120)
        for screen in [
            HoldWatch.Screen(isResting: false, changeInProgress: false, atEdge: false),
            HoldWatch.Screen(isResting: true, changeInProgress: true, atEdge: false),
            HoldWatch.Screen(isResting: true, changeInProgress: false, atEdge: true),
        ] {
            let (kept, slip) = HoldWatch.frame(watch, newRecord: nil, screen: screen, at: 1, y: { _ in 20 })
            #expect(kept == watch && slip == nil)
        }
        // The post gone (a removal, which its own record judges) ends the watch.
        let (gone, none) = HoldWatch.frame(watch, newRecord: nil, screen: Self.resting, at: 1, y: { _ in nil })
        #expect(gone == nil && none == nil)
    }

    @Test(
        """
        only a held, unexcused record of a surviving post on a resting screen starts a watch; a new record \
        replaces the old watch
        """
    )
    func starts() {
        let old = HoldWatch(cause: "removal", since: 0, anchorID: PostID(1), y: 50)
        let moving = HoldWatch.Screen(isResting: false, changeInProgress: false, atEdge: false)
        #expect(
            HoldWatch.frame(old, newRecord: Self.record(afterY: nil), screen: Self.resting, at: 1, y: { _ in 120 }).0
                == nil)
        #expect(
            HoldWatch.frame(old, newRecord: Self.record(afterY: 60), screen: Self.resting, at: 1, y: { _ in 60 }).0
                == nil)
        #expect(
            HoldWatch.frame(
                old, newRecord: Self.record(excuse: .animatedScroll), screen: Self.resting, at: 1, y: { _ in 120 }
            ).0 == nil)
        #expect(HoldWatch.frame(old, newRecord: Self.record(), screen: moving, at: 1, y: { _ in 120 }).0 == nil)
        // Moved 60 pt, all of it forced by the edges: not missed, watched.
        #expect(
            HoldWatch.frame(
                old, newRecord: Self.record(afterY: 60, clampedBy: 60), screen: Self.resting, at: 1, y: { _ in 60 }
            ).0?.y == 60)
    }

    @Test("a run with held changes on a resting screen reports no slip, and a gesture ends the watch")
    func wholeRun() throws {
        var engine = EngineSettings.defaults
        engine.positionStrategy = .anchor
        let script = [
            ScriptStep(
                atNs: 300_000_000,
                action: .drag(
                    trajectory: [
                        .init(timeNs: 0, displacementPt: 0), .init(timeNs: 400_000_000, displacementPt: 2_000),
                    ],
                    release: .stop, deceleration: .normal)),
            ScriptStep(atNs: 1_500_000_000, action: .newPosts(count: 5, push: true)),
            ScriptStep(atNs: 2_500_000_000, action: .newPosts(count: 3, push: true)),
        ]
        var request = TestWorld.request(posts: 300, seconds: 4, script: script, engine: engine)
        request.checkInvariants = true
        let result = try Simulation(request: request).run()
        #expect(result.drift.contains { $0.cause == "new_posts" && $0.afterY != nil })
        #expect(result.holdSlips.isEmpty, "\(result.holdSlips)")
        #expect(result.invariantFailures.isEmpty)
    }
}
