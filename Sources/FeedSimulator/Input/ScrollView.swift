import FeedScenario
import FoundationEssentials
import Glibc

/// The simulated UIScrollView: it owns the content offset, the viewport and
/// its insets, follows a dragging finger with rubber banding past the edges,
/// decelerates after a fling and bounces back from overscroll.
package struct ScrollView: Sendable {
    /// What the scroll view is doing.
    package enum Motion: Sendable, Equatable {
        case resting
        /// Following a finger: `startOffset` plus the trajectory's displacement.
        case dragging(
            startTime: SimTime, startOffset: Double, trajectory: [TrajectoryPoint], release: DragRelease, rate: Double)
        /// Decelerating from `x0` at `v0` since `startTime`.
        case decelerating(startTime: SimTime, x0: Double, v0: Double, rate: Double)
        /// Springing back to `edge` from `x1` at `v1` since `startTime`.
        case bouncing(startTime: SimTime, edge: Double, x1: Double, v1: Double)
        /// An animated scroll from `from` to `to` (scroll to top).
        case animating(startTime: SimTime, from: Double, to: Double, duration: SimTime)
    }

    /// Length of an animated scroll (a status-bar tap, `setContentOffset`
    /// animated), in nanoseconds: UIScrollView's animation takes about 0.3 s.
    package static let animatedScrollDuration: SimTime = 300_000_000

    package private(set) var contentOffset: Double
    package private(set) var motion: Motion = .resting
    /// The simulated time `contentOffset` is for: the last `advance`.
    package private(set) var time: SimTime = 0
    /// The viewport's height, which is also the rubber band's dimension.
    /// A new height (a rotation) moves the largest resting offset with it
    /// (the content is where it was, its end now that much nearer the
    /// viewport's top), and a finger holding the content past an edge keeps
    /// it where it is, stretched against the new edge.
    package var viewportHeight: Double {
        didSet {
            setEdges(contentMinY: contentMinY, contentMaxY: contentMaxY)
            keepContentUnderFinger()
        }
    }
    /// Where the content lies, as last set: the edges follow from it and the
    /// viewport's height.
    private var contentMinY: Double
    private var contentMaxY: Double
    package var insetTop: Double
    package var insetBottom: Double
    /// The smallest resting offset: the top of the content under the top inset.
    package private(set) var minOffset: Double
    /// The largest resting offset: the end of the content above the bottom inset.
    package private(set) var maxOffset: Double

    /// A scroll view over content `[contentMinY, contentMinY + contentHeight)`,
    /// resting at its top.
    package init(
        viewportHeight: Double, insetTop: Double, insetBottom: Double, contentHeight: Double, contentMinY: Double = 0
    ) {
        self.viewportHeight = viewportHeight
        self.insetTop = insetTop
        self.insetBottom = insetBottom
        self.contentMinY = contentMinY
        self.contentMaxY = contentMinY + contentHeight
        self.minOffset = contentMinY - insetTop
        self.maxOffset = max(minOffset, contentMinY + contentHeight + insetBottom - viewportHeight)
        self.contentOffset = minOffset
    }

    /// Sets where the content lies (its extent changed): the range the view
    /// may rest in. A view in motion finds the new edges as it moves.
    /// A finger holding the content keeps holding it where it is: past an
    /// edge that moved, the stretch is the same but the rubber band's
    /// reference is not.
    package mutating func setContentExtent(minY: Double, maxY: Double) {
        setEdges(contentMinY: minY, contentMaxY: maxY)
        keepContentUnderFinger()
    }

    /// The resting range for content over `[contentMinY, contentMaxY)`.
    private mutating func setEdges(contentMinY: Double, contentMaxY: Double) {
        (self.contentMinY, self.contentMaxY) = (contentMinY, contentMaxY)
        (minOffset, maxOffset) = edges(contentMinY: contentMinY, contentMaxY: contentMaxY)
    }

    /// The smallest and largest resting offsets over `[contentMinY, contentMaxY)`.
    func edges(contentMinY: Double, contentMaxY: Double) -> (min: Double, max: Double) {
        let low = contentMinY - insetTop
        return (low, max(low, contentMaxY + insetBottom - viewportHeight))
    }

    /// A resting view whose content shrank under it (cells measured shorter
    /// than estimated) settles to the nearest edge, as UIScrollView clamps
    /// its offset when its content size changes. Returns whether it moved.
    package mutating func settleIntoExtent() -> Bool {
        guard motion == .resting else { return false }
        let settled = min(max(contentOffset, minOffset), maxOffset)
        guard settled != contentOffset else { return false }
        contentOffset = settled
        return true
    }

    /// When the animated scroll in progress started, if one is.
    package var animationStart: SimTime? {
        if case let .animating(startTime, _, _, _) = motion { return startTime }
        return nil
    }

    /// An animated scroll `elapsed` into its `duration`: the share of its
    /// time gone, and of its way, on an ease-out cubic, as UIView
    /// animations curve.
    static func animationCurve(at elapsed: SimTime, of duration: SimTime) -> (progress: Double, eased: Double) {
        let progress = min(1, Double(elapsed) / Double(duration))
        return (progress, 1 - pow(1 - progress, 3))
    }

    /// Points an animated scroll in progress at `offset` (clamped to the
    /// edges), from where it is now, over the time it has left: the
    /// content goes on from its current place without a jump.
    package mutating func retargetAnimation(to offset: Double) {
        guard case let .animating(startTime, from, to, duration) = motion else { return }
        let target = min(max(offset, minOffset), maxOffset)
        guard target != to else { return }
        let eased = ScrollView.animationCurve(at: time - startTime, of: duration).eased
        // The same curve, through the current offset at the current time.
        let newFrom = eased < 1 ? (contentOffset - target * eased) / (1 - eased) : from
        motion = .animating(startTime: startTime, from: newFrom, to: target, duration: duration)
    }

    /// Moves an animated scroll's destination by `delta` points; any other
    /// motion is left as it is.
    package mutating func shiftDestination(by delta: Double) {
        if case let .animating(startTime, from, to, duration) = motion {
            motion = .animating(startTime: startTime, from: from, to: to + delta, duration: duration)
        }
    }

    /// Moves the content by `delta` points without disturbing the motion in
    /// progress: a drag keeps tracking the finger from the new place, a
    /// deceleration keeps its velocity (UIKit's contentOffset adjustment
    /// during batch updates). With `contentMinY` and `contentMaxY`, the
    /// content's extent has changed with the move (a batch update sets the
    /// content size, then adjusts the offset): a finger holds the content at
    /// the new offset against the new edges, and the offset the move starts
    /// from is the one the app read, not one re-stretched against edges
    /// it had not yet been given.
    package mutating func adjust(by delta: Double, contentMinY: Double? = nil, contentMaxY: Double? = nil) {
        if let contentMinY, let contentMaxY { setEdges(contentMinY: contentMinY, contentMaxY: contentMaxY) }
        contentOffset += delta
        switch motion {
        case .resting:
            break
        case .dragging:
            keepContentUnderFinger()
        case let .decelerating(startTime, x0, v0, rate):
            motion = .decelerating(startTime: startTime, x0: x0 + delta, v0: v0, rate: rate)
        case let .bouncing(startTime, edge, x1, v1):
            motion = .bouncing(startTime: startTime, edge: edge + delta, x1: x1, v1: v1)
        case let .animating(startTime, from, to, duration):
            motion = .animating(startTime: startTime, from: from + delta, to: to, duration: duration)
        }
    }

    /// Moves where a free deceleration comes to rest by `delta` points and
    /// leaves the content where it is: the deceleration restarts from here,
    /// at the rate it had, with the speed that carries it `delta` further
    /// (the remaining distance is proportional to the speed). With
    /// `contentMinY` and `contentMaxY` the content's extent changed with it,
    /// as in `adjust(by:contentMinY:contentMaxY:)`. Returns `false`, and
    /// changes nothing, unless the view is decelerating and the new resting
    /// point lies ahead of the content, far enough to be a fling's
    /// (`ScrollPhysics.minimumFlingSpeed`), and it and the view lie between
    /// the edges: a target moved behind the content would turn it round,
    /// which no fling does, one past an edge is not where the fling would
    /// rest, and a view past an edge bounces back to it.
    package mutating func retargetDeceleration(
        by delta: Double, contentMinY: Double? = nil, contentMaxY: Double? = nil
    ) -> Bool {
        guard case let .decelerating(startTime, _, v0, rate) = motion else { return false }
        let velocity = ScrollPhysics.decelerationVelocity(v0: v0, rate: rate, t: seconds(time - startTime))
        let remaining = ScrollPhysics.restingOffset(x0: contentOffset, v0: velocity, rate: rate) - contentOffset
        let retargeted = remaining + delta
        guard remaining != 0, retargeted * remaining > 0 else { return false }
        let speed = velocity * retargeted / remaining
        guard abs(speed) >= ScrollPhysics.minimumFlingSpeed else { return false }
        // A fling that would rest past an edge rests at the edge, wherever
        // its target: only a resting point inside the content can be moved.
        // Nor can a view the change left past an edge carry on: it bounces
        // back to that edge at once.
        var (low, high) = (minOffset, maxOffset)
        if let contentMinY, let contentMaxY { (low, high) = edges(contentMinY: contentMinY, contentMaxY: contentMaxY) }
        let rest = contentOffset + retargeted
        guard rest >= low, rest <= high, contentOffset >= low, contentOffset <= high else { return false }
        (minOffset, maxOffset) = (low, high)
        motion = .decelerating(startTime: time, x0: contentOffset, v0: speed, rate: rate)
        retargets += 1
        return true
    }

    /// How many times a deceleration's resting point was moved
    /// (`retargetDeceleration`): the drift meter judges the changes that did
    /// it where the motion ends.
    package private(set) var retargets = 0

    /// Starts the animated scroll to the top (a status-bar tap).
    package mutating func scrollToTop(at time: SimTime) {
        scroll(to: minOffset, at: time, animated: true)
    }

    /// Scrolls to `offset`, clamped to the content, as
    /// `setContentOffset(_:animated:)` does: at once, or animated over
    /// `animatedScrollDuration`. Any motion in progress stops.
    package mutating func scroll(to offset: Double, at time: SimTime, animated: Bool) {
        advance(to: time)
        let target = min(max(offset, minOffset), maxOffset)
        if animated {
            motion = .animating(
                startTime: time, from: contentOffset, to: target, duration: ScrollView.animatedScrollDuration)
        } else {
            motion = .resting
            contentOffset = target
        }
    }

    package var isDragging: Bool {
        if case .dragging = motion { return true }
        return false
    }

    package var isResting: Bool { motion == .resting }

    /// Decelerating freely after a fling.
    package var isDecelerating: Bool {
        if case .decelerating = motion { return true }
        return false
    }

    /// In an animated scroll to a place the reader chose (a status-bar tap,
    /// an animated `scroll_to`).
    package var isAnimatingScroll: Bool {
        if case .animating = motion { return true }
        return false
    }

    /// Starts following a finger at `time`; stops any deceleration or bounce.
    package mutating func beginDrag(at time: SimTime, trajectory: [TrajectoryPoint], release: DragRelease, rate: Double)
    {
        advance(to: time)
        motion = .dragging(
            startTime: time, startOffset: contentOffset, trajectory: trajectory, release: release, rate: rate)
    }

    /// Starts a deceleration at `time` from the current offset, as a flick does.
    package mutating func fling(at time: SimTime, velocity: Double, rate: Double) {
        advance(to: time)
        startFreeMotion(at: time, from: contentOffset, velocity: velocity, rate: rate)
    }

    /// The time the current drag lifts, if dragging.
    package var dragEndTime: SimTime? {
        if case let .dragging(startTime, _, trajectory, _, _) = motion, let last = trajectory.last {
            return startTime + last.timeNs
        }
        return nil
    }

    /// Moves the scroll view to where its motion puts it at `time`.
    package mutating func advance(to time: SimTime) {
        self.time = time
        switch motion {
        case .resting:
            // Content may have shrunk under a resting view: settle to the edge.
            if contentOffset > maxOffset { contentOffset = maxOffset }
            if contentOffset < minOffset { contentOffset = minOffset }
        case let .dragging(startTime, startOffset, trajectory, release, rate):
            let elapsed = time - startTime
            if let last = trajectory.last, elapsed > last.timeNs {
                // Advanced past the lift in one step: the free motion starts
                // at the lift, where the finger left the content, and runs
                // from there to `time`.
                advance(to: startTime + last.timeNs)
                advance(to: time)
                return
            }
            let raw = startOffset + ScrollView.displacement(in: trajectory, at: elapsed)
            contentOffset = rubberBanded(raw)
            if let last = trajectory.last, elapsed == last.timeNs {
                let velocity = release == .fling ? ScrollView.releaseVelocity(trajectory) : 0
                startFreeMotion(at: time, from: contentOffset, velocity: velocity, rate: rate)
            }
        case let .decelerating(startTime, x0, v0, rate):
            let t = seconds(time - startTime)
            let (offset, velocity) = ScrollPhysics.deceleration(x0: x0, v0: v0, rate: rate, t: t)
            if offset < minOffset || offset > maxOffset {
                let edge = offset < minOffset ? minOffset : maxOffset
                motion = .bouncing(startTime: time, edge: edge, x1: offset - edge, v1: velocity)
                contentOffset = offset
            } else if abs(velocity) < ScrollPhysics.restingSpeed {
                contentOffset = offset
                motion = .resting
            } else {
                contentOffset = offset
            }
        case let .animating(startTime, from, to, duration):
            let (progress, eased) = ScrollView.animationCurve(at: time - startTime, of: duration)
            contentOffset = from + (to - from) * eased
            if progress >= 1 {
                contentOffset = min(max(to, minOffset), maxOffset)
                motion = .resting
            }
        case let .bouncing(startTime, edge, x1, v1):
            let (x, v) = ScrollPhysics.bounce(x1: x1, v1: v1, t: seconds(time - startTime))
            let target = min(max(edge, minOffset), maxOffset)
            if abs(x) < ScrollPhysics.bounceRestDistance && abs(v) < ScrollPhysics.bounceRestSpeed {
                contentOffset = target
                motion = .resting
            } else {
                contentOffset = target + x
            }
        }
    }

    /// Begins decelerating, bouncing or resting from `offset` with `velocity`.
    private mutating func startFreeMotion(at time: SimTime, from offset: Double, velocity: Double, rate: Double) {
        if offset < minOffset || offset > maxOffset {
            let edge = offset < minOffset ? minOffset : maxOffset
            motion = .bouncing(startTime: time, edge: edge, x1: offset - edge, v1: velocity)
        } else if abs(velocity) >= ScrollPhysics.minimumFlingSpeed {
            motion = .decelerating(startTime: time, x0: offset, v0: velocity, rate: rate)
        } else {
            motion = .resting
        }
    }

    /// Moves a drag's reference so that the finger, where it is now, holds
    /// the content at `contentOffset`: UIScrollView's pan follows the
    /// finger's movement from the offset it finds, so a change the app makes
    /// under a still finger stays put. Past an edge the reference is the
    /// finger position whose rubber-banded stretch is the current one.
    private mutating func keepContentUnderFinger() {
        guard case let .dragging(startTime, _, trajectory, release, rate) = motion else { return }
        let finger = ScrollView.displacement(in: trajectory, at: time - startTime)
        let raw: Double
        if contentOffset < minOffset {
            raw =
                minOffset
                - ScrollPhysics.fingerOvershoot(forStretch: minOffset - contentOffset, dimension: viewportHeight)
        } else if contentOffset > maxOffset {
            raw =
                maxOffset
                + ScrollPhysics.fingerOvershoot(forStretch: contentOffset - maxOffset, dimension: viewportHeight)
        } else {
            raw = contentOffset
        }
        motion = .dragging(
            startTime: startTime, startOffset: raw - finger, trajectory: trajectory, release: release, rate: rate)
        contentOffset = rubberBanded(raw)
    }

    /// Applies rubber-band resistance to a finger-driven offset past an edge.
    func rubberBanded(_ raw: Double) -> Double {
        if raw < minOffset {
            return minOffset - ScrollPhysics.rubberBand(overshoot: minOffset - raw, dimension: viewportHeight)
        }
        if raw > maxOffset {
            return maxOffset + ScrollPhysics.rubberBand(overshoot: raw - maxOffset, dimension: viewportHeight)
        }
        return raw
    }

    /// The finger's displacement at `elapsed`, linear between samples.
    static func displacement(in trajectory: [TrajectoryPoint], at elapsed: SimTime) -> Double {
        guard let first = trajectory.first, elapsed > first.timeNs else { return trajectory.first?.displacementPt ?? 0 }
        for i in 1..<trajectory.count where elapsed <= trajectory[i].timeNs {
            let a = trajectory[i - 1], b = trajectory[i]
            let fraction = Double(elapsed - a.timeNs) / Double(b.timeNs - a.timeNs)
            return a.displacementPt + fraction * (b.displacementPt - a.displacementPt)
        }
        return trajectory.last!.displacementPt
    }

    /// The finger's velocity over the trajectory's last segment, in pt/s.
    static func releaseVelocity(_ trajectory: [TrajectoryPoint]) -> Double {
        guard trajectory.count >= 2 else { return 0 }
        let a = trajectory[trajectory.count - 2], b = trajectory[trajectory.count - 1]
        return (b.displacementPt - a.displacementPt) / seconds(b.timeNs - a.timeNs)
    }
}

func seconds(_ time: SimTime) -> Double { Double(time) / 1e9 }
