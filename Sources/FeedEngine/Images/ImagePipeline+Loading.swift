/// The stages a load goes through: disk read or queue, download, disk store,
/// decode, memory store, delivery; and how it is dropped when nothing wants
/// it any more.
extension ImagePipeline {
    /// A request taken off its load, whose completion is still owed
    /// `.cancelled`.
    struct _DetachedWaiter {
        let load: _ImageLoad
        let waiter: _ImageWaiter
    }

    // MARK: Owners

    /// Takes `owner`'s request off its load without settling the load, so a
    /// replacing request for the same key can join it first.
    func detachWaiter(of owner: Int) -> _DetachedWaiter? {
        guard let key = keyOfOwner.removeValue(forKey: owner) else { return nil }
        guard let load = loads[key], let index = load.waiters.firstIndex(where: { $0.owner == owner }) else {
            preconditionFailure("Owner \(owner) waits on \(key), which has no load waiting for it")
        }
        counters.cancellations += 1
        return _DetachedWaiter(load: load, waiter: load.waiters.remove(at: index))
    }

    /// Drops or re-queues the load a detached request waited on. The caller
    /// starts queued loads, then calls `notifyCancelled(_:)`, so the
    /// completion sees a settled pipeline.
    func releaseInterest(of detached: _DetachedWaiter?) {
        guard let detached, loads[detached.load.key] === detached.load else { return }
        settleInterest(in: detached.load)
    }

    /// Tells a detached request it was cancelled.
    func notifyCancelled(_ detached: _DetachedWaiter?) {
        guard let detached else { return }
        detached.waiter.completion(ImageLoadOutcome(detached.waiter.request, source: .cancelled))
    }

    /// Abandons `load` if nothing wants it, or moves it to the queue its
    /// priority now calls for.
    func settleInterest(in load: _ImageLoad) {
        if load.priority == nil {
            abandon(load)
        } else {
            reprioritize(load)
        }
    }

    // MARK: Starting

    /// Registers a load for `request`'s key, reading the disk if the disk
    /// cache has the data (which refreshes its recency) and the network
    /// otherwise. `startLoad(_:)` must follow once its first waiter is on.
    func beginLoad(for request: ImageRequest) -> _ImageLoad {
        let origin: _ImageLoad.Origin = diskCache.value(forKey: request.key).map { .disk($0) } ?? .network
        let load = _ImageLoad(request: request, origin: origin, sequence: takeSequenceNumber())
        loads[request.key] = load
        return load
    }

    /// Schedules a disk read, or queues a download.
    func startLoad(_ load: _ImageLoad) {
        switch load.origin {
        case .disk(let encoded):
            let key = load.key
            let sequence = load.sequence
            let delay =
                configuration.diskReadLatency + backgroundDecodeDelay(pixels: encoded.pixelWidth * encoded.pixelHeight)
            let action = scheduler.schedule(after: delay) {
                self.diskReadFinished(key: key, sequence: sequence)
            }
            load.stage = .reading(action)
        case .network:
            enqueue(load)
        }
    }

    private func diskReadFinished(key: ImageKey, sequence: UInt64) {
        guard let load = loads[key], load.sequence == sequence, case .reading = load.stage,
            case .disk(let encoded) = load.origin
        else { return }
        let image = _DecodedImage(pixelWidth: encoded.pixelWidth, pixelHeight: encoded.pixelHeight)
        complete(load, with: image, source: .disk)
    }

    /// The background decode time of an image of `pixels` pixels, in
    /// nanoseconds rounded to the nearest; 0 when decoding on the main thread.
    func backgroundDecodeDelay(pixels: Int) -> Int64 {
        guard case .background(let nanosecondsPerMegapixel) = configuration.decodeMode else { return 0 }
        return (Int64(pixels) * nanosecondsPerMegapixel + 500_000) / 1_000_000
    }

    func takeSequenceNumber() -> UInt64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    // MARK: Queue

