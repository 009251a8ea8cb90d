import Determinism
import Testing

@testable import FeedEngine

/// A network that starts nothing on its own: it records every load and
/// finishes one only when the test says so.
private final class FakeImageTransport: ImageTransport {
    struct Load {
        let token: ImageLoadToken
        let request: ImageRequest
        let completion: (Result<Int, ImageLoadError>) -> Void
    }

    /// Loads started and neither finished nor cancelled, oldest first.
    private(set) var active: [Load] = []
    /// Every request handed to `load`, in order.
    private(set) var started: [ImageRequest] = []
    /// The keys of cancelled loads, in order.
    private(set) var cancelled: [ImageKey] = []
    private var nextID: UInt64 = 0

    var startedKeys: [ImageKey] { started.map(\.key) }
    var activeKeys: [ImageKey] { active.map(\.request.key) }

    func load(_ request: ImageRequest, completion: @escaping (Result<Int, ImageLoadError>) -> Void) -> ImageLoadToken {
        let token = ImageLoadToken(id: nextID)
        nextID += 1
        active.append(Load(token: token, request: request, completion: completion))
        started.append(request)
        return token
    }

    func cancel(_ token: ImageLoadToken) {
        guard let index = active.firstIndex(where: { $0.token == token }) else {
            Issue.record("The pipeline cancelled load \(token.id), which is not active")
            return
        }
        cancelled.append(active.remove(at: index).request.key)
    }

    /// Finishes the active load of `key`, downloading `bytes` (the request's
    /// encoded size by default).
    func succeed(_ key: ImageKey, bytes: Int? = nil) {
        guard let load = take(key) else { return }
        load.completion(.success(bytes ?? load.request.encodedBytes))
    }

    func fail(_ key: ImageKey, _ error: ImageLoadError) {
        take(key)?.completion(.failure(error))
    }

    /// Finishes the active load at `index` in start order.
    func finish(at index: Int, with result: Result<Int, ImageLoadError>) {
        active.remove(at: index).completion(result)
    }

    private func take(_ key: ImageKey) -> Load? {
        guard let index = active.firstIndex(where: { $0.request.key == key }) else {
            Issue.record("No active load for \(key); active: \(activeKeys)")
            return nil
        }
        return active.remove(at: index)
    }
}

/// A pipeline on a manual clock and a fake network, recording every outcome.
private final class ImagePipelineHarness {
    let scheduler = ManualScheduler()
    let transport = FakeImageTransport()
    let pipeline: ImagePipeline
    /// Every completion call, in order.
    private(set) var outcomes: [(owner: Int, outcome: ImageLoadOutcome)] = []

    init(_ configuration: ImagePipeline.Configuration = testConfiguration()) {
        pipeline = ImagePipeline(configuration: configuration, transport: transport, scheduler: scheduler)
    }

    func request(_ request: ImageRequest, owner: Int) {
        pipeline.request(request, for: owner) { [unowned self] outcome in
            outcomes.append((owner, outcome))
        }
        pipeline._checkInvariants()
    }

    func cancel(owner: Int) {
        pipeline.cancel(for: owner)
        pipeline._checkInvariants()
    }

    /// The sources of `owner`'s outcomes, in order.
    func sources(of owner: Int) -> [ImageLoadOutcome.Source] {
        outcomes.filter { $0.owner == owner }.map(\.outcome.source)
    }

    /// Requests `request` for a throwaway owner and downloads it at once, so
    /// it ends in both caches.
    func download(_ request: ImageRequest) {
        self.request(request, owner: -1)
        transport.succeed(request.key)
        scheduler.advance(by: 1_000_000_000)
        pipeline._checkInvariants()
    }
}

private func testConfiguration(
    decodeMode: ImageDecodeMode = .mainThread,
    diskReadLatency: Int64 = 1_000_000,
    memoryCacheCostLimit: Int = 1 << 30,
    diskCacheSizeLimit: Int = 1 << 30
) -> ImagePipeline.Configuration {
    ImagePipeline.Configuration(
        decodeMode: decodeMode,
        diskReadLatency: diskReadLatency,
        memoryCacheCostLimit: memoryCacheCostLimit,
        diskCacheSizeLimit: diskCacheSizeLimit
    )
}

