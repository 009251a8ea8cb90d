import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

@Suite("Scroll physics")
struct ScrollPhysicsTests {
    static let cases: [(hz: Int, rate: Double, velocity: Double)] = [
        (60, 0.998, 3_000), (120, 0.998, 3_000), (60, 0.99, 3_000), (120, 0.99, 3_000),
        (60, 0.998, -8_000), (120, 0.998, 15_000), (60, 0.99, 15_000), (120, 0.99, -8_000),
    ]

    @Test("a fling comes to rest within 1% of x0 − v0/(1000·ln d)", arguments: cases)
    func flingRestsAtPredictedOffset(hz: Int, rate: Double, velocity: Double) {
        let display = Display(refreshHz: hz)
        var view = ScrollView(viewportHeight: 800, insetTop: 0, insetBottom: 0, contentHeight: 10_000_000)
        let x0 = 5_000_000.0
        // Start from the middle of the content: a drag that stops there.
        view.beginDrag(
            at: 0, trajectory: [.init(timeNs: 0, displacementPt: 0), .init(timeNs: 1, displacementPt: x0)],
            release: .stop, rate: rate)
        view.advance(to: 1)
        #expect(view.contentOffset == x0)
        #expect(view.isResting)
        view.fling(at: display.vsyncTime(1), velocity: velocity, rate: rate)
        var vsync: Int64 = 2
        while !view.isResting && vsync < 100_000 {
            view.advance(to: display.vsyncTime(vsync))
            vsync += 1
        }
        #expect(view.isResting, "still moving after \(vsync) vsyncs")
        let predicted = ScrollPhysics.restingOffset(x0: x0, v0: velocity, rate: rate)
        let travel = predicted - x0
        #expect(
            abs(view.contentOffset - predicted) <= abs(travel) * 0.01,
            "\(hz) Hz, d \(rate), v0 \(velocity): rested at \(view.contentOffset), predicted \(predicted)")
        #expect(abs(predicted - (x0 + velocity / (1000 * -log(rate)))) < 1e-6)
    }

    @Test("deceleration follows v(t) = v0·d^(1000t)")
    func velocityCurve() {
        #expect(ScrollPhysics.decelerationVelocity(v0: 1_000, rate: 0.998, t: 0) == 1_000)
        #expect(
            abs(ScrollPhysics.decelerationVelocity(v0: 1_000, rate: 0.998, t: 1) - 1_000 * pow(0.998, 1_000)) < 1e-9)
        #expect(
            abs(
                ScrollPhysics.decelerationOffset(x0: 0, v0: 1_000, rate: 0.99, t: 100)
                    - ScrollPhysics.restingOffset(x0: 0, v0: 1_000, rate: 0.99)) < 1e-6)
    }

    @Test("a frame's offset and velocity from one power of the rate are the formulas' bits")
    func decelerationTogether() {
        let starts = [(-64.0, -12_000.0), (0, -0.75), (0, 3_000), (1_751.015625, 20_000), (1_751.015625, -12_000)]
        for rate in [0.998, 0.99, 0.9995] {
            for (x0, v0) in starts {
                for step in 0..<200 {
                    let t = Double(step) / 120 + Double(step % 7) * 1e-4
                    let both = ScrollPhysics.deceleration(x0: x0, v0: v0, rate: rate, t: t)
                    let offset = x0 + v0 * (pow(rate, 1000 * t) - 1) / (1000 * log(rate))
                    #expect(both.offset.bitPattern == offset.bitPattern, "x0 \(x0), v0 \(v0), d \(rate), t \(t)")
                    #expect(
                        both.velocity.bitPattern
                            == ScrollPhysics.decelerationVelocity(v0: v0, rate: rate, t: t).bitPattern)
                    #expect(
                        ScrollPhysics.decelerationOffset(x0: x0, v0: v0, rate: rate, t: t).bitPattern
                            == offset.bitPattern)
                }
            }
        }
    }

    /// Overshoot, dimension and the band's value worked out by hand.
    static let rubberBandCases: [(Double, Double, Double)] = [
        (0, 800, 0),
        (100, 800, 800 - 800 / 1.06875),
        (800, 800, 800 - 800 / 1.55),
        (400, 400, 400 - 400 / 1.55),
        (1e9, 800, 800),
    ]

    @Test("rubber band: b = (1 − 1/(x·0.55/dim + 1))·dim", arguments: rubberBandCases)
    func rubberBand(overshoot: Double, dimension: Double, expected: Double) {
        let b = ScrollPhysics.rubberBand(overshoot: overshoot, dimension: dimension)
        #expect(abs(b - expected) < 0.01)
        #expect(b <= dimension)
        #expect(b <= overshoot)
    }

    @Test("dragging past the top edge is resisted by the rubber band and bounces back to the edge")
    func dragPastTop() {
        var view = ScrollView(viewportHeight: 800, insetTop: 50, insetBottom: 30, contentHeight: 5_000)
        #expect(view.contentOffset == -50)
        view.beginDrag(
            at: 0, trajectory: [.init(timeNs: 0, displacementPt: 0), .init(timeNs: 100_000_000, displacementPt: -200)],
            release: .stop, rate: 0.998)
        view.advance(to: 100_000_000)
        let expected = -50 - ScrollPhysics.rubberBand(overshoot: 200, dimension: 800)
        #expect(abs(view.contentOffset - expected) < 1e-9)
        #expect(view.contentOffset > -250)
        var t: Int64 = 100_000_000
        while !view.isResting && t < 10_000_000_000 {
            t += 8_333_333
            view.advance(to: t)
            #expect(view.contentOffset <= -50 + 1e-9, "a critically damped bounce never overshoots the edge")
        }
        #expect(view.isResting)
        #expect(view.contentOffset == -50)
    }

    @Test("a fling into the bottom edge overshoots, then settles exactly on the edge")
    func flingIntoBottom() {
        var view = ScrollView(viewportHeight: 800, insetTop: 0, insetBottom: 0, contentHeight: 2_000)
        view.fling(at: 0, velocity: 6_000, rate: 0.998)
        var t: Int64 = 0
        var maximum = 0.0
        while !view.isResting && t < 20_000_000_000 {
            t += 16_666_667
            view.advance(to: t)
            maximum = max(maximum, view.contentOffset)
        }
        #expect(maximum > 1_200, "overshoots past the 1,200 pt edge")
        #expect(view.isResting)
        #expect(view.contentOffset == 1_200)
    }

    @Test("a slow release does not fling")
    func slowReleaseRests() {
        var view = ScrollView(viewportHeight: 800, insetTop: 0, insetBottom: 0, contentHeight: 10_000)
        view.beginDrag(
            at: 0, trajectory: [.init(timeNs: 0, displacementPt: 0), .init(timeNs: 1_000_000_000, displacementPt: 10)],
            release: .fling, rate: 0.998)
        view.advance(to: 1_000_000_000)
        #expect(view.isResting)
        #expect(view.contentOffset == 10)
    }

    @Test(
        """
        a fling's resting point moves only while the content lies between the new edges: a view left past the new \
        end would bounce there, not carry on
        """
    )
    func retargetNeedsTheContentInsideItsEdges() {
        var view = ScrollView(viewportHeight: 800, insetTop: 0, insetBottom: 0, contentHeight: 10_000)
        view.scroll(to: 5_000, at: 0, animated: false)
        view.fling(at: 0, velocity: -400, rate: 0.998)
        view.advance(to: 1_000_000_000)
        let offset = view.contentOffset
        #expect(!view.isResting)
        // Content removed above: the end is now 300 pt above the view, and
        // the resting point 600 pt further up lies between the new edges.
        var refused = view
        let wasRetargeted = refused.retargetDeceleration(by: -600, contentMinY: 0, contentMaxY: 800 + offset - 300)
        #expect(!wasRetargeted)
        #expect(refused.contentOffset == offset)
        // The same move with the view inside the new edges is taken.
        var taken = view
        let wasTaken = taken.retargetDeceleration(by: -600, contentMinY: 0, contentMaxY: 10_000)
        #expect(wasTaken)
    }
}
