/// SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
/// 2012): a keyed hash of 64 bits, made for hashing short inputs under a
/// secret key. The same on every platform and Swift release (the standard
/// library's `Hasher` is seeded per process).
public struct SipHash24: Sendable {
    private let k0: UInt64
    private let k1: UInt64

    /// A hash keyed by the 16 bytes of `key`, read as two little-endian words.
    public init(key: [UInt8]) {
        precondition(key.count == 16, "a SipHash key is 16 bytes")
        k0 = SipHash24.word(key, at: 0)
        k1 = SipHash24.word(key, at: 8)
    }

    /// The 8 bytes at `start` of `bytes`, least significant first.
    private static func word(_ bytes: [UInt8], at start: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << (8 * UInt64($1)) }
    }

    /// The hash of `message`.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    public func hash(_ message: [UInt8]) -> UInt64 {
        var state = (
            k0 ^ 0x736F_6D65_7073_6575, k1 ^ 0x646F_7261_6E64_6F6D,
            k0 ^ 0x6C79_6765_6E65_7261, k1 ^ 0x7465_6462_7974_6573
        )
        let whole = message.count / 8 * 8
        var start = 0
        while start < whole {
            let m = SipHash24.word(message, at: start)
            state.3 ^= m
            SipHash24.rounds(2, &state)
            state.0 ^= m
            start += 8
        }
        // The last block: the remaining bytes and the length's low byte on top.
        var last = UInt64(truncatingIfNeeded: message.count) << 56
        for (offset, byte) in message[whole...].enumerated() { last |= UInt64(byte) << (8 * UInt64(offset)) }
        state.3 ^= last
        SipHash24.rounds(2, &state)
        state.0 ^= last
        state.2 ^= 0xFF
        SipHash24.rounds(4, &state)
        return state.0 ^ state.1 ^ state.2 ^ state.3
    }

    /// `count` SipRounds.
    private static func rounds(_ count: Int, _ v: inout (UInt64, UInt64, UInt64, UInt64)) {
        for _ in 0..<count {
            v.0 &+= v.1
            v.1 = v.1.rotatedLeft(13) ^ v.0
            v.0 = v.0.rotatedLeft(32)
            v.2 &+= v.3
            v.3 = v.3.rotatedLeft(16) ^ v.2
            v.0 &+= v.3
            v.3 = v.3.rotatedLeft(21) ^ v.0
            v.2 &+= v.1
            v.1 = v.1.rotatedLeft(17) ^ v.2
            v.2 = v.2.rotatedLeft(32)
        }
    }
}

extension UInt64 {
    /// The word rotated left by `bits` (0 < bits < 64).
    fileprivate func rotatedLeft(_ bits: UInt64) -> UInt64 {
        (self << bits) | (self >> (64 - bits))
    }
}
