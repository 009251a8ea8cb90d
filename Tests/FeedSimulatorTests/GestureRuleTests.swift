import FeedEngine
import FeedScenario
import Testing

@testable import FeedSimulator

/// What overlapping touches mean (docs/scenario-format.md, "Touches that
/// overlap"): one pan for every finger on the scroll view, as UIKit's
/// scroll view has one pan recognizer for all of them.
@Suite("Touches that overlap join one pan")
struct GestureRuleTests {
    static func drag(
        at ms: Int64, _ distance: Double, over durationMs: Int64, release: DragRelease = .stop
    ) -> ScriptStep {
        ScriptStep(
            atNs: ms * 1_000_000,
            action: .drag(
                trajectory: [
                    .init(timeNs: 0, displacementPt: 0),
                    .init(timeNs: durationMs * 1_000_000, displacementPt: distance),
                ],
                release: release, deceleration: .normal))
    }

    static func offsets(_ script: [ScriptStep]) throws -> [Double] {
        try Simulation(request: TestWorld.request(posts: 300, seconds: 4, script: script)).run().frames.map(
            \.contentOffset)
    }

    @Test(
        """
        a flick while a finger holds the content throws nothing: the holding finger keeps the content, and its \
        lift ends the pan
        """
    )
    func flickDuringDrag() throws {
        let held = [Self.drag(at: 500, 1_200, over: 1_000)]
        let flicked =
            held + [ScriptStep(atNs: 900_000_000, action: .fling(velocityPtPerS: -6_000, deceleration: .normal))]
        #expect(try Self.offsets(flicked) == Self.offsets(held))
    }

    @Test("a flick on decelerating content starts a new deceleration from where the content is")
    func flickOnDeceleration() throws {
        let thrown = [Self.drag(at: 500, 800, over: 200, release: .fling)]
        let flicked =
            thrown + [ScriptStep(atNs: 900_000_000, action: .fling(velocityPtPerS: -3_000, deceleration: .normal))]
        let a = try Self.offsets(thrown), b = try Self.offsets(flicked)
        #expect(a != b)
        #expect(b.last! < a.last!)
    }

    @Test(
        """
        a second finger joins the pan: the content follows it from where it is, the first finger's lift ends \
        nothing, the second's ends the pan
        """
    )
    func secondFingerJoins() throws {
        // The second drag starts 300 ms into a 1 s drag of 1,200 pt, with the
        // first finger still down until 1,500 ms.
        let joined = try Simulation(
            request: TestWorld.request(
                posts: 300, seconds: 4,
                script: [
                    Self.drag(at: 500, 1_200, over: 1_000), Self.drag(at: 800, 400, over: 1_000),
                ])
        ).run().frames
        let at = { (ms: Int64) in joined.last { $0.time <= ms * 1_000_000 }!.contentOffset }
        // 360 pt of the first finger by 800 ms, then the second's 400 pt.
        #expect(abs(at(1_800) - (at(800) + 400)) < 2, "\(at(800)) then \(at(1_800))")
        // At 1,500 ms the first finger lifts and the content keeps following
        // the second, which stops at 1,800 ms and lifts: no deceleration.
        #expect(at(1_500) < at(1_790))
        #expect(at(3_900) == at(1_800))
    }
}
