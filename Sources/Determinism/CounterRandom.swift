import Foundation

/// A counter-based generator: the random bits for a key are a function of
/// the key alone, like Random123's Philox (Salmon et al., "Parallel random
/// numbers: as easy as 1, 2, 3", 2011), here SplitMix64's finaliser chained
/// over the key's words. Drawing for one key never shifts what another key
/// gets, so a change in one frame cannot move the draws of every later one.
public enum CounterRandom {
    /// SplitMix64's output function: a bijective mix of 64 bits.
    @inlinable
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 64 random bits for the key `(a, b, c, d)`.
    @inlinable
    public static func bits(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> UInt64 {
        mix(mix(mix(mix(a) ^ b) ^ c) ^ d)
    }

    /// A uniform double in the open interval (0, 1) for the key.
    @inlinable
    public static func unit(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> Double {
        (Double(bits(a, b, c, d) >> 11) + 0.5) * 0x1.0p-53
    }

    /// A standard normal draw for the key (Box–Muller on two uniforms drawn
    /// from the key and its neighbour).
    @inlinable
    public static func normal(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> Double {
        let u1 = unit(a, b, c, d)
        let u2 = unit(a, b, c, d ^ 0x5555_5555_5555_5555)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A lognormal factor with mean 1 and log-σ `sigma` for the key:
    /// `exp(σ·z − σ²/2)`; exactly 1 when σ is 0.
    @inlinable
    public static func lognormalFactor(sigma: Double, _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> Double {
        guard sigma > 0 else { return 1 }
        return exp(sigma * normal(a, b, c, d) - sigma * sigma / 2)
    }
}
