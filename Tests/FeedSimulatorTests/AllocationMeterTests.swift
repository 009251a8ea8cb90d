import FeedEngine
import FeedScenario
import Foundation
import Synchronization
import Testing

@testable import FeedSimulator

@Suite("Allocation meter")
struct AllocationMeterTests {
    @Test("counts exactly the allocations made inside measure, and none outside")
    func countsInsideOnly() throws {
        let meter = try AllocationMeter()
        var keep: [[Int]] = []
        keep.reserveCapacity(32)
        for n in 1...5 { keep.append([Int](repeating: n, count: 100)) }
        #expect(meter.total().requests == 0)
        meter.measure {
            for n in 1...10 { keep.append([Int](repeating: n, count: 16 * n)) }
        }
        let count = meter.total()
        #expect(count.requests == 10)
        let requested: Int = (1...10).reduce(0) { (sum: Int, n: Int) in sum + 16 * n * 8 }
        #expect(count.bytes >= UInt64(requested))
        for n in 1...5 { keep.append([Int](repeating: n, count: 100)) }
        #expect(meter.total().requests == 10)
        #expect(keep.count == 20)
    }

    @Test("a large allocation counts once")
    func largeAllocation() throws {
        let meter = try AllocationMeter()
        let array = meter.measure { [UInt8](repeating: 1, count: 4 << 20) }
        #expect(meter.total().requests == 1)
        #expect(array.count == 4 << 20)
    }

