/// Which image a request names: a post's media, and the page of it for a
/// carousel. Two requests with one key share one load and one cache entry.
package struct ImageKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The post the image belongs to.
    package var postID: PostID
    /// The image's page within the post's media: 0 for a single image.
    package var index: Int

    /// Creates the key of page `index` of `postID`'s media.
    package init(postID: PostID, index: Int = 0) {
        precondition(index >= 0, "ImageKey index must not be negative")
        self.postID = postID
        self.index = index
    }

    /// Orders keys by post, then page.
    package static func < (lhs: ImageKey, rhs: ImageKey) -> Bool {
        (lhs.postID, lhs.index) < (rhs.postID, rhs.index)
    }

    /// Feeds the hasher one word where the synthesized hash fed it two: the
    /// page's bits go to the top, far from any post id's.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(word)
    }

    /// The hash a `Dictionary` or `Set` of keys places this one by: the
    /// same word, mixed by `WordHash` rather than SipHash (the pipeline's
    /// lookups, several per cell shown, were 4.5% of a session).
    package func _rawHashValue(seed: Int) -> Int {
        WordHash.hashValue(of: word, seed: seed)
    }

    /// The post id with the page's bits at the top, far from any id's.
    private var word: UInt64 { postID ^ UInt64(truncatingIfNeeded: index).byteSwapped }

    /// `post/index`, for logs and failure messages.
    package var description: String { "\(postID)/\(index)" }
}

/// How urgently a load is wanted. A load runs at the highest priority of
/// everything waiting on it.
package enum ImagePriority: Int, Hashable, Comparable, Sendable, CaseIterable {
    /// Wanted soon, by a cell that is not on screen yet.
    case prefetch = 0
    /// Wanted now, by a cell on screen.
    case visible = 1

    /// Orders `.prefetch` below `.visible`.
    package static func < (lhs: ImagePriority, rhs: ImagePriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// One image to load: its key, its size and how urgently it is wanted.
///
/// No pixels travel anywhere: the pixel size decides the decode cost and the
/// decoded image's memory cost, the encoded size what a download transfers.
package struct ImageRequest: Hashable, Sendable {
    /// Which image this is.
    package var key: ImageKey
    /// The image's width in pixels.
    package var pixelWidth: Int
    /// The image's height in pixels.
    package var pixelHeight: Int
    /// The size of the image's compressed data, in bytes.
    package var encodedBytes: Int
    /// How urgently the image is wanted.
    package var priority: ImagePriority

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - key: Which image this is.
    ///   - pixelWidth: The width in pixels; not negative.
    ///   - pixelHeight: The height in pixels; not negative.
    ///   - encodedBytes: The compressed size in bytes; not negative.
    ///   - priority: How urgently the image is wanted.
    package init(key: ImageKey, pixelWidth: Int, pixelHeight: Int, encodedBytes: Int, priority: ImagePriority) {
        precondition(pixelWidth >= 0 && pixelHeight >= 0, "ImageRequest pixel size must not be negative")
        precondition(encodedBytes >= 0, "ImageRequest encodedBytes must not be negative")
        self.key = key
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.encodedBytes = encodedBytes
        self.priority = priority
    }

    /// Creates the request for page `index` of a post's media.
    ///
    /// - Parameters:
    ///   - postID: The post the media belongs to.
    ///   - media: The post's media: its pixel size and encoded size.
    ///   - index: The carousel page; 0 for a single image.
    ///   - priority: How urgently the image is wanted.
    package init(postID: PostID, media: Media, index: Int = 0, priority: ImagePriority) {
        self.init(
            key: ImageKey(postID: postID, index: index),
            pixelWidth: media.pixelWidth,
            pixelHeight: media.pixelHeight,
            encodedBytes: media.encodedBytes,
            priority: priority
        )
    }

    /// The image's size in pixels: width times height.
    package var pixelCount: Int { pixelWidth * pixelHeight }
}

/// Why an image load failed.
package enum ImageLoadError: Error, Hashable, Sendable {
    /// There was no network.
    case offline
    /// The load took too long.
    case timedOut
    /// The server answered with an error.
    case serverError
}

/// A handle to one load an `ImageTransport` started, for cancelling it.
package struct ImageLoadToken: Hashable, Sendable {
    /// The transport's identifier for the load, unique per transport.
    package let id: UInt64

    /// Creates a handle; transports call this, the pipeline keeps what
    /// `ImageTransport.load(_:completion:)` returns.
    package init(id: UInt64) {
        self.id = id
    }
}

/// The network side of the image pipeline, which the simulator implements.
///
/// The pipeline never calls `load` for more than its configured number of
/// loads at once, and never for a key it is already loading.
package protocol ImageTransport: AnyObject {
    /// Starts downloading `request`'s encoded data.
    ///
    /// `completion` receives the number of bytes downloaded, or the error,
    /// later and exactly once unless the load is cancelled first; it must
    /// never be called before `load` returns (the pipeline traps if it is).
    ///
    /// - Returns: A handle that `cancel(_:)` accepts.
    func load(_ request: ImageRequest, completion: @escaping (Result<Int, ImageLoadError>) -> Void) -> ImageLoadToken

    /// Stops a load the pipeline no longer wants. The pipeline ignores a
    /// completion that arrives for a cancelled load.
    func cancel(_ token: ImageLoadToken)
}

/// What a request for an image came to, handed to its completion.
package struct ImageLoadOutcome: Hashable, Sendable {
    /// Where the image came from, or why there is none.
    package enum Source: Hashable, Sendable {
        /// Decoded already, from the memory cache.
        case memory
        /// Read from the disk cache and decoded.
        case disk
        /// Downloaded through the transport and decoded.
        case network
        /// The download failed; the pipeline does not retry.
        case failed(ImageLoadError)
        /// The request was cancelled or replaced by its owner before the image
        /// arrived.
        case cancelled
    }

    /// The image the request named.
    package var key: ImageKey
    /// Where the image came from, or why there is none.
    package var source: Source
    /// The image's width in pixels: the delivered image's own for memory,
    /// disk and network, otherwise the width the request named.
    package var pixelWidth: Int
    /// The image's height in pixels, taken as `pixelWidth` is.
    package var pixelHeight: Int

    /// Creates an outcome.
    package init(key: ImageKey, source: Source, pixelWidth: Int, pixelHeight: Int) {
        self.key = key
        self.source = source
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// Whether the image arrived, from memory, disk or network.
    package var isDelivered: Bool {
        switch source {
        case .memory, .disk, .network: true
        case .failed, .cancelled: false
        }
    }
}

/// How much of the decoded-image memory cache a memory warning drops.
package enum MemoryTrimPolicy: Hashable, Sendable {
    /// Drop every decoded image.
    case clearAll
    /// Evict least recently used images until the cache's cost is at most
    /// this fraction (0...1) of what it was.
    case trimToFraction(Double)
}

/// Where decoding a downloaded or disk-read image costs time.
package enum ImageDecodeMode: Hashable, Sendable {
    /// On the main thread, as a naive app does: each decode adds its pixels
    /// to `WorkCounters.mainThreadDecodedPixels`, which the owner's cost model
    /// turns into main-thread time; delivery is not delayed.
    case mainThread
    /// Off the main thread, as Nuke does: no main-thread cost, but delivery
    /// waits this many nanoseconds per megapixel (10⁶ pixels).
    case background(nanosecondsPerMegapixel: Int64)
}