private func key(_ id: Int) -> ImageKey { ImageKey(postID: PostID(id)) }

private func image(
    _ id: Int,
    _ priority: ImagePriority = .visible,
    width: Int = 100,
    height: Int = 100,
    bytes: Int = 1_000
) -> ImageRequest {
    ImageRequest(key: key(id), pixelWidth: width, pixelHeight: height, encodedBytes: bytes, priority: priority)
}

@Suite("ImagePipeline")
struct ImagePipelineTests {
    // MARK: Coalescing

    @Test("Duplicate requests for one key share one transport load and all hear back", arguments: [2, 5, 12])
    func coalescing(waiters: Int) {
        let harness = ImagePipelineHarness()
        for owner in 0..<waiters {
            harness.request(image(7), owner: owner)
        }
        harness.pipeline.prefetch([image(7, .prefetch)])
        #expect(harness.transport.startedKeys == [key(7)])
        #expect(harness.pipeline.counters.coalesced == waiters)
        #expect(harness.outcomes.isEmpty)

        harness.transport.succeed(key(7))
        harness.pipeline._checkInvariants()
        #expect(harness.outcomes.map(\.owner) == Array(0..<waiters))
        #expect(harness.outcomes.allSatisfy { $0.outcome.source == .network && $0.outcome.key == key(7) })
        #expect(harness.pipeline.counters.networkLoads == 1)
        #expect(harness.pipeline.counters.decodes == 1)
        #expect(harness.pipeline.activeLoadCount == 0)
        #expect(harness.pipeline.prefetchingKeys.isEmpty)
    }

    @Test("Requests joining a disk read are disk hits and share the read")
    func coalescingOnDisk() {
        let harness = ImagePipelineHarness()
        harness.pipeline.storeOnDisk(image(1))
        harness.request(image(1), owner: 0)
        harness.request(image(1), owner: 1)
        harness.scheduler.advance(by: 1_000_000)
        #expect(harness.outcomes.map(\.owner) == [0, 1])
        #expect(harness.outcomes.allSatisfy { $0.outcome.source == .disk })
        #expect(harness.pipeline.counters.diskHits == 2)
        #expect(harness.pipeline.counters.coalesced == 1)
        #expect(harness.pipeline.counters.decodes == 1)
        #expect(harness.transport.started.isEmpty)
    }

    // MARK: Concurrency limit

    @Test("Random requests, cancels, prefetches and completions never exceed 6 loads in flight")
    func concurrencyLimitHoldsUnderRandomTraffic() {
        var seedsThatQueued = 0
        for seed: UInt64 in 0..<60 where checkRandomTraffic(seed: 0x1A6E_0000 + seed) {
            seedsThatQueued += 1
        }
        #expect(seedsThatQueued >= 30, "only \(seedsThatQueued) of 60 runs ever had loads waiting for a slot")
    }