    @Test("laying out a feed allocates a bounded number of blocks, not one per post")
    func feedListAllocations() throws {
        let meter = try AllocationMeter()
        var feed = SyntheticFeed(
            settings: FeedSettings(postCount: 2000, textLength: 0...300, mediaFraction: 0.5),
            streams: RandomStreams(seed: 1))
        let posts = feed.nextPosts(2000).map { FeedItem(post: $0) }
        let list = FeedList(configuration: FeedListConfiguration(estimatedItemHeight: 200, width: 390))
        // The Swift runtime allocates metadata the first time a path runs;
        // warm every path up on a throwaway list first.
        let warmUp = FeedList(configuration: list.configuration)
        meter.measure {
            warmUp.replaceAll(with: posts)
            _ = warmUp.updateVisibleRect(minY: 0, height: 800)
        }
        let before = meter.total().requests
        meter.measure { list.replaceAll(with: posts) }
        let afterLoad = meter.total().requests
        meter.measure { _ = list.updateVisibleRect(minY: 0, height: 800) }
        let afterFirst = meter.total().requests
        #expect(
            afterLoad - before == 4, "posts are shared; heights, tree, measured and displayed flags are four blocks")
        #expect(afterFirst == afterLoad, "measuring cells in place allocates nothing")
    }

    @Test(
        """
        the simulated servers' work on a request is not the engine's: asking for 20 or 200 posts costs the engine \
        the same
        """
    )
    func worldWorkIsExcluded() throws {
        func refreshCost(pageSize: Int) throws -> (requests: UInt64, bytes: UInt64, images: UInt64) {
            let simulation = try Simulation(
                request: TestWorld.request(posts: 1_000, mediaFraction: 1, pageSize: pageSize))
            let engine = simulation.engine
            let before = simulation.meter.total()
            simulation.meter.measure { engine.refresh() }
            let after = simulation.meter.total()
            // An image load: the CDN plans and queues the download.
            let imageBefore = simulation.meter.total()
            simulation.meter.measure {
                _ = simulation.transport.load(
                    ImageRequest(
                        key: ImageKey(postID: PostID(1)), pixelWidth: 2_000, pixelHeight: 2_000, encodedBytes: 400_000,
                        priority: .visible)
                ) { _ in }
            }
            return (
                after.requests - before.requests, after.bytes - before.bytes,
                simulation.meter.total().requests - imageBefore.requests
            )
        }
        let small = try refreshCost(pageSize: 20)
        let large = try refreshCost(pageSize: 200)
        #expect(small.requests == large.requests)
        #expect(small.bytes == large.bytes)
        #expect(small.images == 0)
    }

    @Test("meters on threads allocating at the same time each count only their own thread's requests")
    func parallelThreadsDoNotMix() throws {
        // Different counts per thread, so a count that leaked from one
        // thread into another's meter could not go unnoticed.
        let blocksPerThread = [3, 17, 40, 101]
        let meters = try blocksPerThread.map { _ in try AllocationMeter() }
        let allCounting = ThreadRendezvous(parties: blocksPerThread.count)
        let allAllocated = ThreadRendezvous(parties: blocksPerThread.count)
        let counted = Mutex<[UInt64]>(Array(repeating: 0, count: blocksPerThread.count))
        let done = DispatchSemaphore(value: 0)
        for (index, blocks) in blocksPerThread.enumerated() {
            // Each meter is used by its one thread only.
            nonisolated(unsafe) let meter = meters[index]
            Thread {
                var keep: [[Int]] = []
                keep.reserveCapacity(blocks)
                meter.measure {
                    // Every thread is counting before any allocates, and
                    // stays counting until all have allocated.
                    allCounting.arriveAndWait()
                    for n in 0..<blocks { keep.append([Int](repeating: n, count: 8 + n)) }
                    allAllocated.arriveAndWait()
                }
                let requests = meter.total().requests
                counted.withLock { $0[index] = requests }
                withExtendedLifetime(keep) { _ = done.signal() }
            }.start()
        }
        for _ in blocksPerThread { done.wait() }
        #expect(counted.withLock { $0 } == blocksPerThread.map(UInt64.init))
    }

    @Test(
        """
        threads end 64 at a time, round after round, while simulations run on other threads: nothing crashes and \
        every run counts the same
        """
    )
    func threadsEndWhileRunsAreMeasured() throws {
        let script = [ScriptStep(atNs: 300_000_000, action: .fling(velocityPtPerS: 8_000, deceleration: .normal))]
        let request = TestWorld.request(posts: 300, seconds: 2, script: script, frames: false)
        let simulationThreads = 2
        let runsPerThread = 8
        let minimumRounds = 100
        let finished = Atomic<Int>(0)
        let counts = Mutex<[AllocationMeter.Count]>([])
        let failures = Mutex<[String]>([])
        let runners = (0..<simulationThreads).map { _ in
            JoinableThread {
                do {
                    // The first run on a thread pays the runtime's one-time
                    // costs; the ones after it are the engine's alone.
                    _ = try Simulation(request: request).run()
                    for _ in 0..<runsPerThread {
                        guard let allocations = try Simulation(request: request).run().allocations else {
                            failures.withLock { $0.append("the run counted no allocations") }
                            continue
                        }
                        counts.withLock { $0.append(allocations) }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                finished.add(1, ordering: .sequentiallyConsistent)
            }
        }
        var rounds = 0
        while rounds < minimumRounds || finished.load(ordering: .sequentiallyConsistent) < simulationThreads {
            let ending = (0..<64).map { index in
                JoinableThread {
                    // Blocks of several sizes, and Foundation's per-thread
                    // object, which the thread's teardown frees.
                    var blocks: [[Int]] = []
                    for size in 0..<24 { blocks.append([Int](repeating: index, count: 1 << (size % 12))) }
                    blocks.removeAll()
                    _ = Thread.current.isMainThread
                }
            }
            for thread in ending { thread.join() }
            rounds += 1
        }
        for runner in runners { runner.join() }
        #expect(failures.withLock { $0 }.isEmpty)
        let all = counts.withLock { $0 }
        #expect(all.count == simulationThreads * runsPerThread)
        #expect(Set(all.map(\.requests)).count == 1, "requests per run: \(all.map(\.requests))")
        #expect(Set(all.map(\.bytes)).count == 1, "bytes per run: \(all.map(\.bytes))")
        #expect(all.allSatisfy { $0.requests > 0 })
        #expect(rounds >= minimumRounds)
    }
}

/// A POSIX thread that runs `body` once and can be waited for: Foundation's
/// `Thread` cannot be joined.
final class JoinableThread: Sendable {
    private final class Body: @unchecked Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let thread: pthread_t

    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        self.thread = thread
    }

    func join() { pthread_join(thread, nil) }
}

/// Threads wait here until all of them have arrived, spinning on an atomic
/// counter so that waiting allocates nothing.
final class ThreadRendezvous: Sendable {
    let parties: Int
    private let arrived = Atomic<Int>(0)

    init(parties: Int) { self.parties = parties }

    func arriveAndWait() {
        arrived.add(1, ordering: .sequentiallyConsistent)
        while arrived.load(ordering: .sequentiallyConsistent) < parties {}
    }
}
