import FoundationEssentials
import Glibc

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
        bits(Prefix(a).then(b), c, d)
    }

    /// The first words of keys, mixed: the draws for every key that starts
    /// with them start from here. A caller drawing many keys that share
    /// their first words (every draw of a run shares its seed, every draw
    /// of a frame its vsync) mixes those words once; the bits are the same
    /// as from the whole key.
    public struct Prefix: Sendable, Equatable {
        @usableFromInline let state: UInt64

        @inlinable
        init(state: UInt64) { self.state = state }

        /// A key's first word.
        @inlinable
        public init(_ first: UInt64) { self.init(state: CounterRandom.mix(first)) }

        /// These words followed by `word`.
        @inlinable
        public func then(_ word: UInt64) -> Prefix { Prefix(state: CounterRandom.mix(state ^ word)) }
    }

    /// 64 random bits for the key `prefix` followed by `(c, d)`.
    @inlinable
    public static func bits(_ prefix: Prefix, _ c: UInt64, _ d: UInt64) -> UInt64 {
        prefix.then(c).then(d).state
    }

    /// A uniform double in the open interval (0, 1) for the key.
    @inlinable
    public static func unit(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> Double {
        unit(bits: bits(a, b, c, d))
    }

    @inlinable
    static func unit(bits: UInt64) -> Double {
        (Double(bits >> 11) + 0.5) * 0x1.0p-53
    }

    /// A standard normal draw for the key (Box–Muller on two uniforms drawn
    /// from the key and its neighbour).
    @inlinable
    public static func normal(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> Double {
        normal(Prefix(a).then(b), c, d)
    }

    /// A standard normal draw for the key `prefix` followed by `(c, d)`.
    @inlinable
    public static func normal(_ prefix: Prefix, _ c: UInt64, _ d: UInt64) -> Double {
        let head = prefix.then(c)
        let u1 = unit(bits: head.then(d).state)
        let u2 = unit(bits: head.then(d ^ 0x5555_5555_5555_5555).state)
        return Gaussian.boxMuller(u1, u2)
    }

    /// A lognormal factor with mean 1 and log-σ `sigma` for the key:
    /// `exp(σ·z − σ²/2)`; exactly 1 when σ is 0.
    @inlinable
    public static func lognormalFactor(sigma: Double, _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> Double {
        lognormalFactor(sigma: sigma, Prefix(a).then(b), c, d)
    }

    /// A lognormal factor with mean 1 and log-σ `sigma` for the key
    /// `prefix` followed by `(c, d)`.
    @inlinable
    public static func lognormalFactor(sigma: Double, _ prefix: Prefix, _ c: UInt64, _ d: UInt64) -> Double {
        guard sigma > 0 else { return 1 }
        return exp(sigma * normal(prefix, c, d) - sigma * sigma / 2)
    }
}