    /// Runs one random sequence, checking the limit after every step; returns
    /// whether loads ever waited for a slot, so the limit was really tested.
    private func checkRandomTraffic(seed: UInt64) -> Bool {
        var random = SplitMix64(seed: seed)
        let decodeMode: ImageDecodeMode =
            random.chance(percent: 50) ? .mainThread : .background(nanosecondsPerMegapixel: 2_000_000)
        let harness = ImagePipelineHarness(
            testConfiguration(
                decodeMode: decodeMode,
                memoryCacheCostLimit: 200_000,
                diskCacheSizeLimit: 8_000
            ))
        let pipeline = harness.pipeline
        let transport = harness.transport
        let keyCount = 24
        let ownerCount = 16
        var calls: [Int] = []
        var loadsWaited = false

        func randomImage(_ priority: ImagePriority) -> ImageRequest {
            image(
                random.nextIndex(below: keyCount), priority, width: 100 + random.nextIndex(below: 4) * 50,
                bytes: 500 + random.nextIndex(below: 1_000))
        }

        for step in 0..<400 {
            let context = "seed \(seed), step \(step)"
            switch random.nextIndex(below: 12) {
            case 0...3:
                let requestID = calls.count
                calls.append(0)
                let priority: ImagePriority = random.chance(percent: 80) ? .visible : .prefetch
                pipeline.request(randomImage(priority), for: random.nextIndex(below: ownerCount)) { _ in
                    calls[requestID] += 1
                }
            case 4:
                pipeline.cancel(for: random.nextIndex(below: ownerCount))
            case 5:
                pipeline.prefetch((0..<random.nextIndex(below: 4)).map { _ in randomImage(.prefetch) })
            case 6:
                pipeline.cancelPrefetching(
                    (0..<random.nextIndex(below: 4)).map { _ in key(random.nextIndex(below: keyCount)) })
            case 7:
                pipeline.setPrefetchTargets((0..<random.nextIndex(below: 6)).map { _ in randomImage(.prefetch) })
            case 8, 9:
                guard !transport.active.isEmpty else { break }
                let index = random.nextIndex(below: transport.active.count)
                let result: Result<Int, ImageLoadError> =
                    random.chance(percent: 15)
                    ? .failure(.timedOut)
                    : .success(transport.active[index].request.encodedBytes)
                transport.finish(at: index, with: result)
            case 10:
                harness.scheduler.advance(by: Int64(random.nextIndex(below: 3_000_000)))
            default:
                pipeline.didReceiveMemoryWarning(random.chance(percent: 50) ? .clearAll : .trimToFraction(0.5))
            }
            pipeline._checkInvariants()
            #expect(transport.active.count <= 6, "\(transport.active.count) loads in flight at \(context)")
            #expect(
                pipeline.inFlightLoadCount == transport.active.count, "pipeline and transport disagree at \(context)")
            #expect(Set(transport.activeKeys).count == transport.active.count, "one key loads twice at \(context)")
            if pipeline.queuedLoadCount > 0 {
                loadsWaited = true
                #expect(transport.active.count == 6, "loads wait while slots are free at \(context)")
            }
        }

