import FeedEngine
import FeedScenario
import FeedSimulator
import Testing

@testable import FeedExplore

@Suite("The held property")
struct HeldPropertyTests {
    @Test(
        """
        a slip after a change the strategy claims breaks held, naming the cause, the post and both places; a slip \
        after a cause it does not claim does not
        """
    )
    func judgedByClaim() throws {
        let device = try ExploreFixtures.device()
        var session = SessionGenerator(config: .defaults, device: device, seed: 3).session(0)
        session.variants = []
        var result = try Simulation(
            request: RunRequest(
                loaded: LoadedScenario(file: "held.json", scenario: session, device: device), refreshHz: 120,
                seed: session.seed, recordFrames: false)
        ).run()
        result.holdSlips = [
            HoldSlip(
                time: 2_000_000_000, cause: ChangeCause.newPosts.rawValue, heldSince: 1_500_000_000, anchorID: 42,
                heldY: 120, y: 80.5),
            HoldSlip(
                time: 3_000_000_000, cause: ChangeCause.widthChange.rawValue, heldSince: 2_500_000_000, anchorID: 43,
                heldY: 10, y: 30),
        ]
        // anchor claims both causes; none claims nothing.
        let anchor = Violation.held(in: result, strategy: .anchor)
        #expect(anchor.map(\.cause) == [ChangeCause.newPosts.rawValue, ChangeCause.widthChange.rawValue])
        let first = try #require(anchor.first)
        #expect(first.property == .held)
        #expect(first.timeNs == 2_000_000_000)
        #expect(first.excessPt == 39.5)
        #expect(
            first.detail
                == """
                post 42, held at y 120.00 pt through the change at 1500.000 ms, moved to y 80.50 pt with the \
                screen at rest
                """
        )
        let none = Violation.held(in: result, strategy: .none)
        #expect(none.isEmpty, "\(none.map(\.sentence))")
    }
}
