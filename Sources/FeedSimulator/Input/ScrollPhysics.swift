import FoundationEssentials
import Glibc

/// The formulas of UIScrollView's motion. Offsets in points, velocities in
/// points per second, times in seconds.
package enum ScrollPhysics {
    /// The rubber-band constant of UIScrollView's edge resistance.
    package static let rubberBandCoefficient = 0.55

    /// Below this speed a decelerating scroll view comes to rest, in pt/s.
    /// At rate 0.998 the distance left is then under 0.5 pt, less than
    /// two pixels at @3x.
    package static let restingSpeed = 1.0

    /// The fastest release that still ends a drag without a fling, in pt/s.
    package static let minimumFlingSpeed = 50.0

    /// Angular frequency of the critically damped spring that pulls an
    /// overscrolled view back to its edge, in 1/s: a 1,000 pt/s overshoot
    /// peaks near 30 pt and is home in about half a second, as UIScrollView's
    /// bounce looks.
    package static let bounceAngularFrequency = 12.0

    /// A bounce ends when it is this close to the edge and this slow.
    package static let bounceRestDistance = 0.25
    package static let bounceRestSpeed = 5.0

    /// Offset after `t` seconds of deceleration from `x0` at `v0` with rate
    /// `d` per millisecond: `x0 + v0·(d^(1000t) − 1)/(1000·ln d)`.
    package static func decelerationOffset(x0: Double, v0: Double, rate d: Double, t: Double) -> Double {
        deceleration(x0: x0, v0: v0, rate: d, t: t).offset
    }

    /// Offset and velocity after `t` seconds of deceleration, from one
    /// `d^(1000t)`: what every frame of a fling reads, the same bits as
    /// `decelerationOffset` and `decelerationVelocity` give.
    package static func deceleration(
        x0: Double, v0: Double, rate d: Double, t: Double
    ) -> (offset: Double, velocity: Double) {
        let decay = pow(d, 1000 * t)
        return (x0 + v0 * (decay - 1) / (1000 * log(d)), v0 * decay)
    }

    /// Velocity after `t` seconds of deceleration: `v0·d^(1000t)`.
    package static func decelerationVelocity(v0: Double, rate d: Double, t: Double) -> Double {
        v0 * pow(d, 1000 * t)
    }

    /// Where a deceleration comes to rest: `x0 − v0/(1000·ln d)`.
    package static func restingOffset(x0: Double, v0: Double, rate d: Double) -> Double {
        x0 - v0 / (1000 * log(d))
    }

    /// Seconds until a deceleration from `v0` slows to `speed`.
    package static func decelerationDuration(v0: Double, rate d: Double, toSpeed speed: Double) -> Double {
        guard abs(v0) > speed else { return 0 }
        return log(speed / abs(v0)) / (1000 * log(d))
    }

    /// Rubber-band displacement for `overshoot` points past an edge of a view
    /// `dimension` points long: `(1 − 1/(x·c/dim + 1))·dim`, never more than `dim`.
    package static func rubberBand(overshoot x: Double, dimension: Double) -> Double {
        guard x > 0, dimension > 0 else { return 0 }
        return (1 - 1 / (x * rubberBandCoefficient / dimension + 1)) * dimension
    }

    /// The largest stretch a finger can hold, as a fraction of the
    /// dimension: the rubber band approaches the dimension and never reaches
    /// it, so a stretch the app forces beyond this is held at this.
    package static let maximumStretchFraction = 0.999

    /// The finger's overshoot past an edge that the rubber band turns into
    /// `stretch` points, the inverse of `rubberBand`:
    /// `x = dim·b / ((dim − b)·c)`.
    package static func fingerOvershoot(forStretch stretch: Double, dimension: Double) -> Double {
        guard stretch > 0, dimension > 0 else { return 0 }
        let b = min(stretch, dimension * maximumStretchFraction)
        return dimension * b / ((dimension - b) * rubberBandCoefficient)
    }

    /// A critically damped spring toward 0 from displacement `x1` with
    /// velocity `v1`: displacement and velocity after `t` seconds.
    package static func bounce(x1: Double, v1: Double, t: Double) -> (offset: Double, velocity: Double) {
        let w = bounceAngularFrequency
        let decay = exp(-w * t)
        let b = v1 + w * x1
        return ((x1 + b * t) * decay, (b - w * (x1 + b * t)) * decay)
    }
}
