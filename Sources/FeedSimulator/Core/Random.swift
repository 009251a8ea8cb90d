import Determinism

/// The independent random streams of one run, all derived from its seed, so
/// that drawing more numbers in one part of the world never shifts another.
package struct RandomStreams: Sendable {
    /// The parts of the world that draw random numbers.
    package enum Stream: UInt64, CaseIterable, Sendable {
        case content = 0x636F_6E74_656E_7400
        case network = 0x6E65_7477_6F72_6B00
        case input = 0x696E_7075_7400_0000
        case memory = 0x6D65_6D6F_7279_0000
        case server = 0x7365_7276_6572_0000
        case images = 0x696D_6167_6573_0000
    }

    package let seed: UInt64

    package init(seed: UInt64) { self.seed = seed }

    /// A generator for `stream`: the same seed and stream always give the
    /// same sequence.
    package func generator(for stream: Stream) -> Xoshiro256StarStar {
        var mix = SplitMix64(seed: seed ^ stream.rawValue)
        return Xoshiro256StarStar(seed: mix.next())
    }
}
