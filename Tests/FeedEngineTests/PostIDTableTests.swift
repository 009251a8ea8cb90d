import Determinism
import Testing

@testable import FeedEngine

@Suite("PostIDTable")
struct PostIDTableTests {
    @Test("a map answers as a dictionary does through growth, overwrites, clears and copies")
    func mapMatchesDictionary() {
        var random = Xoshiro256StarStar(seed: 11)
        var table = PostIDMap()
        var reference: [UInt32: UInt32] = [:]
        #expect(table[0] == nil)
        for round in 0..<6 {
            // Dense ids, sparse ids and the largest ids a post stores.
            for _ in 0..<3_000 {
                let id: UInt32 =
                    switch random.next(below: 3) {
                    case 0: UInt32(random.next(below: 4_000))
                    case 1: UInt32(truncatingIfNeeded: random.next()) % (UInt32.max - 1)
                    default: UInt32.max - 1 - UInt32(random.next(below: 8))
                    }
                let value = UInt32(truncatingIfNeeded: random.next())
                if random.next(below: 2) == 0 {
                    let old = table.updateValue(value, forKey: id)
                    #expect(old == reference.updateValue(value, forKey: id))
                } else {
                    let expected = reference[id] == nil
                    if expected { reference[id] = value }
                    let inserted = table.insert(value, forKey: id)
                    #expect(inserted == expected)
                }
            }
            #expect(table.count == reference.count)
            for _ in 0..<3_000 {
                let id = UInt32(random.next(below: 5_000))
                #expect(table[id] == reference[id])
            }
            for (id, value) in reference.sorted(by: { $0.key < $1.key }) { #expect(table[id] == value) }
            let copy = table
            table.removeAll(keepingCapacity: round % 2 == 0)
            reference.removeAll()
            #expect(table.count == 0 && table[1] == nil)
            #expect(copy.count > 0, "a copy keeps its entries when the original is cleared")
        }
    }

    @Test("a set of 32-bit slots holds ids alone, and a capacity reserved up front holds that many")
    func setAndCapacity() {
        var set = PostIDSet(minimumCapacity: 1_000)
        for id in stride(from: PostID(0), to: 3_000, by: 3) {
            let inserted = set.insert(id)
            #expect(inserted)
        }
        let again = set.insert(3)
        #expect(!again)
        #expect(set.count == 1_000)
        for id in PostID(0)..<3_000 { #expect(set.contains(id) == (id % 3 == 0)) }
        #expect(!set.contains(PostID(UInt32.max - 1)))
        let largest = set.insert(PostID(UInt32.max - 1))
        #expect(largest && set.contains(PostID(UInt32.max - 1)))
    }
}
