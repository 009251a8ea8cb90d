import FeedImport
import FeedScenario
import Testing

/// Replays: the script a recorded session becomes.
@Suite("Session replays")
struct SessionReplayTests {
    /// A gesture with samples (ms, y) from the session's start.
    static func gesture(_ samples: [(Double, Double)]) -> RecordedGesture {
        RecordedGesture(samples: samples.map { .init(timeNs: Int64(($0.0 * 1e6).rounded()), yPt: $0.1) })
    }

    @Test("the lift velocity weighs the last three sample-to-sample velocities 0.6, 0.35 and 0.05, oldest first")
    func liftVelocity() {
        // Pairs of 40, 60, 70 and 50 pt over 16.7 ms each: the last three weigh in.
        let g = Self.gesture([(0, 600), (16.7, 560), (33.4, 500), (50.1, 430), (66.8, 380)])
        let expected = (0.6 * 60 + 0.35 * 70 + 0.05 * 50) / 0.0167
        #expect(abs(LiftVelocity.estimate(g) - expected) < 1e-6)
        // A finger moving down releases towards earlier posts.
        #expect(LiftVelocity.estimate(Self.gesture([(0, 100), (10, 150), (20, 200)])) < 0)
        // Two samples: one pair, weighted 0.05 (the older pairs are missing, 0).
        #expect(abs(LiftVelocity.estimate(Self.gesture([(0, 100), (10, 90)])) - 0.05 * 1000) < 1e-9)
        // A lift 41 ms after the last move: the finger had stopped.
        #expect(LiftVelocity.estimate(Self.gesture([(0, 600), (16, 500), (32, 400), (73, 400)])) == 0)
    }

    @Test("a gesture replays as a drag along its trajectory released with `stop`, then a fling 1 µs after the lift")
    func dragAndFling() throws {
        let g = Self.gesture([(1000, 600), (1016.7, 560), (1033.4, 500), (1050.1, 430), (1066.8, 380)])
        let session = RecordedSession(
            id: "s", steps: [.gesture(g), .app(atNs: 2_000_000_000, .like)], endNs: 2_000_000_000, firstLine: 1)
        let scenario = try SessionReplay.scenario(
            for: session, named: "replay", settings: .init(device: "iphone-60hz", postCount: 50), file: "log")
        #expect(scenario.script.count == 3)
        #expect(scenario.script[0].atNs == 1_000_000_000)
        #expect(scenario.script[0].action == .drag(trajectory: g.trajectory, release: .stop, deceleration: .normal))
        #expect(g.trajectory.last == TrajectoryPoint(timeNs: 66_800_000, displacementPt: 220))
        #expect(scenario.script[1].atNs == 1_066_801_000)
        guard case let .fling(velocity, _) = scenario.script[1].action else {
            Issue.record("expected a fling, found \(scenario.script[1].action)")
            return
        }
        #expect(velocity == LiftVelocity.estimate(g))
        #expect(scenario.script[2].action == .like)
        #expect(scenario.durationNs == 2_000_000_000 + SessionReplay.tailNs)
        // The file it writes reads back as the same scenario.
        #expect(try ScenarioLoader.scenario(from: .init(scenario.fileText.utf8), file: "replay") == scenario)
    }

    @Test("a slow release writes no fling, and neither does one the next touch-down catches within 1 µs")
    func noFling() throws {
        let slow = Self.gesture([(0, 600), (100, 599), (200, 598)])
        let fast = Self.gesture([(1000, 600), (1010, 500), (1020, 400)])
        let next = Self.gesture([(1020, 400), (1030, 300)])
        let session = RecordedSession(
            id: "s", steps: [.gesture(slow), .gesture(fast), .gesture(next)], endNs: 1_030_000_000, firstLine: 1)
        let kinds = try SessionReplay.scenario(
            for: session, named: "r", settings: .init(device: "d", postCount: 5), file: "log"
        )
        .script.map(\.action.kind)
        #expect(kinds == [.drag, .drag, .drag, .fling])
    }
}
