/// A 64-bit FNV-1a hash (Fowler, Noll and Vo): fast, simple and the same on
/// every platform and Swift release, for digests that prove two runs or two
/// sets of inputs identical. Not for security.
public struct FNV1a: Sendable, Equatable, Codable {
    @usableFromInline static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    @usableFromInline static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The hash so far; mixed into by code inlined into its callers (a
    /// run's trace digest mixes in several words a frame).
    @usableFromInline var state: UInt64 = FNV1a.offsetBasis

    /// The hash of everything mixed in so far.
    public var value: UInt64 { state }

    enum CodingKeys: String, CodingKey {
        case state = "value"
    }

    public init() {}

    /// The hash of `bytes`, in order: what a file's or a text's digest is.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        combine(bytes: bytes)
    }

    /// Mixes in one byte.
    @inlinable
    public mutating func combine(byte: UInt8) {
        state ^= UInt64(byte)
        state &*= FNV1a.prime
    }

    /// Mixes in `bytes` in order.
    public mutating func combine<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { combine(byte: byte) }
    }

    /// Mixes in the eight bytes of `word`, least significant first.
    @inlinable
    public mutating func combine(_ word: UInt64) {
        var w = word
        for _ in 0..<8 {
            state ^= w & 0xFF
            state &*= FNV1a.prime
            w >>= 8
        }
    }

    @inlinable
    public mutating func combine(_ word: Int64) { combine(UInt64(bitPattern: word)) }
    @inlinable
    public mutating func combine(_ word: Int) { combine(UInt64(bitPattern: Int64(word))) }
    @inlinable
    public mutating func combine(_ value: Double) { combine(value.bitPattern) }

    /// The hash as 16 lowercase hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