        for owner in 0..<ownerCount {
            pipeline.cancel(for: owner)
        }
        pipeline.cancelPrefetching((0..<keyCount).map(key))
        harness.scheduler.advance(by: 1_000_000_000)
        pipeline._checkInvariants()
        #expect(transport.active.isEmpty, "seed \(seed): loads left in flight")
        #expect(pipeline.activeLoadCount == 0, "seed \(seed): loads left under way")
        #expect(calls.allSatisfy { $0 == 1 }, "seed \(seed): a completion was not called exactly once")
        #expect(pipeline.counters.requests == calls.count, "seed \(seed)")
        #expect(pipeline.diskCacheSize <= 8_000, "seed \(seed): disk cache over its limit")
        return loadsWaited
    }

    // MARK: Priority

    @Test("Queued visible loads start before queued prefetches, each in arrival order")
    func visibleBeforePrefetch() {
        let harness = ImagePipelineHarness()
        for id in 0..<6 {
            harness.request(image(id), owner: id)
        }
        harness.pipeline.prefetch([image(10, .prefetch), image(11, .prefetch)])
        harness.request(image(20), owner: 20)
        harness.request(image(21), owner: 21)
        harness.pipeline.prefetch([image(12, .prefetch)])
        #expect(harness.pipeline.queuedLoadCount == 5)
        #expect(harness.transport.started.count == 6)

        for id in 0..<5 {
            harness.transport.succeed(key(id))
            harness.pipeline._checkInvariants()
        }
        #expect(harness.transport.startedKeys.dropFirst(6) == [key(20), key(21), key(10), key(11), key(12)])
        #expect(
            harness.transport.started.dropFirst(6).map(\.priority) == [
                .visible, .visible, .prefetch, .prefetch, .prefetch,
            ])
    }

    @Test("A prefetch upgraded to visible jumps the prefetch queue, not the visible one")
    func upgradeJumpsQueue() {
        let harness = ImagePipelineHarness()
        for id in 0..<6 {
            harness.request(image(id), owner: id)
        }
        harness.request(image(20), owner: 20)
        harness.pipeline.prefetch([image(10, .prefetch), image(11, .prefetch), image(12, .prefetch)])
        harness.request(image(12), owner: 12)
        #expect(harness.pipeline.counters.coalesced == 1)

        for id in 0..<4 {
            harness.transport.succeed(key(id))
        }
        #expect(harness.transport.startedKeys.dropFirst(6) == [key(20), key(12), key(10), key(11)])
        #expect(harness.transport.started.last(where: { $0.key == key(12) })?.priority == .visible)
    }

    @Test("A visible load whose cell leaves falls back to its prefetch place")
    func downgradeReturnsToCreationOrder() {
        let harness = ImagePipelineHarness()
        for id in 0..<6 {
            harness.request(image(id), owner: id)
        }
        harness.pipeline.prefetch([image(10, .prefetch), image(11, .prefetch), image(12, .prefetch)])
        harness.request(image(11), owner: 11)
        harness.request(image(20), owner: 20)
        harness.cancel(owner: 11)
        #expect(harness.sources(of: 11) == [.cancelled])
        #expect(harness.pipeline.counters.abandonedLoads == 0)

        for id in 0..<4 {
            harness.transport.succeed(key(id))
        }
        #expect(harness.transport.startedKeys.dropFirst(6) == [key(20), key(10), key(11), key(12)])
    }

    // MARK: Cancellation

    @Test("A queued load whose only cell leaves is dropped and never reaches the network")
    func cancelQueued() {
        let harness = ImagePipelineHarness()
        for id in 0..<6 {
            harness.request(image(id), owner: id)
        }
        harness.request(image(100), owner: 100)
        #expect(harness.pipeline.queuedLoadCount == 1)
        harness.cancel(owner: 100)
        #expect(harness.sources(of: 100) == [.cancelled])
        #expect(harness.pipeline.queuedLoadCount == 0)
        #expect(harness.pipeline.counters.abandonedLoads == 1)
        #expect(harness.pipeline.counters.transportCancellations == 0)

        for id in 0..<6 {
            harness.transport.succeed(key(id))
        }
        #expect(!harness.transport.startedKeys.contains(key(100)))
        #expect(harness.transport.cancelled.isEmpty)
        #expect(harness.sources(of: 100) == [.cancelled])
    }

    @Test("An in-flight load whose only cell leaves is cancelled through the transport and frees its slot")
    func cancelInFlight() {
        let harness = ImagePipelineHarness()
        for id in 0..<7 {
            harness.request(image(id), owner: id)
        }
        let lateCompletion = harness.transport.active[3].completion
        harness.cancel(owner: 3)
        #expect(harness.transport.cancelled == [key(3)])
        #expect(harness.transport.activeKeys == [key(0), key(1), key(2), key(4), key(5), key(6)])
        #expect(harness.pipeline.counters.transportCancellations == 1)
        #expect(harness.pipeline.counters.cancellations == 1)

        lateCompletion(.success(1_000))
        harness.pipeline._checkInvariants()
        #expect(harness.sources(of: 3) == [.cancelled])
        #expect(!harness.pipeline.isOnDisk(key(3)) && !harness.pipeline.isInMemory(key(3)))
        #expect(harness.pipeline.counters.bytesDownloaded == 0)
    }

    @Test("A shared key keeps loading while another owner or a prefetch wants it")
    func sharedKeyNotCancelled() {
        let harness = ImagePipelineHarness()
        harness.request(image(1), owner: 1)
        harness.request(image(1), owner: 2)
        harness.pipeline.prefetch([image(1, .prefetch)])
        harness.cancel(owner: 1)
        harness.cancel(owner: 2)
        #expect(harness.transport.cancelled.isEmpty)
        #expect(harness.transport.activeKeys == [key(1)])

        harness.request(image(1), owner: 3)
        harness.pipeline.cancelPrefetching([key(1)])
        #expect(harness.transport.cancelled.isEmpty)
        harness.cancel(owner: 3)
        #expect(harness.transport.cancelled == [key(1)])
        #expect(harness.sources(of: 1) == [.cancelled])
        #expect(harness.sources(of: 2) == [.cancelled])
        #expect(harness.sources(of: 3) == [.cancelled])
        #expect(harness.pipeline.counters.abandonedLoads == 1)
    }

    @Test("A cell asking for another image cancels its previous request first")
    func replacingRequest() {
        let harness = ImagePipelineHarness()
        harness.download(image(2))
        harness.request(image(1), owner: 5)
        harness.request(image(2), owner: 5)
        #expect(harness.sources(of: 5) == [.cancelled, .memory])
        #expect(harness.transport.cancelled == [key(1)])
        #expect(harness.pipeline.counters.cancellations == 1)
    }

    @Test("Moving the prefetch window stops prefetching keys that left it")
    func prefetchWindowMoves() {
        let harness = ImagePipelineHarness()
        harness.pipeline.setPrefetchTargets([image(1, .prefetch), image(2, .prefetch), image(3, .prefetch)])
        harness.request(image(2), owner: 2)
        harness.pipeline.setPrefetchTargets([image(3, .prefetch), image(4, .prefetch)])
        harness.pipeline._checkInvariants()
        #expect(harness.transport.cancelled == [key(1)])
        #expect(harness.transport.activeKeys == [key(2), key(3), key(4)])
        #expect(harness.pipeline.prefetchingKeys == [key(3), key(4)])
        #expect(harness.pipeline.counters.prefetches == 4)
    }

    // MARK: Caches

    @Test("The memory cache evicts least recently used images until their decoded cost fits")
    func memoryEvictionOrder() {
        let harness = ImagePipelineHarness(testConfiguration(memoryCacheCostLimit: 120_000))
        for id in 1...3 {
            harness.download(image(id))
        }
        #expect(harness.pipeline.memoryCacheCost == 120_000)
        harness.request(image(1), owner: 0)
        harness.download(image(4))
        #expect(harness.pipeline.memoryCache.keysByRecency == [key(3), key(1), key(4)])

        harness.download(image(5, width: 200, height: 100))
        #expect(harness.pipeline.memoryCache.keysByRecency == [key(4), key(5)])
        #expect(harness.pipeline.memoryCacheCost == 120_000)
        #expect(harness.pipeline.memoryCacheEvictions == 3)
    }

    @Test("A memory hit reports the cached image's size, so a cell that guessed can re-measure")
    func memoryHitReportsSize() {
        let harness = ImagePipelineHarness()
        harness.download(image(1, width: 640, height: 480))
        harness.request(image(1, width: 0, height: 0), owner: 9)
        #expect(
            harness.outcomes.last?.outcome
                == ImageLoadOutcome(key: key(1), source: .memory, pixelWidth: 640, pixelHeight: 480))
    }

    @Test("An overflowing disk cache evicts least recently used data down to 75 % of its limit")
    func diskTrim() {
        let harness = ImagePipelineHarness(testConfiguration(diskCacheSizeLimit: 1_000))
        #expect(harness.pipeline.configuration.diskTrimTarget == 750)
        for id in 1...5 {
            harness.pipeline.storeOnDisk(image(id, bytes: 200))
        }
        #expect(harness.pipeline.diskCacheSize == 1_000)
        #expect(harness.pipeline.diskCacheEvictions == 0)

        harness.request(image(1), owner: 0)
        harness.scheduler.advance(by: 1_000_000)
        #expect(harness.sources(of: 0) == [.disk])
        #expect(harness.pipeline.diskCache.keysByRecency == [key(2), key(3), key(4), key(5), key(1)])

        harness.request(image(6), owner: 1)
        harness.transport.succeed(key(6), bytes: 200)
        #expect(harness.pipeline.diskCache.keysByRecency == [key(5), key(1), key(6)])
        #expect(harness.pipeline.diskCacheSize == 600)
        #expect(harness.pipeline.diskCacheEvictions == 3)
    }

    @Test("Downloads fill the disk cache with the bytes the transport reported")
    func diskStoresDownloadedBytes() {
        let harness = ImagePipelineHarness()
        harness.request(image(1, bytes: 5_000), owner: 0)
        harness.transport.succeed(key(1), bytes: 4_321)
        #expect(harness.pipeline.diskCacheSize == 4_321)
        #expect(harness.pipeline.counters.bytesDownloaded == 4_321)
        #expect(harness.pipeline.memoryCacheCost == 100 * 100 * 4)
    }

    @Test(
        "A memory warning clears or trims the memory cache and leaves the disk alone",
        arguments: [
            (MemoryTrimPolicy.clearAll, [Int]()),
            (.trimToFraction(0.5), [3, 4]),
            (.trimToFraction(0.6), [3, 4]),
            (.trimToFraction(1), [1, 2, 3, 4]),
        ] as [(MemoryTrimPolicy, [Int])]
    )
    func memoryWarning(policy: MemoryTrimPolicy, survivors: [Int]) {
        let harness = ImagePipelineHarness()
        for id in 1...4 {
            harness.download(image(id))
        }
        let diskSize = harness.pipeline.diskCacheSize
        harness.pipeline.didReceiveMemoryWarning(policy)
        harness.pipeline._checkInvariants()
        #expect(harness.pipeline.memoryCache.keysByRecency == survivors.map(key))
        #expect(harness.pipeline.memoryCacheCost == survivors.count * 40_000)
        #expect(harness.pipeline.diskCacheSize == diskSize)

        harness.request(image(1), owner: 0)
        harness.scheduler.advance(by: 1_000_000)
        #expect(harness.sources(of: 0) == [survivors.contains(1) ? .memory : .disk])
    }

    // MARK: Decoding

    @Test("A main-thread decode adds exactly width × height pixels to the drained work, once per decode")
    func mainThreadDecodeWork() {
        let harness = ImagePipelineHarness()
        harness.request(image(1, width: 300, height: 200), owner: 0)
        harness.request(image(1, width: 300, height: 200), owner: 1)
        #expect(harness.pipeline.drainWork().isZero)
        harness.transport.succeed(key(1))
        #expect(harness.outcomes.count == 2)

        var expected = WorkCounters()
        expected.mainThreadDecodedPixels = 60_000
        #expect(harness.pipeline.drainWork() == expected)
        #expect(harness.pipeline.drainWork().isZero)

        harness.request(image(1), owner: 2)
        #expect(harness.pipeline.drainWork().isZero)

        harness.pipeline.didReceiveMemoryWarning(.clearAll)
        harness.request(image(1), owner: 3)
        harness.scheduler.advance(by: 1_000_000)
        #expect(harness.sources(of: 3) == [.disk])
        #expect(harness.pipeline.drainWork() == expected)
        #expect(harness.pipeline.counters.decodes == 2)
    }

    @Test(
        """
        A background decode delays delivery by exactly the configured time per megapixel and costs the main \
        thread nothing
        """,
        arguments: [(1_000, 1_000, Int64(4_000_000)), (2_000, 1_500, 12_000_000), (500, 500, 1_000_000), (1, 1, 4)]
    )
    func backgroundDecodeDelay(width: Int, height: Int, expectedDelay: Int64) {
        let harness = ImagePipelineHarness(
            testConfiguration(
                decodeMode: .background(nanosecondsPerMegapixel: 4_000_000),
                diskReadLatency: 2_000_000
            ))
        harness.request(image(1, width: width, height: height), owner: 0)
        harness.scheduler.advance(by: 5_000_000)
        harness.transport.succeed(key(1))
        harness.scheduler.advance(by: expectedDelay - 1)
        #expect(harness.outcomes.isEmpty)
        #expect(harness.pipeline.activeLoadCount == 1)
        harness.scheduler.advance(to: 5_000_000 + expectedDelay)
        #expect(harness.sources(of: 0) == [.network])

        harness.pipeline.didReceiveMemoryWarning(.clearAll)
        let requested = harness.scheduler.now
        harness.request(image(1, width: width, height: height), owner: 1)
        harness.scheduler.advance(by: 2_000_000 + expectedDelay - 1)
        #expect(harness.sources(of: 1).isEmpty)
        harness.scheduler.advance(to: requested + 2_000_000 + expectedDelay)
        #expect(harness.sources(of: 1) == [.disk])
        #expect(harness.pipeline.drainWork().isZero)
        #expect(harness.pipeline.counters.decodes == 2)
    }

    @Test("A cell leaving during a background decode stops the decode; the data stays on disk")
    func cancelDuringDecode() {
        let harness = ImagePipelineHarness(
            testConfiguration(decodeMode: .background(nanosecondsPerMegapixel: 1_000_000)))
        harness.request(image(1), owner: 0)
        harness.transport.succeed(key(1))
        harness.cancel(owner: 0)
        harness.scheduler.advance(by: 1_000_000_000)
        #expect(harness.sources(of: 0) == [.cancelled])
        #expect(harness.pipeline.counters.decodes == 0)
        #expect(harness.pipeline.isOnDisk(key(1)) && !harness.pipeline.isInMemory(key(1)))
        #expect(harness.pipeline.counters.abandonedLoads == 1)
    }

    // MARK: Failure

    @Test("A failed download reaches every waiter once, is not retried, and caches nothing")
    func failureReachesAllWaiters() {
        let harness = ImagePipelineHarness()
        for owner in 0..<3 {
            harness.request(image(1), owner: owner)
        }
        harness.pipeline.prefetch([image(1, .prefetch)])
        harness.transport.fail(key(1), .timedOut)
        harness.pipeline._checkInvariants()
        #expect(harness.outcomes.map(\.owner) == [0, 1, 2])
        #expect(harness.outcomes.allSatisfy { $0.outcome.source == .failed(.timedOut) && !$0.outcome.isDelivered })
        #expect(harness.transport.started.count == 1)
        #expect(harness.transport.active.isEmpty)
        #expect(harness.pipeline.counters.failedLoads == 1)
        #expect(harness.pipeline.prefetchingKeys.isEmpty)
        #expect(!harness.pipeline.isOnDisk(key(1)) && !harness.pipeline.isInMemory(key(1)))
    }

    @Test("A completion may ask again at once: a cell retrying after a failure starts a fresh load")
    func reentrantRequestFromCompletion() {
        let harness = ImagePipelineHarness()
        var outcomes: [ImageLoadOutcome.Source] = []
        harness.pipeline.request(image(1), for: 0) { outcome in
            outcomes.append(outcome.source)
            harness.pipeline.request(image(1), for: 0) { outcomes.append($0.source) }
        }
        harness.transport.fail(key(1), .offline)
        harness.pipeline._checkInvariants()
        #expect(outcomes == [.failed(.offline)])
        #expect(harness.transport.activeKeys == [key(1)])
        harness.transport.succeed(key(1))
        #expect(outcomes == [.failed(.offline), .network])
    }

    // MARK: Hit rate

    @Test("The hit rate counts visible requests served from memory or disk, exactly")
    func hitRate() {
        let harness = ImagePipelineHarness()
        #expect(harness.pipeline.hitRate == 0)
        for id in 1...3 {
            harness.request(image(id), owner: id)
            harness.transport.succeed(key(id))
        }
        harness.request(image(1), owner: 1)
        harness.request(image(2), owner: 2)
        harness.pipeline.didReceiveMemoryWarning(.clearAll)
        harness.request(image(3), owner: 3)
        harness.request(image(3), owner: 4)
        harness.pipeline.prefetch([image(4, .prefetch), image(1, .prefetch)])
        harness.scheduler.advance(by: 1_000_000)

        let counters = harness.pipeline.counters
        #expect(counters.requests == 7)
        #expect(counters.memoryHits == 2)
        #expect(counters.diskHits == 2)
        #expect(counters.networkLoads == 4)
        #expect(counters.prefetches == 2)
        #expect(harness.pipeline.hitRate == 4.0 / 7.0)
        #expect(harness.sources(of: 3) == [.network, .disk])
        #expect(harness.sources(of: 4) == [.disk])
    }
}
