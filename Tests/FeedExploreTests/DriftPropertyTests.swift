import FeedEngine
import FeedScenario
import FeedSimulator
import Testing

@testable import FeedExplore

@Suite("The drift property")
struct DriftPropertyTests {
    /// One explored run, its drift records replaced by `records`.
    static func result(with records: [DriftRecord]) throws -> RunResult {
        let device = try ExploreFixtures.device()
        var session = SessionGenerator(config: .defaults, device: device, seed: 3).session(0)
        session.variants = []
        var result = try Simulation(
            request: RunRequest(
                loaded: LoadedScenario(file: "drift.json", scenario: session, device: device), refreshHz: 60,
                seed: session.seed, recordFrames: false)
        ).run()
        result.drift = records
        return result
    }

    /// A refresh that lands after the reader scrolled 1,000 pt away from the
    /// pull, and moves their post as far as the pull's anchor was from it
    /// (usage session 27 of a usage exploration, before the engine held the
    /// reader's current post).
    static let lateRefresh = DriftRecord(
        time: 16_833_333_333, cause: ChangeCause.refresh.rawValue, anchorID: 1_000_265, beforeY: 41.72,
        afterY: 1_131.99)

    @Test(
        "a refresh that moves the reader far from the pull breaks drift under every strategy built on Catbird's anchor",
        arguments: [PositionStrategy.anchor, .multiAnchor, .velocityRestore])
    func lateRefreshBreaksDrift(strategy: PositionStrategy) throws {
        let result = try DriftPropertyTests.result(with: [DriftPropertyTests.lateRefresh])
        let violations = Violation.drift(in: result, strategy: strategy)
        #expect(violations.map(\.cause) == [ChangeCause.refresh.rawValue])
        let first = try #require(violations.first)
        #expect(abs(first.excessPt - 1_090.27) < 1e-9)
        #expect(first.detail == "post 1000265 moved 1090.27 pt (from y 41.72 to 1131.99 pt)")
        #expect(Violation.drift(in: result, strategy: .none).isEmpty, "none claims nothing")
    }

    /// A refresh that lands while the finger still holds the pull, putting
    /// the old top post back where it was when the pull passed 20 pt
    /// (held-pull-refresh-lands).
    static let refreshAtPull: DriftRecord = {
        var record = DriftRecord(
            time: 1_900_000_000, cause: ChangeCause.refresh.rawValue, anchorID: 1_000_199, beforeY: 147,
            afterY: 71.48)
        record.atPull = true
        return record
    }()

    @Test(
        """
        a refresh at the pull is not judged under a strategy that restores the pull's anchor there, and is under \
        one that claims refresh without it
        """
    )
    func refreshAtPull() throws {
        let result = try DriftPropertyTests.result(with: [DriftPropertyTests.refreshAtPull])
        for strategy in [PositionStrategy.anchor, .multiAnchor, .velocityRestore] {
            #expect(strategy.usesPullAnchor)
            #expect(Violation.drift(in: result, strategy: strategy).isEmpty, "\(strategy.name)")
        }
        #expect(!PositionStrategy.virtualSpace.usesPullAnchor)
        let virtualSpace = Violation.drift(in: result, strategy: .virtualSpace)
        #expect(virtualSpace.map(\.cause) == [ChangeCause.refresh.rawValue])
    }
}
