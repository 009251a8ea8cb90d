#if canImport(Glibc)
import Glibc
#endif

/// Normal deviates from uniform ones, the same on every platform.
public enum Gaussian {
    /// The Box–Muller transform (Box and Muller, "A note on the generation
    /// of random normal deviates", 1958): a standard normal deviate
    /// `√(−2 ln U₁)·cos(2π U₂)` from `u1` in `(0, 1]` and `u2` in `[0, 1)`.
    /// The paired sine deviate is discarded, so a normal draw costs exactly
    /// two uniforms.
    @inlinable
    public static func boxMuller(_ u1: Double, _ u2: Double) -> Double {
        (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
