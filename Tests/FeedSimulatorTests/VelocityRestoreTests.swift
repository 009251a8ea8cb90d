import FeedEngine
import FeedScenario
import Testing

@testable import FeedSimulator

/// `velocity_restore` against `anchor` when posts land above the reader in
/// the middle of a fling: the same landing, reached without moving the
/// content in one jump.
@Suite("velocity_restore: a fling's resting point moves, not the content")
struct VelocityRestoreTests {
    static let ms: Int64 = 1_000_000
    var ms: Int64 { Self.ms }

    /// 100 pt posts; a 3,000 pt/s fling at 0.5 s (about 1,500 pt, some 4 s
    /// long), and three posts pushed in above the reader at 1 s, mid-flight.
    static func run(_ strategy: PositionStrategy) throws -> RunResult {
        try DriftTruthTests.run(
            strategy, seconds: 8,
            [
                ScriptStep(atNs: 500 * ms, action: .fling(velocityPtPerS: 3_000, deceleration: .normal)),
                ScriptStep(atNs: 1_000 * ms, action: .newPosts(count: 3, push: true)),
            ])
    }

    /// The largest change of contentOffset from one frame to the next.
    static func largestStep(_ result: RunResult) -> Double {
        zip(result.frames, result.frames.dropFirst()).map { abs($1.contentOffset - $0.contentOffset) }.max() ?? 0
    }

    @Test(
        """
        it lands the reader's post where anchor holds it, and its largest frame-to-frame move is the fling's, not \
        the fling's plus 300 pt
        """
    )
    func landsWhereAnchorHolds() throws {
        let anchor = try Self.run(.anchor)
        let retargeted = try Self.run(.velocityRestore)
        let anchorEnd = try #require(anchor.frames.last), retargetedEnd = try #require(retargeted.frames.last)
        #expect(anchorEnd.time < 8_000 * ms && retargetedEnd.time < 8_000 * ms, "both flings came to rest")
        #expect(
            abs(retargetedEnd.contentOffset - anchorEnd.contentOffset) <= DriftMeter.eventThreshold,
            "rests at \(retargetedEnd.contentOffset), anchor at \(anchorEnd.contentOffset)")
        #expect(retargetedEnd.visible == anchorEnd.visible)

        // anchor moves the content by the three posts' 300 pt in the frame
        // that shows them, on top of the fling's own step.
        let fling = Self.largestStep(
            try DriftTruthTests.run(
                .anchor, seconds: 8,
                [
                    ScriptStep(atNs: 500 * ms, action: .fling(velocityPtPerS: 3_000, deceleration: .normal))
                ]))
        #expect(
            Self.largestStep(anchor) > fling + 250,
            "anchor's largest step \(Self.largestStep(anchor)), the fling's \(fling)")
        // velocity_restore never moves it by more than the faster fling's step.
        #expect(
            Self.largestStep(retargeted) < fling * 1.5,
            "velocity_restore's largest step \(Self.largestStep(retargeted)), the fling's \(fling)")
    }

    @Test(
        """
        the drift meter: the change shows mid-flight (not judged frame by frame), and the post settles where held \
        (judged at rest)
        """
    )
    func settlesWhereHeld() throws {
        let anchor = try Self.run(.anchor)
        let anchorRecord = try #require(anchor.drift.first { $0.cause == "new_posts" })
        #expect(
            abs(try #require(anchorRecord.drift)) <= DriftMeter.eventThreshold,
            "anchor's correction mid-flight is invisible")

        let retargeted = try Self.run(.velocityRestore)
        let records = retargeted.drift.filter { $0.cause == "new_posts" }
        #expect(records.count == 2, "\(records)")
        let shown = try #require(records.first), settled = try #require(records.last)
        #expect(shown.excuse == .retargetedFling)
        #expect(
            abs(try #require(shown.drift) - 300) < 30,
            "the three posts push the reader's post down as they show: \(shown)")
        #expect(!shown.isMissedHold)
        #expect(settled.excuse == nil)
        // Judged in the frame the fling comes to rest: the content moved
        // into it and moves no more.
        let index = try #require(retargeted.frames.firstIndex { $0.time == settled.time })
        #expect(retargeted.frames[index - 1].contentOffset != retargeted.frames[index].contentOffset)
        #expect(retargeted.frames[index...].allSatisfy { $0.contentOffset == retargeted.frames[index].contentOffset })
        #expect(abs(try #require(settled.drift)) <= DriftMeter.eventThreshold, "\(settled)")
        #expect(!settled.isMissedHold)
    }

    /// Retargets half of what `anchor` would correct: lands 150 pt off.
    struct HalfRetargetingKeeper: PositionKeeper {
        static let name = "half_retargeting"
        static let heldCauses = AnchorKeeper.heldCauses
        private var anchor = AnchorKeeper()
        init() {}
        mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
            anchor.batchWillApply(batch, list: list)
        }
        func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
            var outcome = anchor.batchDidApply(batch, list: list)
            if case let .moveOffset(target) = outcome.correction {
                outcome.correction = .retargetingFling(.moveOffset(to: batch.offset + (target - batch.offset) / 2))
            }
            return outcome
        }
        func afterRelayout(anchor captured: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
            anchor.afterRelayout(anchor: captured, list: list)
        }
    }

    @Test("a retargeted fling that lands the post elsewhere is a missed hold at rest")
    func missedLandingIsCaught() throws {
        let result = try Self.run(PositionStrategy(HalfRetargetingKeeper.self))
        let records = result.drift.filter { $0.cause == "new_posts" }
        #expect(records.count == 2, "\(records)")
        let settled = try #require(records.last)
        #expect(settled.excuse == nil)
        #expect(abs(try #require(settled.drift) - 150) < 2, "\(settled)")
        #expect(settled.isMissedHold)
    }
}
