/// A cache bounded by a count limit and a cost limit that evicts the least
/// recently used entry first, and counts its hits, misses and evictions.
///
/// Entries live in slots of one array, chained into a doubly linked list from
/// most to least recently used by slot index; a dictionary maps each key to
/// its slot, and removed slots are reused through a free list. Once the cache
/// has held as many entries as it will hold, reads, inserts, removals and
/// evictions no longer allocate.
///
/// `LRUCache` is a value type: all its storage is in copy-on-write standard
/// library containers, so a copy is a cheap snapshot that shares storage
/// until one side changes. Reading through `value(forKey:)` is `mutating`
/// because it refreshes recency and counts a hit or a miss; `contains(_:)`
/// looks without touching either.
///
/// Eviction order is determined by the sequence of operations alone, never by
/// hashing, so it is the same in every run.
package struct LRUCache<Key: Hashable, Value> {
    private var slotOfKey: [Key: Int] = [:]
    private var slots: [_LRUSlot<Key, Value>] = []
    private var mostRecentSlot = noSlot
    private var leastRecentSlot = noSlot
    private var firstFreeSlot = noSlot

    /// The largest number of entries the cache keeps; lowering it evicts.
    ///
    /// - Complexity: O(1) to read; setting it is O(*e*) for *e* evictions.
    package var countLimit: Int {
        didSet {
            precondition(countLimit >= 0, "LRUCache countLimit must not be negative")
            evictToLimits()
        }
    }

    /// The largest total cost the cache keeps; lowering it evicts.
    ///
    /// - Complexity: O(1) to read; setting it is O(*e*) for *e* evictions.
    package var costLimit: Int {
        didSet {
            precondition(costLimit >= 0, "LRUCache costLimit must not be negative")
            evictToLimits()
        }
    }

    /// The sum of the costs of the entries in the cache.
    package private(set) var totalCost = 0

    /// The number of `value(forKey:)` calls that found their key.
    package private(set) var hits = 0

    /// The number of `value(forKey:)` calls that did not find their key.
    package private(set) var misses = 0

    /// The number of entries the cache removed on its own: to respect a
    /// limit, or in `trim(toCost:)` and `trim(toCount:)`. Entries removed by
    /// `removeValue(forKey:)` or `removeAll(keepingCapacity:)`, and values
    /// replaced by `insert(_:forKey:cost:)`, are not evictions.
    package private(set) var evictions = 0

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - countLimit: The largest number of entries to keep; unbounded by
    ///     default.
    ///   - costLimit: The largest total cost to keep; unbounded by default.
    package init(countLimit: Int = .max, costLimit: Int = .max) {
        precondition(countLimit >= 0, "LRUCache countLimit must not be negative")
        precondition(costLimit >= 0, "LRUCache costLimit must not be negative")
        self.countLimit = countLimit
        self.costLimit = costLimit
    }

    /// The number of entries in the cache.
    ///
    /// - Complexity: O(1)
    package var count: Int { slotOfKey.count }

    /// Whether the cache holds no entry.
    ///
    /// - Complexity: O(1)
    package var isEmpty: Bool { slotOfKey.isEmpty }

    /// Returns the value for `key` and marks it most recently used, counting
    /// a hit; returns `nil` and counts a miss if the key is absent.
    ///
    /// - Complexity: O(1) expected (one hash lookup, a few slot updates).
    package mutating func value(forKey key: Key) -> Value? {
        guard let value = valueIfPresent(forKey: key) else {
            misses += 1
            return nil
        }
        return value
    }

    /// The value for `key` if the cache holds it, marked most recently used
    /// and counted as a hit; a key it does not hold counts nothing, where
    /// `value(forKey:)` counts a miss. One lookup where `contains(_:)` then
    /// `value(forKey:)` took two.
    ///
    /// - Complexity: O(1) expected.
    package mutating func valueIfPresent(forKey key: Key) -> Value? {
        guard let slot = slotOfKey[key] else { return nil }
        hits += 1
        moveToMostRecent(slot)
        return slots[slot].value
    }

    /// Whether the cache holds `key`; neither counts nor refreshes recency.
    ///
    /// - Complexity: O(1) expected.
    package func contains(_ key: Key) -> Bool {
        slotOfKey[key] != nil
    }

    /// Stores `value` for `key` as the most recently used entry, replacing
    /// any value the key had, then evicts least recently used entries until
    /// both limits hold again.
    ///
    /// An entry whose cost alone exceeds `costLimit` is evicted as soon as it
    /// is the only one left, as `NSCache` does.
    ///
    /// - Parameters:
    ///   - value: The value to store.
    ///   - key: The key to store it under.
    ///   - cost: The entry's cost towards `costLimit`; not negative.
    /// - Complexity: O(1) expected, plus O(1) per eviction.
    package mutating func insert(_ value: Value, forKey key: Key, cost: Int = 0) {
        precondition(cost >= 0, "LRUCache cost must not be negative")
        if let slot = slotOfKey[key] {
            totalCost += cost - slots[slot].cost
            slots[slot].value = value
            slots[slot].cost = cost
            moveToMostRecent(slot)
        } else {
            let slot = takeFreeSlot(key: key, value: value, cost: cost)
            slotOfKey[key] = slot
            totalCost += cost
            linkAsMostRecent(slot)
        }
        evictToLimits()
    }

    /// Removes the entry for `key` and returns its value, or `nil` if the key
    /// is absent. Not counted as an eviction.
    ///
    /// - Complexity: O(1) expected.
    @discardableResult
    package mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slotOfKey.removeValue(forKey: key) else { return nil }
        return releaseSlot(slot)
    }

    /// Evicts least recently used entries until the total cost is at most
    /// `cost`.
    ///
    /// - Complexity: O(*e*) for *e* evictions.
    package mutating func trim(toCost cost: Int) {
        precondition(cost >= 0, "LRUCache cannot trim to a negative cost")
        while totalCost > cost {
            evictLeastRecent()
        }
    }

    /// Evicts least recently used entries until at most `count` remain.
    ///
    /// - Complexity: O(*e*) for *e* evictions.
    package mutating func trim(toCount count: Int) {
        precondition(count >= 0, "LRUCache cannot trim to a negative count")
        while self.count > count {
            evictLeastRecent()
        }
    }

    /// Removes every entry; not counted as evictions. Counters and limits are
    /// kept.
    ///
    /// - Parameter keepingCapacity: Whether to keep the storage for reuse
    ///   rather than release it, as after a memory warning.
    /// - Complexity: O(*n*) for *n* slots.
    package mutating func removeAll(keepingCapacity: Bool = false) {
        slotOfKey.removeAll(keepingCapacity: keepingCapacity)
        slots.removeAll(keepingCapacity: keepingCapacity)
        mostRecentSlot = noSlot
        leastRecentSlot = noSlot
        firstFreeSlot = noSlot
        totalCost = 0
    }

    /// The keys in eviction order: least recently used first.
    ///
    /// - Complexity: O(*n*)
    package var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var slot = leastRecentSlot
        while slot != noSlot {
            keys.append(slots[slot].key!)
            slot = slots[slot].newer
        }
        return keys
    }
}

