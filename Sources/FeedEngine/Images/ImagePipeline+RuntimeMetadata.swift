import DequeModule

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
    public static func instantiateRuntimeMetadata() {
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
            loads[key] = _ImageLoad(request: request, origin: index.isMultiple(of: 2) ? .network : .disk(encoded), sequence: UInt64(index))
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
    }
}
