import DequeModule

extension FeedEngine {
    /// Makes the Swift runtime instantiate the metadata of the generic
    /// types the engine uses on paths a session may take and the warm-up's
    /// small tour may not: the image pipeline's containers
    /// (`ImagePipeline.instantiateRuntimeMetadata()`), the thread tuner's
    /// containers for replies, `offset_adjust`'s table of moved items and
    /// the diffs' changesets with every kind of change, by every algorithm,
    /// small and large. The runtime allocates each generic type's metadata
    /// once per process, at its first use; a run that used one first would
    /// count those allocations as its own, and count fewer as a later run
    /// in the same worker (at another `--jobs`). `Simulation.warmUpRuntime` calls this.
    ///
    /// - Complexity: O(1).
    package static func instantiateRuntimeMetadata() {
        ImagePipeline.instantiateRuntimeMetadata()
        OffsetAdjustingKeeper.instantiateRuntimeMetadata()
        FeedTuner.instantiateRuntimeMetadata()
        struct Row: Identifiable, Equatable {
            var id: PostID
            var version: Int
        }
        let old = (0..<6).map { Row(id: PostID($0), version: 0) }
        // A delete, an insert, a move and an update.
        let new = [
            Row(id: 5, version: 0), Row(id: 0, version: 1), Row(id: 2, version: 0), Row(id: 3, version: 0),
            Row(id: 9, version: 0), Row(id: 4, version: 0),
        ]
        for algorithm in DiffAlgorithm.allCases {
            let changes = algorithm.diff(from: old, to: new)
            _ = changes.apply(to: old, newElements: new)
            _ = changes.isConsistent(oldCount: old.count, newCount: new.count)
        }
        // And large ones: a sort of 64 elements or more takes a path (a
        // merge through a buffer) that instantiates witness tables a small
        // diff does not. Two lists of 34 that share only two rows, moved to
        // the front and updated, give 66 changes, moves and updates among
        // them.
        let many = (0..<34).map { Row(id: PostID($0), version: 0) }
        let replaced =
            [Row(id: 33, version: 1), Row(id: 32, version: 1)]
            + (100..<132).map { (index: Int) -> Row in Row(id: PostID(index), version: 0) }
        for algorithm in [DiffAlgorithm.heckel, .reloadAll] {
            let changes = algorithm.diff(from: many, to: replaced)
            _ = changes.apply(to: many, newElements: replaced)
            _ = changes.isConsistent(oldCount: many.count, newCount: replaced.count)
        }
        instantiateLargeCollectionDifference(from: many.map(\.id), to: replaced.map(\.id))
    }

    /// The standard library's part of a large `collectionDifference` diff:
    /// a `CollectionDifference` of the ids with more than 64 changes, which
    /// it sorts when it is made and again when it infers moves.
    ///
    /// Made from its changes rather than found by `difference(from:)`: the
    /// changes and their sorts are what a large diff adds to a small one,
    /// while Myers' search for them, O((N + M) · D), cost every start of
    /// feedsim 2 million instructions (34 against 34 rows).
    ///
    /// - Complexity: O((*n* + *m*) log(*n* + *m*)).
    private static func instantiateLargeCollectionDifference(from old: [PostID], to new: [PostID]) {
        // What Myers gives: every old id but the last one both lists hold is
        // removed, and every new id but that one is inserted.
        let stays = old.last { new.contains($0) }
        let removals = old.enumerated().filter { $0.element != stays }.map {
            CollectionDifference<PostID>.Change.remove(offset: $0.offset, element: $0.element, associatedWith: nil)
        }
        let insertions = new.enumerated().filter { $0.element != stays }.map {
            CollectionDifference<PostID>.Change.insert(offset: $0.offset, element: $0.element, associatedWith: nil)
        }
        guard let difference = CollectionDifference(removals + insertions) else { return }
        _ = Array(difference.inferringMoves())
    }
}

