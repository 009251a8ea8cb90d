import DequeModule

/// Loads images for feed cells the way Nuke does, without pixels: a memory
/// cache of decoded images, a disk cache of encoded data, coalesced and
/// prioritised network loads with a concurrency limit, prefetching and
/// cancellation.
///
/// A visible cell asks with `request(_:for:completion:)`. The image comes
/// from the first place that has it:
/// 1. the memory cache, at once, inside the call (Nuke's memory-cache fast
///    path: a cell configured with a cached image never shows a placeholder);
/// 2. the disk cache, `diskReadLatency` later, plus the decode;
/// 3. the network, through the `ImageTransport`; at most
///    `maxConcurrentLoads` downloads run at once, and the rest wait in
///    priority order (visible before prefetch, then first come first
///    served). The downloaded data goes to the disk cache, which trims
///    itself to `diskTrimFraction` of its limit when it overflows, then is
///    decoded and put in the memory cache.
///
/// Requests for a key already being loaded join that load: one download,
/// every waiter told. A load nobody wants any more (every owner cancelled,
/// prefetching stopped) is dropped from the queue or cancelled through the
/// transport. Failures reach every waiter as `.failed`; retrying is the
/// network model's business.
///
/// Every request's completion is called exactly once: with the image, with
/// `.failed`, or with `.cancelled` when its owner cancels or replaces it.
///
/// The pipeline is single-threaded and synchronous; time reaches it only
/// through the `EngineScheduler`. Queues are arrays and deques and
/// dictionaries are used only for lookup, so every run is the same.
package final class ImagePipeline {
    /// Everything that configures an `ImagePipeline`.
    package struct Configuration: Hashable, Sendable {
        /// Bytes a decoded pixel takes: 8-bit RGBA, the bitmap UIKit decodes
        /// photos into.
        package static let bytesPerDecodedPixel = 4

        /// The decoded-image memory budget of the reference Instagram design
        /// (an `NSCache` with a 50 MB total cost limit).
        package static let defaultMemoryCacheCostLimit = 50 * 1_024 * 1_024

        /// The disk budget of the reference Instagram design (LRU eviction
        /// at 500 MB).
        package static let defaultDiskCacheSizeLimit = 500 * 1_024 * 1_024

        /// What an overflowing disk cache trims to, as a fraction of its
        /// limit: the middle of the 70–80 % the project's design names for
        /// its disk cache (docs/design.md).
        package static let defaultDiskTrimFraction = 0.75

        /// Downloads at once: the reference Instagram design's limit, also
        /// the per-host connection limit of HTTP/1.1 clients.
        package static let defaultMaxConcurrentLoads = 6

        /// Posts prefetched ahead of the viewport: the low end of the
        /// reference Instagram design's 5–10.
        package static let defaultPrefetchWindow = 5

        /// The largest total cost of decoded images kept in memory, in bytes
        /// (width × height × `bytesPerDecodedPixel` each).
        package var memoryCacheCostLimit: Int
        /// The largest total size of encoded data kept on disk, in bytes.
        package var diskCacheSizeLimit: Int
        /// When the disk cache exceeds its limit it evicts least recently
        /// used data until it holds at most this fraction of the limit.
        package var diskTrimFraction: Double
        /// The most downloads in flight at once.
        package var maxConcurrentLoads: Int
        /// How many posts past the viewport to prefetch: the window the
        /// engine's image prefetch policy works with (0 turns prefetching off).
        package var prefetchWindow: Int
        /// Where decoding costs time.
        package var decodeMode: ImageDecodeMode
        /// How long a disk cache read takes, in nanoseconds.
        package var diskReadLatency: Int64

        /// Creates a configuration. The decode mode and the disk latency
        /// model the device and have no default: the device profile supplies
        /// them.
        ///
        /// - Parameters:
        ///   - decodeMode: Where decoding costs time.
        ///   - diskReadLatency: Nanoseconds per disk cache read; not negative.
        ///   - memoryCacheCostLimit: Bytes of decoded images; not negative.
        ///   - diskCacheSizeLimit: Bytes of encoded data; not negative.
        ///   - diskTrimFraction: In 0...1.
        ///   - maxConcurrentLoads: At least 1.
        ///   - prefetchWindow: Posts ahead; not negative.
        package init(
            decodeMode: ImageDecodeMode,
            diskReadLatency: Int64,
            memoryCacheCostLimit: Int = Configuration.defaultMemoryCacheCostLimit,
            diskCacheSizeLimit: Int = Configuration.defaultDiskCacheSizeLimit,
            diskTrimFraction: Double = Configuration.defaultDiskTrimFraction,
            maxConcurrentLoads: Int = Configuration.defaultMaxConcurrentLoads,
            prefetchWindow: Int = Configuration.defaultPrefetchWindow
        ) {
            self.decodeMode = decodeMode
            self.diskReadLatency = diskReadLatency
            self.memoryCacheCostLimit = memoryCacheCostLimit
            self.diskCacheSizeLimit = diskCacheSizeLimit
            self.diskTrimFraction = diskTrimFraction
            self.maxConcurrentLoads = maxConcurrentLoads
            self.prefetchWindow = prefetchWindow
        }

        /// The disk size an overflowing disk cache trims to, in bytes.
        package var diskTrimTarget: Int {
            Int((Double(diskCacheSizeLimit) * diskTrimFraction).rounded(.down))
        }

        fileprivate func validate() {
            precondition(memoryCacheCostLimit >= 0, "ImagePipeline memoryCacheCostLimit must not be negative")
            precondition(diskCacheSizeLimit >= 0, "ImagePipeline diskCacheSizeLimit must not be negative")
            precondition((0...1).contains(diskTrimFraction), "ImagePipeline diskTrimFraction must lie in 0...1")
            precondition(maxConcurrentLoads >= 1, "ImagePipeline needs at least one concurrent load")
            precondition(prefetchWindow >= 0, "ImagePipeline prefetchWindow must not be negative")
            precondition(diskReadLatency >= 0, "ImagePipeline diskReadLatency must not be negative")
            if case .background(let nanoseconds) = decodeMode {
                precondition(nanoseconds >= 0, "ImagePipeline decode time per megapixel must not be negative")
            }
        }
    }

    /// What the pipeline has done, as counts.
    package struct Counters: Hashable, Sendable {
        /// Calls to `request(_:for:completion:)`.
        package var requests = 0
        /// Requests answered from the memory cache.
        package var memoryHits = 0
        /// Requests answered from the disk cache, including those that joined
        /// a disk read already under way.
        package var diskHits = 0
        /// Downloads started through the transport.
        package var networkLoads = 0
        /// Requests and prefetches that joined a load already under way
        /// instead of starting one.
        package var coalesced = 0
        /// Prefetches that started or joined a load.
        package var prefetches = 0
        /// Requests ended with `.cancelled` because their owner cancelled or
        /// replaced them.
        package var cancellations = 0
        /// Loads dropped because nothing wanted them any more: from the
        /// queue, in flight (cancelled through the transport), or while
        /// reading the disk or decoding.
        package var abandonedLoads = 0
        /// Of `abandonedLoads`, the downloads cancelled through the transport.
        package var transportCancellations = 0
        /// Downloads that failed.
        package var failedLoads = 0
        /// Images decoded, on the main thread or in background.
        package var decodes = 0
        /// Bytes the transport reported downloaded.
        package var bytesDownloaded = 0

        /// Creates zeroed counters.
        package init() {}

        /// The fraction of requests answered from memory or disk; 0 when
        /// there were none.
        package var hitRate: Double {
            requests == 0 ? 0 : Double(memoryHits + diskHits) / Double(requests)
        }
    }

    /// The configuration the pipeline was created with.
    package let configuration: Configuration

    /// What the pipeline has done so far.
    @exclusivity(unchecked) package internal(set) var counters = Counters()

    /// Held, as the engine holds its own: neither holds the pipeline.
    let transport: any ImageTransport
    let scheduler: any EngineScheduler

    @exclusivity(unchecked) var memoryCache: LRUCache<ImageKey, _DecodedImage>
    @exclusivity(unchecked) var diskCache: LRUCache<ImageKey, _EncodedImage>
    /// The load under way for each key; for lookup only.
    @exclusivity(unchecked) var loads: [ImageKey: _ImageLoad] = [:]
    /// The key each owner's request waits on; for lookup only.
    @exclusivity(unchecked) var keyOfOwner: [Int: ImageKey] = [:]
    /// Queued visible loads, in the order they became visible.
    @exclusivity(unchecked) var visibleQueue = Deque<ImageKey>()
    /// Queued prefetch loads, in creation order.
    @exclusivity(unchecked) var prefetchQueue = Deque<ImageKey>()
    /// Keys with prefetch interest, in the order prefetching started.
    @exclusivity(unchecked) var prefetchedKeys: [ImageKey] = []
    @exclusivity(unchecked) var inFlightCount = 0
    @exclusivity(unchecked) var nextSequence: UInt64 = 0
    /// The load whose transport `load` call is running, to catch a
    /// transport that completes synchronously.
    @exclusivity(unchecked) var startingLoadID: UInt64?
    @exclusivity(unchecked) var pendingWork = WorkCounters()

    /// Creates a pipeline with empty caches.
    ///
    /// - Parameters:
    ///   - configuration: Limits, decode mode and latencies.
    ///   - transport: The network side; not retained.
    ///   - scheduler: The source of time and timers; not retained.
    package init(configuration: Configuration, transport: any ImageTransport, scheduler: any EngineScheduler) {
        configuration.validate()
        self.configuration = configuration
        self.transport = transport
        self.scheduler = scheduler
        memoryCache = LRUCache(costLimit: configuration.memoryCacheCostLimit)
        diskCache = LRUCache()
    }

    // MARK: Reading the state

    /// The fraction of requests answered from memory or disk; 0 when there
    /// were none.
    ///
    /// - Complexity: O(1)
    package var hitRate: Double { counters.hitRate }

    /// Bytes of decoded images in the memory cache, for a memory model.
    ///
    /// - Complexity: O(1)
    package var memoryCacheCost: Int { memoryCache.totalCost }

    /// Bytes of encoded data in the disk cache.
    ///
    /// - Complexity: O(1)
    package var diskCacheSize: Int { diskCache.totalCost }

    /// Images the memory cache evicted on its own (to respect its limit or
    /// on a memory warning's trim).
    ///
    /// - Complexity: O(1)
    package var memoryCacheEvictions: Int { memoryCache.evictions }

    /// Encoded images the disk cache evicted when trimming.
    ///
    /// - Complexity: O(1)
    package var diskCacheEvictions: Int { diskCache.evictions }

    /// Downloads in flight through the transport; never more than
    /// `configuration.maxConcurrentLoads`.
    ///
    /// - Complexity: O(1)
    package var inFlightLoadCount: Int { inFlightCount }

    /// Loads waiting for a download slot.
    ///
    /// - Complexity: O(1)
    package var queuedLoadCount: Int { visibleQueue.count + prefetchQueue.count }

    /// Loads under way in any stage: queued, downloading, reading the disk
    /// or decoding.
    ///
    /// - Complexity: O(1)
    package var activeLoadCount: Int { loads.count }

    /// Whether the decoded image for `key` is in the memory cache; neither
    /// counts nor refreshes recency.
    ///
    /// - Complexity: O(1) expected.
    package func isInMemory(_ key: ImageKey) -> Bool { memoryCache.contains(key) }

    /// Whether encoded data for `key` is in the disk cache; neither counts
    /// nor refreshes recency.
    ///
    /// - Complexity: O(1) expected.
    package func isOnDisk(_ key: ImageKey) -> Bool { diskCache.contains(key) }

    /// Returns the work done since the last call (main-thread decodes) and
    /// starts counting afresh; the owner's cost model charges it.
    ///
    /// - Complexity: O(1)
    package func drainWork() -> WorkCounters {
        let work = pendingWork
        pendingWork = WorkCounters()
        return work
    }

    // MARK: Requests from cells

    /// Asks for the image a visible cell shows.
    ///
    /// A memory cache hit calls `completion` with `.memory` before this
    /// returns. Otherwise it is called later, from the scheduler or the
    /// transport's completion, with `.disk`, `.network` or `.failed`; or with
    /// `.cancelled` when `cancel(for:)` or another request for the same owner
    /// comes first. An owner has at most one request: a new one replaces the
    /// old, whose completion gets `.cancelled` before the new one is served.
    ///
    /// - Parameters:
    ///   - request: The image, its size and priority.
    ///   - owner: The cell asking, by an identifier the caller chooses; a
    ///     carousel cell uses one owner per page.
    ///   - completion: Called exactly once with the outcome.
    /// - Complexity: O(1) expected for a hit or a join; O(*q*) for *q* queued
    ///   loads when the request changes a queued load's priority.
    package func request(_ request: ImageRequest, for owner: Int, completion: @escaping (ImageLoadOutcome) -> Void) {
        counters.requests += 1
        let replaced = detachWaiter(of: owner)
        let key = request.key

        if let image = memoryCache.value(forKey: key) {
            counters.memoryHits += 1
            releaseInterest(of: replaced)
            startQueuedLoads()
            notifyCancelled(replaced)
            completion(ImageLoadOutcome(image, key: key, source: .memory))
            return
        }

        let waiter = _ImageWaiter(owner: owner, request: request, completion: completion)
        keyOfOwner[owner] = key
        if let load = loads[key] {
            counters.coalesced += 1
            if load.isFromDisk { counters.diskHits += 1 }
            load.waiters.append(waiter)
            reprioritize(load)
        } else {
            let load = beginLoad(for: request)
            if load.isFromDisk { counters.diskHits += 1 }
            load.waiters.append(waiter)
            startLoad(load)
        }
        releaseInterest(of: replaced)
        startQueuedLoads()
        notifyCancelled(replaced)
    }

    /// The cell left the screen or was reused: its request ends with
    /// `.cancelled`, called before this returns. The load behind it goes on
    /// if another owner or a prefetch still wants the key; otherwise it is
    /// dropped from the queue, or cancelled through the transport if in
    /// flight. Does nothing for an owner with no request.
    ///
    /// - Complexity: O(*w* + *q*) for *w* waiters on the load and *q* queued
    ///   loads.
    package func cancel(for owner: Int) {
        guard let cancelled = detachWaiter(of: owner) else { return }
        releaseInterest(of: cancelled)
        startQueuedLoads()
        notifyCancelled(cancelled)
    }

    // MARK: Memory

    /// The system is short of memory: drops decoded images per `policy`.
    /// The disk cache and loads under way are untouched.
    ///
    /// - Complexity: O(*e*) for *e* evicted images; O(*n*) to clear all.
    package func didReceiveMemoryWarning(_ policy: MemoryTrimPolicy) {
        switch policy {
        case .clearAll:
            memoryCache.removeAll(keepingCapacity: true)
        case .trimToFraction(let fraction):
            precondition((0...1).contains(fraction), "A memory trim fraction must lie in 0...1, not \(fraction)")
            memoryCache.trim(toCost: Int((Double(memoryCache.totalCost) * fraction).rounded(.down)))
        }
    }

    /// Puts `request`'s encoded data in the disk cache as if it had been
    /// downloaded in an earlier session, for runs that start warm. Trims the
    /// disk cache as a download would.
    ///
    /// - Complexity: O(1) expected, plus O(1) per eviction.
    package func storeOnDisk(_ request: ImageRequest) {
        storeEncoded(request, bytes: request.encodedBytes)
    }
}

extension ImageLoadOutcome {
    init(_ image: _DecodedImage, key: ImageKey, source: Source) {
        self.init(key: key, source: source, pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight)
    }

    init(_ request: ImageRequest, source: Source) {
        self.init(key: request.key, source: source, pixelWidth: request.pixelWidth, pixelHeight: request.pixelHeight)
    }
}
