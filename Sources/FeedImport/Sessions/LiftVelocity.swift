/// The velocity a recorded drag is released at, in points per second
/// (positive scrolls towards later posts): what a UIKit scroll view would
/// decelerate from, estimated from the last touch samples.
///
/// UIKit does not publish its estimate. This is Flutter's model of it,
/// `IOSScrollViewFlingVelocityTracker` (flutter/flutter,
/// `packages/flutter/lib/src/gestures/velocity_tracker.dart`): a weighted
/// average of the velocities between the last four samples, 0.6 on the
/// oldest pair, 0.35 on the next and 0.05 on the newest, so the flick a
/// finger gives as it lifts barely counts; a missing pair counts as 0.
/// A lift more than 40 ms after the previous sample is a finger that
/// stopped first, and releases at 0 (Flutter's `VelocityTracker`,
/// `_assumePointerMoveStoppedMilliseconds`).
package enum LiftVelocity {
    /// Weights of the last three sample-to-sample velocities, oldest first.
    package static let weights = [0.6, 0.35, 0.05]
    /// A lift this long after the previous sample releases at 0, in ns.
    package static let stoppedAfterNs: Int64 = 40_000_000

    /// The release velocity of `gesture`.
    package static func estimate(_ gesture: RecordedGesture) -> Double {
        let samples = gesture.samples
        guard samples.count >= 2 else { return 0 }
        if samples[samples.count - 1].timeNs - samples[samples.count - 2].timeNs > stoppedAfterNs { return 0 }
        var velocity = 0.0
        for (offset, weight) in weights.enumerated() {
            // offset 0 is the oldest of the three pairs: it ends three samples before the last.
            let end = samples.count - weights.count + offset
            guard end >= 1 else { continue }
            let a = samples[end - 1], b = samples[end]
            // The finger moving up (y decreasing) scrolls towards later posts.
            velocity += weight * (a.yPt - b.yPt) / (Double(b.timeNs - a.timeNs) / 1e9)
        }
        return velocity
    }
}
