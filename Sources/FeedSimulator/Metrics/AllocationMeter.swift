import CJemalloc
import Synchronization

/// Counts the heap allocations the engine makes, with jemalloc's own
/// statistics, and none of the simulator's.
///
/// Engine calls run inside `measure`, which moves the calling thread onto an
/// arena reserved for the engine and back afterwards. The thread's cache is
/// turned off so that each request reaches the arena and is counted there:
/// `stats.arenas.<i>.small.nrequests + large.nrequests` counts requests, not
/// bin refills. Bytes come from the thread's own `thread.allocated` counter,
/// read before and after each engine call. Each meter holds its arena alone,
/// so runs on other threads never mix into its counts.
public final class AllocationMeter {
    /// Allocation requests and bytes.
    public struct Count: Sendable, Equatable, Codable {
        public var requests: UInt64 = 0
        public var bytes: UInt64 = 0
    }

    private let arena: UInt32
    private let epochMIB: [Int]
    private let smallRequestsMIB: [Int]
    private let largeRequestsMIB: [Int]
    private let threadArenaMIB: [Int]
    private let tcacheEnabledMIB: [Int]
    private let allocatedPointerMIB: [Int]
    private var bytesInside: UInt64 = 0
    /// Bytes allocated inside `excluding` blocks, subtracted from `bytesInside`.
    private var bytesExcluded: UInt64 = 0
    /// The arena the thread used before the current `measure` began.
    private var defaultArenaWhileMeasuring: UInt32 = 0
    private var requestsAtStart: UInt64 = 0

    /// Reserves an engine arena for this meter.
    public init() throws(AllocationMeterError) {
        arena = try AllocationMeter.acquireArena()
        epochMIB = try AllocationMeter.mib("epoch")
        // A new arena's statistics are named only after a refresh.
        var epoch: UInt64 = 1
        epochMIB.withUnsafeBufferPointer { m in
            _ = mallctlbymib(m.baseAddress, m.count, nil, nil, &epoch, MemoryLayout<UInt64>.size)
        }
        smallRequestsMIB = try AllocationMeter.mib("stats.arenas.\(arena).small.nrequests")
        largeRequestsMIB = try AllocationMeter.mib("stats.arenas.\(arena).large.nrequests")
        threadArenaMIB = try AllocationMeter.mib("thread.arena")
        tcacheEnabledMIB = try AllocationMeter.mib("thread.tcache.enabled")
        allocatedPointerMIB = try AllocationMeter.mib("thread.allocatedp")
        requestsAtStart = try arenaRequests()
    }

    deinit {
        AllocationMeter.pool.withLock { $0.append(arena) }
    }

    /// Runs `body` with its allocations counted as the engine's.
    public func measure<T>(_ body: () throws -> T) rethrows -> T {
        var disabled = false
        writeMIB(tcacheEnabledMIB, &disabled)
        let allocated = threadAllocatedCounter()
        let previous = exchangeArena(arena)
        let outerDefault = defaultArenaWhileMeasuring
        defaultArenaWhileMeasuring = previous
        let before = allocated?.pointee ?? 0
        var excluded: UInt64 = 0
        let excludedBefore = bytesExcluded
        defer {
            excluded = bytesExcluded &- excludedBefore
            bytesInside &+= (allocated?.pointee ?? 0) &- before &- excluded
            defaultArenaWhileMeasuring = outerDefault
            _ = exchangeArena(previous)
        }
        return try body()
    }

    /// Runs `body`, called from inside `measure`, with its allocations not
    /// counted: the simulator's own work done on the engine's behalf (a
    /// transport answering a request, a scheduler queuing a timer).
    public func excluding<T>(_ body: () throws -> T) rethrows -> T {
        let allocated = threadAllocatedCounter()
        let before = allocated?.pointee ?? 0
        let engineArena = exchangeArena(defaultArenaWhileMeasuring)
        defer {
            bytesExcluded &+= (allocated?.pointee ?? 0) &- before
            _ = exchangeArena(engineArena)
        }
        return try body()
    }

    /// Everything counted since the meter was created.
    public func total() -> Count {
        Count(requests: ((try? arenaRequests()) ?? requestsAtStart) &- requestsAtStart, bytes: bytesInside)
    }

    /// Binds the calling thread to arena `index` and returns the one it left.
    private func exchangeArena(_ index: UInt32) -> UInt32 {
        var new = index
        var old: UInt32 = 0
        var oldSize = MemoryLayout<UInt32>.size
        threadArenaMIB.withUnsafeBufferPointer { mib in
            _ = mallctlbymib(mib.baseAddress, mib.count, &old, &oldSize, &new, MemoryLayout<UInt32>.size)
        }
        return old
    }

    /// The calling thread's running total of bytes allocated.
    private func threadAllocatedCounter() -> UnsafeMutablePointer<UInt64>? {
        var pointer: UnsafeMutablePointer<UInt64>? = nil
        var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
        let status = allocatedPointerMIB.withUnsafeBufferPointer { mib in
            mallctlbymib(mib.baseAddress, mib.count, &pointer, &size, nil, 0)
        }
        return status == 0 ? pointer : nil
    }

    private func writeMIB<T: BitwiseCopyable>(_ mib: [Int], _ value: inout T) {
        mib.withUnsafeBufferPointer { m in
            _ = mallctlbymib(m.baseAddress, m.count, nil, nil, &value, MemoryLayout<T>.size)
        }
    }

    private func arenaRequests() throws(AllocationMeterError) -> UInt64 {
        var epoch: UInt64 = 1
        writeMIB(epochMIB, &epoch)
        return try AllocationMeter.read(smallRequestsMIB) &+ AllocationMeter.read(largeRequestsMIB)
    }

    private static func read(_ mib: [Int]) throws(AllocationMeterError) -> UInt64 {
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        let status = mib.withUnsafeBufferPointer { m in
            mallctlbymib(m.baseAddress, m.count, &value, &size, nil, 0)
        }
        guard status == 0 else { throw AllocationMeterError.unavailable("stats (status \(status))") }
        return value
    }

    private static func mib(_ name: String) throws(AllocationMeterError) -> [Int] {
        var mib = [Int](repeating: 0, count: 8)
        var length = mib.count
        let status = mib.withUnsafeMutableBufferPointer { m in
            mallctlnametomib(name, m.baseAddress, &length)
        }
        guard status == 0 else { throw AllocationMeterError.unavailable(name) }
        return Array(mib.prefix(length))
    }

    /// Arenas created by earlier meters and free again. jemalloc cannot
    /// safely destroy an arena that still owns live engine objects, so
    /// arenas are reused instead; counts are always taken as differences.
    private static let pool = Mutex<[UInt32]>([])

    private static func acquireArena() throws(AllocationMeterError) -> UInt32 {
        if let reused = pool.withLock({ $0.popLast() }) { return reused }
        var index: UInt32 = 0
        var size = MemoryLayout<UInt32>.size
        guard mallctl("arenas.create", &index, &size, nil, 0) == 0 else {
            throw AllocationMeterError.unavailable("arenas.create")
        }
        return index
    }
}

/// jemalloc is missing or was built without statistics.
public enum AllocationMeterError: Error, CustomStringConvertible {
    case unavailable(String)

    public var description: String {
        switch self {
        case let .unavailable(what):
            "jemalloc statistics unavailable (\(what)); install libjemalloc-dev and rebuild"
        }
    }
}
