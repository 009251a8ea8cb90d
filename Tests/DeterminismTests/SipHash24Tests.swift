import Determinism
import Testing

@Suite("SipHash-2-4")
struct SipHash24Tests {
    /// The reference implementation's vectors (Aumasson and Bernstein's
    /// `vectors.h`, `vectors_sip64`): key 00 01 … 0f, message 00 01 … (n − 1),
    /// each output's 8 bytes read least significant first.
    static let vectors: [(length: Int, hash: UInt64)] = [
        (0, 0x726F_DB47_DD0E_0E31), (1, 0x74F8_39C5_93DC_67FD), (2, 0x0D6C_8009_D9A9_4F5A),
        (3, 0x8567_6696_D7FB_7E2D), (7, 0xAB02_00F5_8B01_D137), (8, 0x93F5_F579_9A93_2462),
        (15, 0xA129_CA61_49BE_45E5),
    ]

    @Test("gives the reference vectors, across the block boundaries", arguments: vectors.indices)
    func reference(_ index: Int) {
        let (length, expected) = SipHash24Tests.vectors[index]
        let hash = SipHash24(key: Array(0..<16))
        #expect(hash.hash((0..<length).map(UInt8.init)) == expected, "message of \(length) bytes")
    }
}
