import Determinism
import Foundation
import Testing

@Suite("CounterRandom")
struct CounterRandomTests {
    /// SplitMix64's finaliser, written out here as the generator's
    /// definition: the whole key is mixed word by word, then Box–Muller.
    private static func splitMix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func definedBits(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> UInt64 {
        splitMix(splitMix(splitMix(splitMix(a) ^ b) ^ c) ^ d)
    }

    private static func definedLognormal(sigma: Double, _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> Double {
        guard sigma > 0 else { return 1 }
        let u1 = (Double(definedBits(a, b, c, d) >> 11) + 0.5) * 0x1.0p-53
        let u2 = (Double(definedBits(a, b, c, d ^ 0x5555_5555_5555_5555) >> 11) + 0.5) * 0x1.0p-53
        let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        return exp(sigma * z - sigma * sigma / 2)
    }

    @Test("a key's prefix, mixed once, gives the bits and draws of the whole key")
    func prefixGivesTheWholeKeysDraws() {
        var random = Xoshiro256StarStar(seed: 29)
        let sigmas = [0, 0.05, 0.2, 1.5]
        for round in 0..<4_000 {
            // Small words (vsyncs, operation keys, ids) and any 64 bits.
            let words = (0..<4).map { _ in random.next(below: 2) == 0 ? random.next(below: 1_000) : random.next() }
            let (a, b, c, d) = (words[0], words[1], words[2], words[3])
            let prefix = CounterRandom.Prefix(a).then(b)
            let expected = Self.definedBits(a, b, c, d)
            #expect(CounterRandom.bits(a, b, c, d) == expected)
            #expect(CounterRandom.bits(prefix, c, d) == expected)
            let sigma = sigmas[round % sigmas.count]
            let factor = Self.definedLognormal(sigma: sigma, a, b, c, d)
            #expect(CounterRandom.lognormalFactor(sigma: sigma, a, b, c, d).bitPattern == factor.bitPattern)
            #expect(CounterRandom.lognormalFactor(sigma: sigma, prefix, c, d).bitPattern == factor.bitPattern)
        }
    }
}
