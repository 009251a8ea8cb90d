import CAllocationCounter

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts the heap allocations the engine makes, as jemalloc reports them,
/// and none of the simulator's.
///
/// Every allocation request in the process passes through the C library's
/// allocation functions as `CAllocationCounter` defines them, which add one
/// to the requesting thread's counter and pass the call on to jemalloc;
/// jemalloc keeps the thread's running total of bytes allocated
/// (`thread.allocatedp`). Nothing is installed in jemalloc, so the meter
/// leaves no state behind that a thread could trip over when it ends. A
/// meter reads both counters where counting starts and stops — at the edges
/// of `measure`, and around each `excluding` inside it — and adds up the
/// differences. Reading is two loads through pointers: no `mallctl`, no
/// statistics refresh, no arena switch, and the thread keeps its cache.
/// Counters are per thread, so runs on other threads never mix into a
/// meter's counts.
package final class AllocationMeter {
    /// Allocation requests and bytes.
    package struct Count: Sendable, Equatable, Codable {
        package var requests: UInt64 = 0
        package var bytes: UInt64 = 0

        package init(requests: UInt64 = 0, bytes: UInt64 = 0) {
            self.requests = requests
            self.bytes = bytes
        }
    }

    /// Everything counted in finished counting periods.
    @exclusivity(unchecked) private var counted = Count()
    /// Whether the calling thread's allocations are being counted: inside
    /// `measure` and not inside an `excluding` within it.
    @exclusivity(unchecked) private var isCounting = false
    /// The counters of the thread counting, while `isCounting`.
    @exclusivity(unchecked) private var counters: UnsafeMutablePointer<feedsim_thread_allocations>?
    /// The counters' values when the current counting period began.
    @exclusivity(unchecked) private var requestsAtStart: UInt64 = 0
    @exclusivity(unchecked) private var bytesAtStart: UInt64 = 0

    /// Why this meter counts nothing, when it counts nothing: the system is
    /// not Linux, the build is a sanitizer's, or counting was turned off
    /// (`FEEDSIM_ALLOCATION_COUNTING=off`). Runs then leave their
    /// allocation columns empty rather than write numbers that count
    /// nothing.
    package let unavailableReason: String?

    /// The environment variable that turns counting off in a build that
    /// could count: what a build on another system does, for trying that
    /// path on Linux.
    package static let switchVariable = "FEEDSIM_ALLOCATION_COUNTING"

    /// Checks that an allocation made in this process raises the thread's
    /// counters: the counting functions are the process's malloc and
    /// jemalloc served the request. Where counting cannot work by design (a
    /// system other than Linux, a sanitizer build) or is turned off, the
    /// meter counts nothing and says why (`unavailableReason`); where it
    /// should work and does not (another malloc first in the process,
    /// jemalloc missing), it throws.
    ///
    /// - Complexity: O(1).
    package init() throws(AllocationMeterError) {
        unavailableReason = try Self.availability.get()
    }

    /// What this process can count, found once: nil when it counts, the
    /// reason when it cannot by design or was told not to, an error when it
    /// should count and does not.
    package static let availability: Result<String?, AllocationMeterError> = {
        if let value = getenv(switchVariable).map({ String(cString: $0) }), value == "off" {
            return .success("turned off by \(switchVariable)=off")
        }
        switch feedsim_allocation_counting_check() {
        case 0: return .success(nil)
        case -1: return .success("counting functions left out of a sanitizer build")
        case -4:
            return .success(
                "counting relies on ELF symbol interposition, and FeedSim is built and tested on Linux only")
        case -2: return .failure(.unavailable("an allocation went past the counting functions"))
        default: return .failure(.unavailable("thread.allocatedp"))
        }
    }()

    /// Whether this meter counts: false when `unavailableReason` says why not.
    package var counts: Bool { unavailableReason == nil }

    /// Everything counted since the meter was created, or nil when the
    /// meter counts nothing.
    ///
    /// - Complexity: O(1).
    package func reported() -> Count? { counts ? total() : nil }

    /// Runs `body` with its allocations counted as the engine's.
    ///
    /// - Complexity: O(1) on top of `body`: four loads through pointers.
    @inline(__always)
    package func measure<T>(_ body: () throws -> T) rethrows -> T {
        guard !isCounting, unavailableReason == nil else { return try body() }
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
    package func excluding<T>(_ body: () throws -> T) rethrows -> T {
        guard isCounting else { return try body() }
        stopCounting()
        defer { startCounting() }
        return try body()
    }

    /// Everything counted since the meter was created: zero when the meter
    /// counts nothing.
    ///
    /// - Complexity: O(1).
    package func total() -> Count {
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

/// jemalloc is missing, or allocations in this process do not reach the
/// counting functions and jemalloc.
package enum AllocationMeterError: Error, CustomStringConvertible {
    case unavailable(String)

    package var description: String {
        switch self {
        case let .unavailable(what):
            "jemalloc allocation counters unavailable (\(what)); install libjemalloc-dev and rebuild"
        }
    }
}