extension LRUCache {
    private mutating func evictToLimits() {
        while count > countLimit || totalCost > costLimit {
            evictLeastRecent()
        }
    }

    private mutating func evictLeastRecent() {
        let slot = leastRecentSlot
        precondition(slot != noSlot, "LRUCache has nothing left to evict")
        slotOfKey.removeValue(forKey: slots[slot].key!)
        releaseSlot(slot)
        evictions += 1
    }

    /// A slot holding the entry, from the free list if one is free.
    private mutating func takeFreeSlot(key: Key, value: Value, cost: Int) -> Int {
        let entry = _LRUSlot(key: key, value: value, cost: cost)
        guard firstFreeSlot != noSlot else {
            slots.append(entry)
            return slots.count - 1
        }
        let slot = firstFreeSlot
        firstFreeSlot = slots[slot].older
        slots[slot] = entry
        return slot
    }

    /// Unlinks a slot whose key has left `slotOfKey`, puts it on the free
    /// list and returns the value it held.
    @discardableResult
    private mutating func releaseSlot(_ slot: Int) -> Value? {
        unlink(slot)
        totalCost -= slots[slot].cost
        let value = slots[slot].value
        slots[slot] = _LRUSlot(freeSlotBefore: firstFreeSlot)
        firstFreeSlot = slot
        return value
    }

