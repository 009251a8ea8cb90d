/// The store's index of where each feed post first appears: post ids to
/// 32-bit positions, 8 bytes a slot.
typealias PostIDMap = PostIDTable<UInt64>
/// The tuner's set of ids already shown: post ids alone, 4 bytes a slot, so
/// a million shown rows take 8 MB.
typealias PostIDSet = PostIDTable<UInt32>

/// A hash table of post ids, each with a value in the bits of `Slot` below
/// the id's 32 (none in a `UInt32` slot: a set).
///
/// Both uses are built over a whole feed on every load, so a lookup is the
/// cost that counts: open addressing with linear probing over one array of
/// slots (the id in the top 32 bits, its value below), placed by Fibonacci
/// hashing of the id. One multiply finds the first slot, where a
/// `Dictionary` or `Set` ran SipHash over every key. An all-ones slot is
/// empty: ids stored in posts are below `UInt32.max` (`Post.idLimit`).
///
/// Entries are never removed one by one and never iterated, so no order of
/// them can reach the engine's behaviour. At most three quarters of the
/// slots are used, as in a `Dictionary`: a million ids take 16 MB in a map
/// and 8 MB in a set.
struct PostIDTable<Slot: FixedWidthInteger & UnsignedInteger> {
    private var slots: [Slot] = []
    /// 64 − log2(slot count): how far a hash is shifted to index a slot.
    private var shift: UInt64 = 64
    /// The number of ids held.
    private(set) var count = 0

    private static var empty: Slot { Slot.max }
    /// 2^64 divided by the golden ratio: Fibonacci hashing's multiplier
    /// (Knuth, TAOCP vol. 3, 6.4), which spreads consecutive ids apart.
    private static var fibonacciMultiplier: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// The most ids `slotCount` slots hold: three quarters of them, the
    /// load at which a `Dictionary` grows too.
    private static func limit(of slotCount: Int) -> Int { slotCount / 4 * 3 }
    /// How far an id is shifted up in its slot.
    private static var idShift: Int { Slot.bitWidth - 32 }

    private static func id(in slot: Slot) -> UInt32 { UInt32(truncatingIfNeeded: slot >> idShift) }
    private static func value(in slot: Slot) -> UInt32 { UInt32(truncatingIfNeeded: slot & (Slot.max >> 32)) }
    private static func slot(_ id: UInt32, _ value: UInt32) -> Slot {
        Slot(truncatingIfNeeded: id) << idShift | Slot(truncatingIfNeeded: value) & (Slot.max >> 32)
    }

    /// Creates a table that holds `minimumCapacity` ids before it grows.
    init(minimumCapacity: Int = 0) {
        reserveCapacity(minimumCapacity)
    }

    /// The value stored for `id`, if any.
    /// - Complexity: O(1) expected.
    subscript(id: UInt32) -> UInt32? {
        guard !slots.isEmpty else { return nil }
        let slot = slots[probe(for: id)]
        return slot == PostIDTable.empty ? nil : PostIDTable.value(in: slot)
    }

    /// Stores `value` for `id`, replacing the value it had; returns that
    /// value, or `nil` if `id` was not held.
    /// - Complexity: O(1) expected, amortized over growth.
    @discardableResult
    mutating func updateValue(_ value: UInt32, forKey id: UInt32) -> UInt32? {
        let index = slot(for: id)
        let old = slots[index]
        slots[index] = PostIDTable.slot(id, value)
        return old == PostIDTable.empty ? nil : PostIDTable.value(in: old)
    }

    /// Stores `value` for `id` unless `id` is held; returns whether it was
    /// stored.
    /// - Complexity: O(1) expected, amortized over growth.
    @discardableResult
    mutating func insert(_ value: UInt32, forKey id: UInt32) -> Bool {
        let index = slot(for: id)
        guard slots[index] == PostIDTable.empty else { return false }
        slots[index] = PostIDTable.slot(id, value)
        return true
    }

    /// Removes every id; with `keepingCapacity`, the slots stay allocated.
    /// - Complexity: O(slots)
    mutating func removeAll(keepingCapacity: Bool = false) {
        count = 0
        if keepingCapacity {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: PostIDTable.empty) }
        } else {
            slots = []
            shift = 64
        }
    }

    /// Makes room for `minimumCapacity` ids without growing again.
    /// - Complexity: O(slots)
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        precondition(minimumCapacity >= 0, "a capacity is not negative")
        guard minimumCapacity > PostIDTable.limit(of: slots.count) else { return }
        var bits: UInt64 = 3
        while PostIDTable.limit(of: 1 << bits) < minimumCapacity { bits += 1 }
        rehash(into: 1 << bits)
    }

    /// The slot of `id` after Fibonacci hashing: the top bits of the id
    /// times the multiplier.
    private func firstSlot(of id: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(id) &* PostIDTable.fibonacciMultiplier) >> shift)
    }

    /// The slot holding `id`, or the empty slot where it goes: the first of
    /// either from `id`'s first slot on. The table has slots, and at least
    /// one is empty.
    private func probe(for id: UInt32) -> Int {
        let mask = slots.count - 1
        var index = firstSlot(of: id)
        while true {
            let slot = slots[index]
            if slot == PostIDTable.empty || PostIDTable.id(in: slot) == id { return index }
            index = (index + 1) & mask
        }
    }

    /// The slot holding `id`, or the empty slot where it goes, counted as
    /// taken; grows first if one more id would fill past three quarters.
    private mutating func slot(for id: UInt32) -> Int {
        precondition(id != UInt32.max, "post id \(id) is not below \(Post.idLimit)")
        if count + 1 > PostIDTable.limit(of: slots.count) { reserveCapacity(count + 1) }
        let index = probe(for: id)
        if slots[index] == PostIDTable.empty { count += 1 }
        return index
    }

    private mutating func rehash(into slotCount: Int) {
        let old = slots
        slots = [Slot](repeating: PostIDTable.empty, count: slotCount)
        shift = 64 - UInt64(slotCount.trailingZeroBitCount)
        let mask = slotCount - 1
        for slot in old where slot != PostIDTable.empty {
            var index = firstSlot(of: PostIDTable.id(in: slot))
            while slots[index] != PostIDTable.empty { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}

extension PostIDTable where Slot == UInt32 {
    /// Whether `id` is held; an id no post stores (`Post.idLimit` or
    /// above) never is.
    /// - Complexity: O(1) expected.
    func contains(_ id: PostID) -> Bool { id < Post.idLimit && self[UInt32(id)] != nil }

    /// Adds `id`, an id a post stores; whether it was not held before.
    /// - Complexity: O(1) expected, amortized over growth.
    @discardableResult
    mutating func insert(_ id: PostID) -> Bool {
        precondition(id < Post.idLimit, "post id \(id) is not below \(Post.idLimit)")
        return insert(0, forKey: UInt32(id))
    }
}
