extension ImagePipeline {
    /// Traps unless the loads, queues, owners, prefetch set, slot count and
    /// caches agree.
    ///
    /// - Complexity: O(*l* × *q* + *m* + *d*) for *l* loads, *q* queued
    ///   loads and *m*, *d* cached images.
    internal func _checkInvariants() {
        var loading = 0
        var queued = 0
        var waiting = 0
        var prefetched = 0
        for (key, load) in loads {
            precondition(load.key == key, "load for \(load.key) filed under \(key)")
            guard let priority = load.priority else { preconditionFailure("nothing wants the load for \(key)") }
            precondition(!memoryCache.contains(key), "\(key) is loading and in memory")
            waiting += load.waiters.count
            for waiter in load.waiters {
                precondition(keyOfOwner[waiter.owner] == key, "owner \(waiter.owner) waits on \(key) unrecorded")
                precondition(waiter.request.key == key, "owner \(waiter.owner) asked for another key than \(key)")
            }
            if load.prefetchPriority != nil {
                prefetched += 1
                precondition(prefetchedKeys.contains(key), "\(key) is prefetched but not listed")
            }
            switch load.stage {
            case .new:
                preconditionFailure("load for \(key) was never started")
            case .queued(let queue):
                queued += 1
                precondition(queue == priority, "\(key) at \(priority) sits in the \(queue) queue")
                precondition(!load.isFromDisk, "disk read for \(key) is queued for the network")
                let inQueue = queue == .visible ? visibleQueue.contains(key) : prefetchQueue.contains(key)
                precondition(inQueue, "\(key) is queued but in no queue")
            case .loading(_, let token):
                loading += 1
                precondition(token != nil, "\(key) is in flight without a token")
            case .reading:
                precondition(load.isFromDisk, "\(key) reads the disk without data there")
            case .decoding:
                precondition(!load.isFromDisk, "\(key) decodes a download but came from disk")
            }
        }
        precondition(loading == inFlightCount, "\(loading) loads in flight but \(inFlightCount) counted")
        precondition(inFlightCount <= configuration.maxConcurrentLoads, "\(inFlightCount) loads in flight")
        precondition(queued == visibleQueue.count + prefetchQueue.count, "queues hold \(queued) loads twice or stale")
        precondition(
            inFlightCount == configuration.maxConcurrentLoads || queued == 0,
            "\(queued) loads queued while \(configuration.maxConcurrentLoads - inFlightCount) slots are free"
        )
        for (before, after) in zip(prefetchQueue, prefetchQueue.dropFirst()) {
            precondition(loads[before]!.sequence < loads[after]!.sequence, "prefetch queue out of creation order")
        }
        precondition(waiting == keyOfOwner.count, "\(keyOfOwner.count) owners recorded, \(waiting) waiting")
        precondition(prefetched == prefetchedKeys.count, "prefetch list holds stale or repeated keys")
        precondition(diskCache.totalCost <= configuration.diskCacheSizeLimit, "disk cache over its limit")
        precondition(startingLoadID == nil, "a transport load is still starting")
        memoryCache._checkInvariants()
        diskCache._checkInvariants()
    }
}
