/// A source of 64 random bits at a time, with the range reductions every
/// generator here shares: our own, so results never depend on how the
/// standard library maps bits to ranges.
public protocol DeterministicGenerator {
    /// The next 64 random bits.
    mutating func next() -> UInt64
}

extension DeterministicGenerator {
    /// A uniform integer in `0 ..< bound` by Lemire's multiply-and-reject
    /// method ("Fast random integer generation in an interval", 2019): no
    /// modulo bias, one multiplication in the common case.
    @inlinable
    public mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "bound must be positive")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// A uniform integer in `range`.
    @inlinable
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        if span == 0 { return Int(bitPattern: UInt(next())) }
        return range.lowerBound &+ Int(next(below: span))
    }

    /// A uniform double in `[0, 1)` with 53 random bits.
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// `true` with probability `p`.
    @inlinable
    public mutating func chance(_ p: Double) -> Bool {
        nextUnit() < p
    }

    /// A uniform index in `0 ..< count`.
    @inlinable
    public mutating func nextIndex(below count: Int) -> Int {
        precondition(count > 0, "count must be positive")
        return Int(next(below: UInt64(count)))
    }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014): used to expand one seed into generator states.
public struct SplitMix64: DeterministicGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// xoshiro256** (Blackman and Vigna, 2018), the generator every random
/// stream of a run uses. Its range reduction is our own (below), so results
/// never depend on how the standard library maps bits to ranges.
public struct Xoshiro256StarStar: DeterministicGenerator, Sendable {
    @usableFromInline var s0, s1, s2, s3: UInt64

    /// Seeds the four words from SplitMix64, as the authors recommend.
    public init(seed: UInt64) {
        var mix = SplitMix64(seed: seed)
        s0 = mix.next()
        s1 = mix.next()
        s2 = mix.next()
        s3 = mix.next()
    }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        let result = Self.rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotateLeft(s3, 45)
        return result
    }

    @inlinable @inline(__always)
    static func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}