    private mutating func moveToMostRecent(_ slot: Int) {
        guard slot != mostRecentSlot else { return }
        unlink(slot)
        linkAsMostRecent(slot)
    }

    private mutating func linkAsMostRecent(_ slot: Int) {
        slots[slot].newer = noSlot
        slots[slot].older = mostRecentSlot
        if mostRecentSlot != noSlot {
            slots[mostRecentSlot].newer = slot
        } else {
            leastRecentSlot = slot
        }
        mostRecentSlot = slot
    }

    private mutating func unlink(_ slot: Int) {
        let older = slots[slot].older
        let newer = slots[slot].newer
        if older != noSlot {
            slots[older].newer = newer
        } else {
            leastRecentSlot = newer
        }
        if newer != noSlot {
            slots[newer].older = older
        } else {
            mostRecentSlot = older
        }
    }
}

extension LRUCache {
    /// Traps unless the list, the dictionary, the free list, the total cost
    /// and the limits agree.
    ///
    /// - Complexity: O(*n*) for *n* slots.
    internal func _checkInvariants() {
        var inUse = [Bool](repeating: false, count: slots.count)
        var listed = 0
        var costSum = 0
        var newer = noSlot
        var slot = mostRecentSlot
        while slot != noSlot {
            precondition(slots.indices.contains(slot), "list points outside the slots")
            precondition(!inUse[slot], "list has a cycle")
            inUse[slot] = true
            precondition(slots[slot].newer == newer, "broken back link at slot \(slot)")
            guard let key = slots[slot].key else { preconditionFailure("listed slot \(slot) has no key") }
            precondition(slots[slot].value != nil, "listed slot \(slot) has no value")
            precondition(slotOfKey[key] == slot, "dictionary disagrees with slot \(slot)")
            listed += 1
            costSum += slots[slot].cost
            newer = slot
            slot = slots[slot].older
        }
        precondition(leastRecentSlot == newer, "least recent slot is not the list's end")
        precondition(listed == slotOfKey.count, "dictionary has entries missing from the list")
        precondition(costSum == totalCost, "totalCost \(totalCost) but entries cost \(costSum)")
        precondition(count <= countLimit, "count \(count) over limit \(countLimit)")
        precondition(totalCost <= costLimit, "totalCost \(totalCost) over limit \(costLimit)")

        var free = 0
        slot = firstFreeSlot
        while slot != noSlot {
            precondition(slots.indices.contains(slot), "free list points outside the slots")
            precondition(!inUse[slot], "slot \(slot) is both listed and free, or free twice")
            inUse[slot] = true
            precondition(slots[slot].key == nil && slots[slot].value == nil, "free slot \(slot) holds an entry")
            free += 1
            slot = slots[slot].older
        }
        precondition(listed + free == slots.count, "slots neither listed nor free")
    }
}

extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}

/// One slot of an `LRUCache`: an entry and its links towards more and less
/// recently used entries, or, when free, the next free slot in `older`.
internal struct _LRUSlot<Key: Hashable, Value> {
    var key: Key?
    var value: Value?
    var cost: Int
    var older: Int
    var newer: Int

    init(key: Key, value: Value, cost: Int) {
        self.key = key
        self.value = value
        self.cost = cost
        self.older = noSlot
        self.newer = noSlot
    }

    init(freeSlotBefore nextFree: Int) {
        self.key = nil
        self.value = nil
        self.cost = 0
        self.older = nextFree
        self.newer = noSlot
    }
}

extension _LRUSlot: Sendable where Key: Sendable, Value: Sendable {}

/// The slot index that stands for "no slot" in an `LRUCache`'s links.
private let noSlot = -1
