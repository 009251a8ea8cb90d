import CAllocationHooks

/// Counts the heap allocations the engine makes, as jemalloc reports them,
/// and none of the simulator's.
///
/// jemalloc calls its allocation hooks on the thread that made each
/// request; ours add one to that thread's request counter, and jemalloc keeps
/// the thread's running total of bytes allocated (`thread.allocatedp`). A
/// meter reads both counters where counting starts and stops — at the edges
/// of `measure`, and around each `excluding` inside it — and adds up the
/// differences. Reading is two loads through pointers: no `mallctl`, no
/// statistics refresh, no arena switch, and the thread keeps its cache.
/// Counters are per thread, so runs on other threads never mix into a
/// meter's counts.
public final class AllocationMeter {
    /// Allocation requests and bytes.
    public struct Count: Sendable, Equatable, Codable {
        public var requests: UInt64 = 0
        public var bytes: UInt64 = 0
    }

    /// Everything counted in finished counting periods.
    private var counted = Count()
    /// Whether the calling thread's allocations are being counted: inside
    /// `measure` and not inside an `excluding` within it.
    private var isCounting = false
    /// The counters of the thread counting, while `isCounting`.
    private var counters: UnsafeMutablePointer<feedsim_thread_allocations>?
    /// The counters' values when the current counting period began.
    private var requestsAtStart: UInt64 = 0
    private var bytesAtStart: UInt64 = 0

    /// Installs the counting hooks in jemalloc (once per process) and
    /// checks that the thread's counters can be read.
    ///
    /// - Complexity: O(1).
    public init() throws(AllocationMeterError) {
        let status = feedsim_allocation_hooks_install()
        guard status == 0 else { throw .unavailable("experimental.hooks.install (status \(status))") }
        guard feedsim_thread_allocations_get() != nil else { throw .unavailable("thread.allocatedp") }
    }

    /// Runs `body` with its allocations counted as the engine's.
    ///
    /// - Complexity: O(1) on top of `body`: four loads through pointers.
    @inline(__always)
    public func measure<T>(_ body: () throws -> T) rethrows -> T {
        guard !isCounting else { return try body() }
        startCounting()
        defer { stopCounting() }
        return try body()
    }

    /// Runs `body`, called from inside `measure`, with its allocations not
    /// counted: the simulator's own work done on the engine's behalf (a
    /// transport answering a request, a scheduler queuing a timer).
    ///
    /// - Complexity: O(1) on top of `body`.
    @inline(__always)
    public func excluding<T>(_ body: () throws -> T) rethrows -> T {
        guard isCounting else { return try body() }
        stopCounting()
        defer { startCounting() }
        return try body()
    }

    /// Everything counted since the meter was created.
    ///
    /// - Complexity: O(1).
    public func total() -> Count {
        guard isCounting, let counters else { return counted }
        return Count(
            requests: counted.requests &+ (counters.pointee.requests &- requestsAtStart),
            bytes: counted.bytes &+ (counters.pointee.allocated.pointee &- bytesAtStart))
    }

    private func startCounting() {
        // Looked up at each start, not kept from `init`: the counters are the
        // calling thread's, and a meter may be created on another thread.
        let current = feedsim_thread_allocations_get()!
        counters = current
        requestsAtStart = current.pointee.requests
        bytesAtStart = current.pointee.allocated.pointee
        isCounting = true
    }

    private func stopCounting() {
        let current = counters!
        counted.requests &+= current.pointee.requests &- requestsAtStart
        counted.bytes &+= current.pointee.allocated.pointee &- bytesAtStart
        isCounting = false
    }
}

/// jemalloc is missing, or does not offer the hooks and per-thread counters.
public enum AllocationMeterError: Error, CustomStringConvertible {
    case unavailable(String)

    public var description: String {
        switch self {
        case let .unavailable(what):
            "jemalloc allocation counters unavailable (\(what)); install libjemalloc-dev and rebuild"
        }
    }
}