    /// Puts `load` at the back of its priority's queue; a prefetch load goes
    /// back to its place by creation order.
    ///
    /// - Complexity: O(1) amortized for a visible load; O(*q*) for a
    ///   prefetch load that is not the newest.
    func enqueue(_ load: _ImageLoad) {
        guard let priority = load.priority else { preconditionFailure("Queuing \(load.key), which nothing wants") }
        load.stage = .queued(priority)
        switch priority {
        case .visible:
            visibleQueue.append(load.key)
        case .prefetch:
            var low = 0
            var high = prefetchQueue.count
            while low < high {
                let middle = (low + high) / 2
                if loads[prefetchQueue[middle]]!.sequence < load.sequence {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            prefetchQueue.insert(load.key, at: low)
        }
    }

    /// Moves a queued load whose priority changed to the other queue: an
    /// upgraded prefetch goes ahead of every prefetch load, behind the
    /// visible ones already waiting.
    ///
    /// - Complexity: O(*q*) for *q* queued loads.
    func reprioritize(_ load: _ImageLoad) {
        guard case .queued(let queued) = load.stage, let priority = load.priority, priority != queued else { return }
        removeFromQueue(load.key, priority: queued)
        enqueue(load)
    }

    private func removeFromQueue(_ key: ImageKey, priority: ImagePriority) {
        switch priority {
        case .visible:
            visibleQueue.remove(at: visibleQueue.firstIndex(of: key)!)
        case .prefetch:
            prefetchQueue.remove(at: prefetchQueue.firstIndex(of: key)!)
        }
    }

    /// Starts queued downloads, visible first, while slots are free.
    func startQueuedLoads() {
        while inFlightCount < configuration.maxConcurrentLoads,
            let key = visibleQueue.popFirst() ?? prefetchQueue.popFirst()
        {
            startDownload(loads[key]!)
        }
    }

    // MARK: Network

    private func startDownload(_ load: _ImageLoad) {
        let id = takeSequenceNumber()
        let key = load.key
        load.stage = .loading(id: id, token: nil)
        inFlightCount += 1
        counters.networkLoads += 1
        startingLoadID = id
        let token = transport.load(load.transportRequest) { result in
            self.downloadFinished(key: key, id: id, result: result)
        }
        startingLoadID = nil
        load.stage = .loading(id: id, token: token)
    }

    private func downloadFinished(key: ImageKey, id: UInt64, result: Result<Int, ImageLoadError>) {
        precondition(startingLoadID != id, "ImageTransport completed the load of \(key) synchronously")
        guard let load = loads[key], case .loading(let loadID, _) = load.stage, loadID == id else { return }
        inFlightCount -= 1
        startQueuedLoads()
        switch result {
        case .failure(let error):
            counters.failedLoads += 1
            retire(load)
            for waiter in load.waiters {
                waiter.completion(ImageLoadOutcome(waiter.request, source: .failed(error)))
            }
        case .success(let bytes):
            precondition(bytes >= 0, "ImageTransport reported \(bytes) bytes for \(key)")
            counters.bytesDownloaded += bytes
            storeEncoded(load.request, bytes: bytes)
            let image = _DecodedImage(pixelWidth: load.request.pixelWidth, pixelHeight: load.request.pixelHeight)
            switch configuration.decodeMode {
            case .mainThread:
                complete(load, with: image, source: .network)
            case .background:
                let action = scheduler.schedule(after: backgroundDecodeDelay(pixels: load.request.pixelCount)) {
                    self.decodeFinished(key: key, sequence: load.sequence, image: image)
                }
                load.stage = .decoding(action)
            }
        }
    }

    private func decodeFinished(key: ImageKey, sequence: UInt64, image: _DecodedImage) {
        guard let load = loads[key], load.sequence == sequence, case .decoding = load.stage else { return }
        complete(load, with: image, source: .network)
    }

    /// Keeps downloaded data on disk; an overflowing disk cache evicts least
    /// recently used data down to its trim target.
    func storeEncoded(_ request: ImageRequest, bytes: Int) {
        let encoded = _EncodedImage(pixelWidth: request.pixelWidth, pixelHeight: request.pixelHeight, bytes: bytes)
        diskCache.insert(encoded, forKey: request.key, cost: bytes)
        if diskCache.totalCost > configuration.diskCacheSizeLimit {
            diskCache.trim(toCost: configuration.diskTrimTarget)
        }
    }

    // MARK: Finishing

    /// The decode is done: charges it, caches the image and tells every
    /// waiter, in the order they asked.
    private func complete(_ load: _ImageLoad, with image: _DecodedImage, source: ImageLoadOutcome.Source) {
        counters.decodes += 1
        if case .mainThread = configuration.decodeMode {
            pendingWork.mainThreadDecodedPixels += image.pixelWidth * image.pixelHeight
        }
        retire(load)
        memoryCache.insert(image, forKey: load.key, cost: image.cost)
        let outcome = ImageLoadOutcome(image, key: load.key, source: source)
        for waiter in load.waiters {
            waiter.completion(outcome)
        }
    }

    /// Forgets a finished load and its owners, before any completion runs,
    /// so completions may ask again.
    private func retire(_ load: _ImageLoad) {
        loads[load.key] = nil
        if load.prefetchPriority != nil {
            removePrefetchedKey(load.key)
        }
        for waiter in load.waiters {
            keyOfOwner[waiter.owner] = nil
        }
    }

    /// Drops a load nothing wants: from the queue, from the transport, or
    /// from the scheduler. The caller starts queued loads afterwards.
    func abandon(_ load: _ImageLoad) {
        precondition(load.waiters.isEmpty, "Abandoning \(load.key) while cells wait on it")
        counters.abandonedLoads += 1
        switch load.stage {
        case .new:
            break
        case .queued(let priority):
            removeFromQueue(load.key, priority: priority)
        case .loading(_, let token):
            guard let token else { preconditionFailure("Abandoning \(load.key) while its transport load starts") }
            counters.transportCancellations += 1
            inFlightCount -= 1
            transport.cancel(token)
        case .reading(let action), .decoding(let action):
            scheduler.cancel(action)
        }
        loads[load.key] = nil
        if load.prefetchPriority != nil {
            removePrefetchedKey(load.key)
        }
    }

    func removePrefetchedKey(_ key: ImageKey) {
        prefetchedKeys.remove(at: prefetchedKeys.firstIndex(of: key)!)
    }
}
