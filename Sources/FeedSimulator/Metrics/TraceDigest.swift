/// A 64-bit FNV-1a hash of a run's event stream: two runs with the same
/// digest processed the same events at the same times with the same results.
public struct TraceDigest: Sendable, Equatable {
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    public private(set) var value: UInt64 = TraceDigest.offsetBasis

    public init() {}

    /// Mixes in the eight bytes of `word`, least significant first.
    public mutating func combine(_ word: UInt64) {
        var w = word
        for _ in 0..<8 {
            value ^= w & 0xFF
            value &*= TraceDigest.prime
            w >>= 8
        }
    }

    public mutating func combine(_ word: Int64) { combine(UInt64(bitPattern: word)) }
    public mutating func combine(_ word: Int) { combine(UInt64(bitPattern: Int64(word))) }
    public mutating func combine(_ value: Double) { combine(value.bitPattern) }

    /// The digest as 16 lowercase hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
