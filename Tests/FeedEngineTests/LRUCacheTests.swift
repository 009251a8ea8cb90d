import Determinism
import Testing

@testable import FeedEngine

@Suite("LRUCache")
struct LRUCacheTests {
    /// A cache of three entries, full: "a" → 1, "b" → 2, "c" → 3, "c" most recent.
    private static func fullOfABC() -> LRUCache<String, Int> {
        var cache = LRUCache<String, Int>(countLimit: 3)
        cache.insert(1, forKey: "a")
        cache.insert(2, forKey: "b")
        cache.insert(3, forKey: "c")
        return cache
    }

    @Test("The count limit evicts the least recently inserted entry")
    func countLimitEvictsOldest() {
        var cache = LRUCache<String, Int>(countLimit: 3)
        for (value, key) in ["a", "b", "c", "d"].enumerated() {
            cache.insert(value, forKey: key)
            cache._checkInvariants()
        }
        #expect(cache.keysByRecency == ["b", "c", "d"])
        #expect(cache.count == 3)
        #expect(cache.evictions == 1)
        #expect(!cache.contains("a"))
    }

    @Test("A read refreshes recency, so the next eviction spares it")
    func readRefreshesRecency() {
        var cache = LRUCacheTests.fullOfABC()
        #expect(cache.value(forKey: "a") == 1)
        cache.insert(4, forKey: "d")
        cache._checkInvariants()
        #expect(cache.keysByRecency == ["c", "a", "d"])
        #expect(!cache.contains("b"))
        #expect(cache.evictions == 1)
    }

    @Test("contains(_:) neither counts nor refreshes")
    func containsIsPassive() {
        var cache = LRUCache<String, Int>(countLimit: 2)
        cache.insert(1, forKey: "a")
        cache.insert(2, forKey: "b")
        #expect(cache.contains("a"))
        #expect(!cache.contains("z"))
        cache.insert(3, forKey: "c")
        #expect(cache.keysByRecency == ["b", "c"])
        #expect(cache.hits == 0 && cache.misses == 0)
    }

    @Test("valueIfPresent(forKey:) reads a held key as value(forKey:) does, and counts no miss for another")
    func valueIfPresentReadsWithoutMiss() {
        var cache = LRUCacheTests.fullOfABC()
        #expect(cache.valueIfPresent(forKey: "a") == 1)
        #expect(cache.valueIfPresent(forKey: "z") == nil)
        #expect(cache.keysByRecency == ["b", "c", "a"])
        #expect(cache.hits == 1 && cache.misses == 0)
        cache.insert(4, forKey: "d")
        cache._checkInvariants()
        #expect(cache.keysByRecency == ["c", "a", "d"])
    }

    @Test("The cost limit evicts least recently used entries until the total fits")
    func costLimitEvictsOldest() {
        var cache = LRUCache<String, Int>(costLimit: 10)
        cache.insert(1, forKey: "a", cost: 4)
        cache.insert(2, forKey: "b", cost: 4)
        cache.insert(3, forKey: "c", cost: 4)
        cache._checkInvariants()
        #expect(cache.keysByRecency == ["b", "c"])
        #expect(cache.totalCost == 8)
        #expect(cache.evictions == 1)

        cache.insert(4, forKey: "d", cost: 9)
        cache._checkInvariants()
        #expect(cache.keysByRecency == ["d"])
        #expect(cache.totalCost == 9)
        #expect(cache.evictions == 3)
    }

    @Test("An entry costlier than the limit is evicted at once")
    func oversizedEntry() {
        var cache = LRUCache<String, Int>(costLimit: 10)
        cache.insert(1, forKey: "a", cost: 3)
        cache.insert(2, forKey: "huge", cost: 11)
        cache._checkInvariants()
        #expect(cache.isEmpty)
        #expect(cache.totalCost == 0)
        #expect(cache.evictions == 2)
    }

    @Test("Hits, misses and evictions are counted exactly")
    func countersAreExact() {
        var cache = LRUCache<Int, String>(countLimit: 2)
        #expect(cache.value(forKey: 1) == nil)
        cache.insert("one", forKey: 1)
        cache.insert("two", forKey: 2)
        #expect(cache.value(forKey: 1) == "one")
        #expect(cache.value(forKey: 1) == "one")
        cache.insert("three", forKey: 3)
        #expect(cache.value(forKey: 2) == nil)
        #expect(cache.value(forKey: 3) == "three")
        #expect(cache.hits == 3)
        #expect(cache.misses == 2)
        #expect(cache.evictions == 1)
    }

    @Test("Replacing a value updates its cost and recency, without an eviction")
    func replacingAValue() {
        var cache = LRUCache<String, Int>(countLimit: 2, costLimit: 100)
        cache.insert(1, forKey: "a", cost: 10)
        cache.insert(2, forKey: "b", cost: 20)
        cache.insert(3, forKey: "a", cost: 5)
        cache._checkInvariants()
        #expect(cache.keysByRecency == ["b", "a"])
        #expect(cache.totalCost == 25)
        #expect(cache.count == 2)
        #expect(cache.evictions == 0)
        #expect(cache.value(forKey: "a") == 3)
    }

