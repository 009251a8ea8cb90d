import Determinism
import Testing

@Suite("FNV-1a")
struct FNV1aTests {
    @Test("64-bit FNV-1a gives the published test vectors")
    func publishedVectors() {
        // Fowler, Noll and Vo's test vectors for FNV-1a 64.
        #expect(FNV1a(bytes: []).value == 0xCBF2_9CE4_8422_2325)
        #expect(FNV1a(bytes: Array("a".utf8)).value == 0xAF63_DC4C_8601_EC8C)
        #expect(FNV1a(bytes: Array("foobar".utf8)).value == 0x8594_4171_F739_67E8)
    }

    @Test("a word is mixed in as its eight bytes, least significant first; hex has 16 digits")
    func wordsAreLittleEndianBytes() {
        let word: UInt64 = 0x0123_4567_89AB_CDEF
        var hash = FNV1a()
        hash.combine(word)
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) }
        #expect(hash == FNV1a(bytes: bytes))
        #expect(hash.value == 0x37EB_3F33_4776_1C55)
        var small = FNV1a()
        small.combine(Int(-1))
        #expect(small == FNV1a(bytes: [UInt8](repeating: 0xFF, count: 8)))
        #expect(FNV1a(bytes: [0]).hex.count == 16)
    }
}