extension ImagePipeline {
    /// Makes the Swift runtime instantiate the metadata of the image
    /// pipeline's containers: its caches' slot arrays, its queues' buffers,
    /// its load table. The runtime allocates each generic type's metadata
    /// once per process, at the type's first use; a session whose images
    /// first grow a cache or a queue inside a measured run would count
    /// those allocations as its own, and the same run would count fewer
    /// after another had paid them (in a worker that ran another variant
    /// first, at another `--jobs`). The warm-up's tour is too small to
    /// grow them, so the warm-up calls this (`Simulation.warmUpRuntime`).
    ///
    /// - Complexity: O(1): a few entries in throwaway containers.
    package static func instantiateRuntimeMetadata() {
        var memory = LRUCache<ImageKey, _DecodedImage>(countLimit: 2)
        var disk = LRUCache<ImageKey, _EncodedImage>(countLimit: 2)
        var queue = Deque<ImageKey>()
        var loads: [ImageKey: _ImageLoad] = [:]
        var owners: [Int: ImageKey] = [:]
        var keys: [ImageKey] = []
        for index in 0..<4 {
            let key = ImageKey(postID: PostID(index), index: 0)
            let encoded = _EncodedImage(pixelWidth: 1, pixelHeight: 1, bytes: 1)
            memory.insert(_DecodedImage(pixelWidth: 1, pixelHeight: 1), forKey: key, cost: 1)
            disk.insert(encoded, forKey: key, cost: 1)
            queue.append(key)
            let request = ImageRequest(key: key, pixelWidth: 1, pixelHeight: 1, encodedBytes: 1, priority: .visible)
            loads[key] = _ImageLoad(
                request: request, origin: index.isMultiple(of: 2) ? .network : .disk(encoded), sequence: UInt64(index))
            owners[index] = key
            keys.append(key)
        }
        _ = memory.value(forKey: keys[3])
        memory.trim(toCost: 1)
        memory.removeAll(keepingCapacity: true)
        disk.trim(toCount: 1)
        disk.removeAll(keepingCapacity: true)
        _ = queue.popFirst()
        queue.removeAll(keepingCapacity: true)
        loads.removeAll(keepingCapacity: true)
        owners.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        for decodeMode in [ImageDecodeMode.mainThread, .background(nanosecondsPerMegapixel: 1_000_000)] {
            exercise(decodeMode: decodeMode)
        }
    }

    /// A small pipeline of its own driven along the paths a session's
    /// cells take: loads several cells share, a cell that cancels or asks
    /// for another image while its load waits, prefetching that starts,
    /// moves and stops, downloads that finish and fail, and both memory
    /// trims.
    private static func exercise(decodeMode: ImageDecodeMode) {
        let transport = HeldImageTransport()
        let scheduler = ManualScheduler()
        let pipeline = ImagePipeline(
            configuration: Configuration(
                decodeMode: decodeMode, diskReadLatency: 1_000_000, memoryCacheCostLimit: 64, diskCacheSizeLimit: 64,
                maxConcurrentLoads: 2, prefetchWindow: 4),
            transport: transport, scheduler: scheduler)
        func request(_ post: Int, _ priority: ImagePriority = .visible) -> ImageRequest {
            ImageRequest(
                key: ImageKey(postID: PostID(post), index: 0), pixelWidth: 4, pixelHeight: 4, encodedBytes: 16,
                priority: priority)
        }
        for owner in 0..<8 { pipeline.request(request(owner % 3), for: owner) { _ in } }
        pipeline.cancel(for: 1)
        pipeline.request(request(5), for: 2) { _ in }
        pipeline.prefetch((10..<16).map { request($0, .prefetch) })
        pipeline.setPrefetchTargets((13..<19).map { request($0, .prefetch) })
        pipeline.cancelPrefetching((13..<15).map { ImageKey(postID: PostID($0), index: 0) })
        for round in 0..<4 {
            transport.finish(failing: round == 1)
            scheduler.advance(by: 50_000_000)
        }
        for owner in 8..<12 { pipeline.request(request(owner % 3), for: owner) { _ in } }
        scheduler.advance(by: 50_000_000)
        pipeline.didReceiveMemoryWarning(.trimToFraction(0.5))
        pipeline.didReceiveMemoryWarning(.clearAll)
        for owner in 0..<12 { pipeline.cancel(for: owner) }
        transport.finish(failing: false)
        scheduler.advance(by: 50_000_000)
        _ = pipeline.drainWork()
    }
}

/// A transport that holds every load until told to finish them all.
private final class HeldImageTransport: ImageTransport {
    private var pending: [(token: ImageLoadToken, completion: (Result<Int, ImageLoadError>) -> Void)] = []
    private var cancelled: Set<ImageLoadToken> = []
    private var next: UInt64 = 0

    func load(_ request: ImageRequest, completion: @escaping (Result<Int, ImageLoadError>) -> Void) -> ImageLoadToken {
        next += 1
        let token = ImageLoadToken(id: next)
        pending.append((token, completion))
        return token
    }

    func cancel(_ token: ImageLoadToken) { cancelled.insert(token) }

    /// Finishes every load held now, each with its bytes or a failure.
    func finish(failing: Bool) {
        let held = pending
        pending = []
        for load in held where !cancelled.contains(load.token) {
            load.completion(failing ? .failure(.serverError) : .success(16))
        }
    }
}
