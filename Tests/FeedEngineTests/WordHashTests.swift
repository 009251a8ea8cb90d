import Testing

@testable import FeedEngine

@Suite("WordHash")
struct WordHashTests {
    /// Every page of a run of posts, the keys a feed's image tables hold.
    private static let keys = (1...3_000).flatMap { id in (0..<3).map { ImageKey(postID: PostID(id), index: $0) } }

    @Test("image keys spread over a table's buckets as random hashes would", arguments: [0, 1, -7, Int.max])
    func imageKeysSpread(seed: Int) {
        let buckets = 1 << 14
        var occupied = [Int](repeating: 0, count: buckets)
        for key in Self.keys { occupied[key._rawHashValue(seed: seed) & (buckets - 1)] += 1 }
        // 9,000 keys thrown at random into 16,384 buckets fill 6,924 of
        // them on average, with a fullest bucket of 5 or 6; consecutive ids
        // and pages must not do worse.
        let used = occupied.filter { $0 > 0 }.count
        #expect(used > 6_700, "seed \(seed): \(used) buckets used")
        #expect(occupied.max()! <= 8, "seed \(seed): a bucket of \(occupied.max()!)")
    }

    @Test("consecutive post ids spread over a table's buckets as random hashes would", arguments: [0, 1, -7, Int.max])
    func postKeysSpread(seed: Int) {
        let buckets = 1 << 14
        var occupied = [Int](repeating: 0, count: buckets)
        for id in 1...9_000 { occupied[PostKey(PostID(id))._rawHashValue(seed: seed) & (buckets - 1)] += 1 }
        let used = occupied.filter { $0 > 0 }.count
        #expect(used > 6_700, "seed \(seed): \(used) buckets used")
        #expect(occupied.max()! <= 8, "seed \(seed): a bucket of \(occupied.max()!)")
    }

    @Test("equal keys hash alike, and one key's page or post moves it")
    func equalKeysHashAlike() {
        let key = ImageKey(postID: 42, index: 1)
        #expect(key._rawHashValue(seed: 9) == ImageKey(postID: 42, index: 1)._rawHashValue(seed: 9))
        #expect(key._rawHashValue(seed: 9) != ImageKey(postID: 42, index: 0)._rawHashValue(seed: 9))
        #expect(key._rawHashValue(seed: 9) != ImageKey(postID: 43, index: 1)._rawHashValue(seed: 9))
        #expect(key._rawHashValue(seed: 9) != key._rawHashValue(seed: 10))
        #expect(PostKey(42)._rawHashValue(seed: 3) == PostKey(42)._rawHashValue(seed: 3))
        #expect(PostKey(42)._rawHashValue(seed: 3) != PostKey(43)._rawHashValue(seed: 3))
    }

    @Test("a dictionary of image keys finds, replaces and removes every key")
    func dictionaryOfImageKeys() {
        var table: [ImageKey: Int] = [:]
        for (position, key) in Self.keys.enumerated() { table[key] = position }
        #expect(table.count == Self.keys.count)
        for (position, key) in Self.keys.enumerated() { #expect(table[key] == position) }
        for key in Self.keys where key.postID % 2 == 0 { table[key] = nil }
        for (position, key) in Self.keys.enumerated() {
            #expect(table[key] == (key.postID % 2 == 0 ? nil : position))
        }
        #expect(table[ImageKey(postID: 3_001)] == nil)
        #expect(Set(Self.keys).count == Self.keys.count)
    }
}
