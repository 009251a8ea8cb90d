/// The hash of a key that is one 64-bit word (a post id, an image key), for
/// the engine's dictionaries and sets.
///
/// Swift's `Hasher` runs SipHash-1-3, seeded per process, over every key: a
/// defence against keys an attacker picks, at about 20 ns a lookup. The
/// engine's keys are ids its own server hands out, and its tables are only
/// looked up, never iterated where order could reach behaviour, so a plain
/// mixer does: MurmurHash3's 64-bit finaliser (Appleby), whose every output
/// bit depends on every input bit, so the low bits a table indexes by are
/// as good as the high ones. Keys reach it through `Hashable`'s raw hashing
/// entry point, `_rawHashValue(seed:)`, the one `Dictionary` and `Set` call
/// for a lookup (the standard library's integers implement it to skip the
/// `Hasher` set-up too); their `hash(into:)` is unchanged, and agrees on
/// which keys are equal.
enum WordHash {
    /// `word` mixed with a table's `seed`.
    /// - Complexity: O(1): two multiplies.
    @inline(__always)
    static func hashValue(of word: UInt64, seed: Int) -> Int {
        var x = word ^ UInt64(bitPattern: Int64(seed))
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return Int(truncatingIfNeeded: x)
    }
}

/// A post id as a key of the engine's own tables (the view-model cache),
/// hashed by `WordHash`.
struct PostKey: Hashable {
    var id: PostID

    init(_ id: PostID) { self.id = id }

    func _rawHashValue(seed: Int) -> Int {
        WordHash.hashValue(of: id, seed: seed)
    }
}
