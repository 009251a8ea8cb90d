/// One load in progress for one key: everything waiting on it and how far
/// it has got. At most one exists per key; later requests for the key join it.
internal final class _ImageLoad {
    /// Where the load gets the encoded data.
    enum Origin: Hashable {
        /// The disk cache, which holds this entry.
        case disk(_EncodedImage)
        case network
    }

    /// How far the load has got.
    enum Stage {
        /// Created, not started yet; only between `beginLoad` and `startLoad`.
        case new
        /// Waiting for a network slot, in the queue of this priority.
        case queued(ImagePriority)
        /// Downloading; `token` is nil only while the transport's `load` runs.
        case loading(id: UInt64, token: ImageLoadToken?)
        /// Reading the disk cache, then decoding if decode is in background.
        case reading(ScheduledAction)
        /// Decoding downloaded data in background.
        case decoding(ScheduledAction)
    }

    let key: ImageKey
    /// The request that started the load; its size is the downloaded image's.
    let request: ImageRequest
    let origin: Origin
    /// Creation order: the prefetch queue's FIFO order.
    let sequence: UInt64
    /// Visible cells waiting, in the order they asked.
    var waiters: [_ImageWaiter] = []
    /// The priority of the prefetch that wants the image, if one does.
    var prefetchPriority: ImagePriority?

    var stage: Stage = .new

    init(request: ImageRequest, origin: Origin, sequence: UInt64) {
        self.key = request.key
        self.request = request
        self.origin = origin
        self.sequence = sequence
    }

    /// Whether the load reads the disk cache rather than the network.
    var isFromDisk: Bool {
        if case .disk = origin { true } else { false }
    }

    /// The highest priority of everything waiting, or `nil` when nothing is
    /// and the load should be abandoned.
    var priority: ImagePriority? {
        var highest = prefetchPriority
        for waiter in waiters where highest.map({ waiter.request.priority > $0 }) ?? true {
            highest = waiter.request.priority
        }
        return highest
    }

    /// The request handed to the transport: the first request's image at the
    /// load's current priority.
    var transportRequest: ImageRequest {
        var request = request
        request.priority = priority ?? request.priority
        return request
    }
}

/// A visible cell's request waiting on a load.
internal struct _ImageWaiter {
    let owner: Int
    let request: ImageRequest
    let completion: (ImageLoadOutcome) -> Void
}

/// A decoded image in the memory cache: only its size.
internal struct _DecodedImage: Hashable, Sendable {
    var pixelWidth: Int
    var pixelHeight: Int

    /// Bytes of the decoded bitmap, what the memory cache's cost counts.
    var cost: Int { pixelWidth * pixelHeight * ImagePipeline.Configuration.bytesPerDecodedPixel }
}

/// Encoded data in the disk cache: its size and the image's.
internal struct _EncodedImage: Hashable, Sendable {
    var pixelWidth: Int
    var pixelHeight: Int
    var bytes: Int
}
