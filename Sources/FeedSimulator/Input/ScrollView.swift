import Foundation

/// The simulated UIScrollView: it owns the content offset, the viewport and
/// its insets, follows a dragging finger with rubber banding past the edges,
/// decelerates after a fling and bounces back from overscroll.
public struct ScrollView: Sendable {
    /// What the scroll view is doing.
    public enum Motion: Sendable, Equatable {
        case resting
        /// Following a finger: `startOffset` plus the trajectory's displacement.
        case dragging(startTime: SimTime, startOffset: Double, trajectory: [TrajectorySample], release: ReleaseBehaviour, rate: Double)
        /// Decelerating from `x0` at `v0` since `startTime`.
        case decelerating(startTime: SimTime, x0: Double, v0: Double, rate: Double)
        /// Springing back to `edge` from `x1` at `v1` since `startTime`.
        case bouncing(startTime: SimTime, edge: Double, x1: Double, v1: Double)
        /// An animated scroll from `from` to `to` (scroll to top).
        case animating(startTime: SimTime, from: Double, to: Double, duration: SimTime)
    }

    /// Length of the animated scroll to the top after a status-bar tap, in
    /// nanoseconds: UIScrollView's scroll-to-top animation takes about 0.3 s.
    public static let scrollToTopDuration: SimTime = 300_000_000

    /// What happens at a drag's lift.
    public enum ReleaseBehaviour: Sendable, Equatable {
        case fling, stop
    }

    /// A finger position relative to the touch-down.
    public struct TrajectorySample: Sendable, Equatable {
        public var time: SimTime
        public var displacement: Double
        public init(time: SimTime, displacement: Double) {
            self.time = time
            self.displacement = displacement
        }
    }

    public private(set) var contentOffset: Double
    public private(set) var motion: Motion = .resting
    public var viewportHeight: Double
    public var insetTop: Double
    public var insetBottom: Double
    /// The smallest resting offset: the top of the content under the top inset.
    public private(set) var minOffset: Double
    /// The largest resting offset: the end of the content above the bottom inset.
    public private(set) var maxOffset: Double

    /// A scroll view over content `[contentMinY, contentMinY + contentHeight)`,
    /// resting at its top.
    public init(viewportHeight: Double, insetTop: Double, insetBottom: Double, contentHeight: Double, contentMinY: Double = 0) {
        self.viewportHeight = viewportHeight
        self.insetTop = insetTop
        self.insetBottom = insetBottom
        self.minOffset = contentMinY - insetTop
        self.maxOffset = max(minOffset, contentMinY + contentHeight + insetBottom - viewportHeight)
        self.contentOffset = minOffset
    }

    /// Sets where the content lies (its extent changed): the range the view
    /// may rest in. A view in motion finds the new edges as it moves.
    public mutating func setContentExtent(minY: Double, maxY: Double) {
        minOffset = minY - insetTop
        maxOffset = max(minOffset, maxY + insetBottom - viewportHeight)
    }

    /// Moves the content by `delta` points without disturbing the motion in
    /// progress: a drag keeps tracking the finger, a deceleration keeps its
    /// velocity (UIKit's contentOffset adjustment during batch updates).
    public mutating func adjust(by delta: Double) {
        contentOffset += delta
        switch motion {
        case .resting:
            break
        case let .dragging(startTime, startOffset, trajectory, release, rate):
            motion = .dragging(startTime: startTime, startOffset: startOffset + delta, trajectory: trajectory, release: release, rate: rate)
        case let .decelerating(startTime, x0, v0, rate):
            motion = .decelerating(startTime: startTime, x0: x0 + delta, v0: v0, rate: rate)
        case let .bouncing(startTime, edge, x1, v1):
            motion = .bouncing(startTime: startTime, edge: edge + delta, x1: x1, v1: v1)
        case let .animating(startTime, from, to, duration):
            motion = .animating(startTime: startTime, from: from + delta, to: to, duration: duration)
        }
    }

    /// Starts the animated scroll to the top (a status-bar tap).
    public mutating func scrollToTop(at time: SimTime) {
        advance(to: time)
        motion = .animating(startTime: time, from: contentOffset, to: minOffset, duration: ScrollView.scrollToTopDuration)
    }

    public var isDragging: Bool {
        if case .dragging = motion { return true }
        return false
    }

    public var isResting: Bool { motion == .resting }

    /// Starts following a finger at `time`; stops any deceleration or bounce.
    public mutating func beginDrag(at time: SimTime, trajectory: [TrajectorySample], release: ReleaseBehaviour, rate: Double) {
        advance(to: time)
        motion = .dragging(startTime: time, startOffset: contentOffset, trajectory: trajectory, release: release, rate: rate)
    }

    /// Starts a deceleration at `time` from the current offset, as a flick does.
    public mutating func fling(at time: SimTime, velocity: Double, rate: Double) {
        advance(to: time)
        startFreeMotion(at: time, from: contentOffset, velocity: velocity, rate: rate)
    }

    /// The time the current drag lifts, if dragging.
    public var dragEndTime: SimTime? {
        if case let .dragging(startTime, _, trajectory, _, _) = motion, let last = trajectory.last {
            return startTime + last.time
        }
        return nil
    }

    /// Moves the scroll view to where its motion puts it at `time`.
    public mutating func advance(to time: SimTime) {
        switch motion {
        case .resting:
            // Content may have shrunk under a resting view: settle to the edge.
            if contentOffset > maxOffset { contentOffset = maxOffset }
            if contentOffset < minOffset { contentOffset = minOffset }
        case let .dragging(startTime, startOffset, trajectory, release, rate):
            let elapsed = time - startTime
            let raw = startOffset + ScrollView.displacement(in: trajectory, at: elapsed)
            contentOffset = rubberBanded(raw)
            if let last = trajectory.last, elapsed >= last.time {
                let velocity = release == .fling ? ScrollView.releaseVelocity(trajectory) : 0
                startFreeMotion(at: time, from: contentOffset, velocity: velocity, rate: rate)
            }
        case let .decelerating(startTime, x0, v0, rate):
            let t = seconds(time - startTime)
            let offset = ScrollPhysics.decelerationOffset(x0: x0, v0: v0, rate: rate, t: t)
            let velocity = ScrollPhysics.decelerationVelocity(v0: v0, rate: rate, t: t)
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
            let progress = min(1, Double(time - startTime) / Double(duration))
            // Ease-out cubic, as UIView animations curve.
            let eased = 1 - pow(1 - progress, 3)
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
    static func displacement(in trajectory: [TrajectorySample], at elapsed: SimTime) -> Double {
        guard let first = trajectory.first, elapsed > first.time else { return trajectory.first?.displacement ?? 0 }
        for i in 1..<trajectory.count where elapsed <= trajectory[i].time {
            let a = trajectory[i - 1], b = trajectory[i]
            let fraction = Double(elapsed - a.time) / Double(b.time - a.time)
            return a.displacement + fraction * (b.displacement - a.displacement)
        }
        return trajectory.last!.displacement
    }

    /// The finger's velocity over the trajectory's last segment, in pt/s.
    static func releaseVelocity(_ trajectory: [TrajectorySample]) -> Double {
        guard trajectory.count >= 2 else { return 0 }
        let a = trajectory[trajectory.count - 2], b = trajectory[trajectory.count - 1]
        return (b.displacement - a.displacement) / seconds(b.time - a.time)
    }
}

func seconds(_ time: SimTime) -> Double { Double(time) / 1e9 }
