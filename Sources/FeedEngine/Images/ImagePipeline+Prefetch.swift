/// Prefetching: loading images for cells about to scroll on screen, so
/// they are in memory when their cells ask.
extension ImagePipeline {
    /// Starts loading images that cells will soon ask for, without a
    /// completion: the image ends up in the memory cache.
    ///
    /// An image already in memory is marked most recently used, so eviction
    /// spares it until its cell asks. A key already being loaded gains the
    /// prefetch's interest (counted as coalesced); otherwise a load starts
    /// from disk, or queues for the network at the request's priority
    /// (normally `.prefetch`). Prefetching a key twice changes nothing but
    /// its priority.
    ///
    /// - Complexity: O(*r*) for *r* requests, plus O(*q*) per queued load
    ///   whose priority changes.
    package func prefetch(_ requests: [ImageRequest]) {
        for request in requests {
            startPrefetching(request)
        }
        startQueuedLoads()
    }

    /// Stops prefetching `keys`. A load that no cell waits on either is
    /// dropped from the queue or cancelled through the transport; keys not
    /// being prefetched are ignored.
    ///
    /// - Complexity: O(*k* × (*p* + *q*)) for *k* keys, *p* prefetched keys
    ///   and *q* queued loads.
    package func cancelPrefetching(_ keys: [ImageKey]) {
        for key in keys {
            guard let load = loads[key], load.prefetchPriority != nil else { continue }
            load.prefetchPriority = nil
            removePrefetchedKey(key)
            settleInterest(in: load)
        }
        startQueuedLoads()
    }

    /// Makes `requests` the whole prefetch set: stops prefetching every key
    /// not among them, in the order prefetching started, then prefetches
    /// them. What an engine calls each time the prefetch window moves.
    ///
    /// - Complexity: O(*p* × (*r* + *p* + *q*)) for *r* requests, *p*
    ///   prefetched keys and *q* queued loads.
    package func setPrefetchTargets(_ requests: [ImageRequest]) {
        // The window is a handful of requests: scanning them finds a key
        // without building a Set, an allocation every time the window moves.
        cancelPrefetching(prefetchedKeys.filter { key in !requests.contains { $0.key == key } })
        prefetch(requests)
    }

    /// The keys being prefetched, in the order prefetching started.
    ///
    /// - Complexity: O(1)
    package var prefetchingKeys: [ImageKey] { prefetchedKeys }

    private func startPrefetching(_ request: ImageRequest) {
        let key = request.key
        if memoryCache.valueIfPresent(forKey: key) != nil { return }
        if let load = loads[key] {
            if load.prefetchPriority == nil {
                counters.prefetches += 1
                counters.coalesced += 1
                prefetchedKeys.append(key)
            }
            load.prefetchPriority = request.priority
            reprioritize(load)
            return
        }
        counters.prefetches += 1
        let load = beginLoad(for: request)
        load.prefetchPriority = request.priority
        prefetchedKeys.append(key)
        startLoad(load)
    }
}