    @Test("Removing is not an eviction, and freed slots are reused")
    func removingAndSlotReuse() {
        var cache = LRUCache<String, Int>(countLimit: 3)
        cache.insert(1, forKey: "a", cost: 1)
        cache.insert(2, forKey: "b", cost: 2)
        cache.insert(3, forKey: "c", cost: 3)
        #expect(cache.removeValue(forKey: "b") == 2)
        #expect(cache.removeValue(forKey: "b") == nil)
        cache._checkInvariants()
        #expect(cache.totalCost == 4)
        cache.insert(4, forKey: "d", cost: 4)
        cache._checkInvariants()
        #expect(cache.keysByRecency == ["a", "c", "d"])
        #expect(cache.evictions == 0)
    }

    @Test("Trimming evicts least recently used first, and counts evictions")
    func trimming() {
        var cache = LRUCache<String, Int>()
        for (value, key) in ["a", "b", "c", "d", "e"].enumerated() {
            cache.insert(value, forKey: key, cost: 10)
        }
        _ = cache.value(forKey: "a")
        cache.trim(toCount: 3)
        cache._checkInvariants()
        #expect(cache.keysByRecency == ["d", "e", "a"])
        cache.trim(toCost: 15)
        cache._checkInvariants()
        #expect(cache.keysByRecency == ["a"])
        #expect(cache.evictions == 4)
        cache.trim(toCost: 100)
        #expect(cache.evictions == 4)
    }

    @Test("Lowering a limit evicts at once")
    func loweringLimits() {
        var cache = LRUCache<String, Int>()
        for (value, key) in ["a", "b", "c"].enumerated() {
            cache.insert(value, forKey: key, cost: 5)
        }
        cache.countLimit = 2
        #expect(cache.keysByRecency == ["b", "c"])
        cache.costLimit = 5
        #expect(cache.keysByRecency == ["c"])
        cache._checkInvariants()
        #expect(cache.evictions == 2)
    }

    @Test("removeAll empties the cache and keeps counters", arguments: [false, true])
    func removingAll(keepingCapacity: Bool) {
        var cache = LRUCache<String, Int>(countLimit: 2)
        cache.insert(1, forKey: "a", cost: 3)
        cache.insert(2, forKey: "b", cost: 3)
        cache.insert(3, forKey: "c", cost: 3)
        _ = cache.value(forKey: "c")
        cache.removeAll(keepingCapacity: keepingCapacity)
        cache._checkInvariants()
        #expect(cache.isEmpty)
        #expect(cache.totalCost == 0)
        #expect(cache.keysByRecency.isEmpty)
        #expect(cache.hits == 1 && cache.evictions == 1)
        cache.insert(4, forKey: "d")
        cache._checkInvariants()
        #expect(cache.keysByRecency == ["d"])
    }

    @Test("Random operations agree with a list-based model")
    func randomOperationsMatchModel() {
        let baseSeed: UInt64 = 0x1A0C_AC4E_0000_0000
        for caseNumber in 0..<200 {
            let seed = baseSeed + UInt64(caseNumber)
            var random = SplitMix64(seed: seed)
            let countLimit = 1 + random.nextIndex(below: 8)
            let costLimit = 10 + random.nextIndex(below: 40)
            var cache = LRUCache<Int, Int>(countLimit: countLimit, costLimit: costLimit)
            var model = RecencyListModel(countLimit: countLimit, costLimit: costLimit)

            for step in 0..<300 {
                let key = random.nextIndex(below: 12)
                let context = "seed \(seed) (case \(caseNumber)), step \(step), key \(key)"
                switch random.nextIndex(below: 10) {
                case 0..<4:
                    let cost = random.nextIndex(below: 12)
                    cache.insert(step, forKey: key, cost: cost)
                    model.insert(step, forKey: key, cost: cost)
                case 4..<8:
                    #expect(cache.value(forKey: key) == model.value(forKey: key), "\(context)")
                case 8:
                    #expect(cache.removeValue(forKey: key) == model.removeValue(forKey: key), "\(context)")
                default:
                    let cost = random.nextIndex(below: costLimit)
                    cache.trim(toCost: cost)
                    model.trim(toCost: cost)
                }
                cache._checkInvariants()
                #expect(cache.keysByRecency == model.entries.map(\.key), "\(context)")
                #expect(cache.totalCost == model.totalCost, "\(context)")
                #expect(cache.hits == model.hits && cache.misses == model.misses, "\(context)")
                #expect(cache.evictions == model.evictions, "\(context)")
            }
        }
    }
}

/// The obvious LRU: an array from least to most recently used, searched
/// linearly; the reference the cache must agree with.
private struct RecencyListModel {
    var entries: [(key: Int, value: Int, cost: Int)] = []
    let countLimit: Int
    let costLimit: Int
    var hits = 0
    var misses = 0
    var evictions = 0

    init(countLimit: Int, costLimit: Int) {
        self.countLimit = countLimit
        self.costLimit = costLimit
    }

    var totalCost: Int { entries.reduce(0) { $0 + $1.cost } }

    mutating func value(forKey key: Int) -> Int? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else {
            misses += 1
            return nil
        }
        hits += 1
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.value
    }

    mutating func insert(_ value: Int, forKey key: Int, cost: Int) {
        entries.removeAll { $0.key == key }
        entries.append((key, value, cost))
        while entries.count > countLimit || totalCost > costLimit {
            entries.removeFirst()
            evictions += 1
        }
    }

    mutating func removeValue(forKey key: Int) -> Int? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: index).value
    }

    mutating func trim(toCost cost: Int) {
        while totalCost > cost {
            entries.removeFirst()
            evictions += 1
        }
    }
}
