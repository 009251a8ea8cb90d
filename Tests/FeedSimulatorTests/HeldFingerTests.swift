import FeedScenario
import Testing

@testable import FeedSimulator

/// A finger that holds the content still must keep it still: whatever the
/// app does to the content offset or the content's extent, the content stays
/// under the finger until the finger moves again (UIScrollView moves the pan
/// gesture's reference with every contentOffset change).
@Suite("Scroll view under a held finger")
struct HeldFingerTests {
    static let second: SimTime = 1_000_000_000
    var second: SimTime { Self.second }

    /// A finger that moves `distance` in 0.3 s and then holds still until 3 s.
    static func held(_ distance: Double) -> [TrajectoryPoint] {
        [
            .init(timeNs: 0, displacementPt: 0), .init(timeNs: 300_000_000, displacementPt: distance),
            .init(timeNs: 3 * second, displacementPt: distance),
        ]
    }

    @Test(
        "an offset adjustment during a held pull past the top moves the content by exactly the adjustment",
        arguments: [150.0, 400.0, -30.0])
    func adjustDuringHeldPull(delta: Double) {
        var view = ScrollView(viewportHeight: 800, insetTop: 50, insetBottom: 30, contentHeight: 5_000)
        view.beginDrag(at: 0, trajectory: HeldFingerTests.held(-200), release: .stop, rate: 0.998)
        view.advance(to: second)
        let held = view.contentOffset
        #expect(held < -50, "pulled past the top")
        view.adjust(by: delta)
        view.advance(to: second + 16_666_667)
        #expect(
            abs(view.contentOffset - (held + delta)) < 1e-9, "moved \(view.contentOffset - held), adjusted \(delta)")
        view.advance(to: 2 * second)
        #expect(
            abs(view.contentOffset - (held + delta)) < 1e-9, "the finger has not moved, so neither does the content")
    }

    @Test("content appended while the finger holds an overscroll at the bottom does not move what is on screen")
    func appendDuringHeldOverscroll() {
        var view = ScrollView(viewportHeight: 800, insetTop: 0, insetBottom: 0, contentHeight: 2_000)
        view.beginDrag(
            at: 0,
            trajectory: [
                .init(timeNs: 0, displacementPt: 0), .init(timeNs: 300_000_000, displacementPt: 1_400),
                .init(timeNs: 3 * second, displacementPt: 1_400),
            ], release: .stop, rate: 0.998)
        view.advance(to: second)
        let held = view.contentOffset
        #expect(held > 1_200, "overscrolled past the 1,200 pt edge")
        view.setContentExtent(minY: 0, maxY: 4_000)
        view.advance(to: second + 16_666_667)
        #expect(view.contentOffset == held, "jumped by \(view.contentOffset - held) pt")
        view.advance(to: 3 * second)
        #expect(view.contentOffset == held)
    }

    @Test("after an adjustment the finger's further movement carries on from where the content is")
    func fingerMovesFromAdjustedPlace() {
        var view = ScrollView(viewportHeight: 800, insetTop: 0, insetBottom: 0, contentHeight: 10_000)
        view.beginDrag(
            at: 0, trajectory: [.init(timeNs: 0, displacementPt: 0), .init(timeNs: second, displacementPt: 1_000)],
            release: .stop, rate: 0.998)
        view.advance(to: second / 2)
        #expect(view.contentOffset == 500)
        view.adjust(by: 300)
        view.advance(to: second)
        #expect(view.contentOffset == 1_300)
    }

    @Test("a pull past the top and its stretch invert exactly", arguments: [1.0, 40.0, 100.0, 170.0, 600.0])
    func rubberBandInverts(stretch: Double) {
        let overshoot = ScrollPhysics.fingerOvershoot(forStretch: stretch, dimension: 800)
        #expect(abs(ScrollPhysics.rubberBand(overshoot: overshoot, dimension: 800) - stretch) < 1e-9)
    }
}
