/// A like the reader made, sent to the server or waiting for the network.
struct QueuedLike: Equatable {
    var postID: PostID
    var liked: Bool
}

/// Likes made while offline, kept (with their optimistic state on screen)
/// until the network is back, then sent again oldest first.
struct OfflineActionQueue {
    /// Likes waiting for the network, oldest first.
    private(set) var pending: [QueuedLike] = []
    /// Whether the last request failed for want of a network.
    private(set) var believesOffline = false

    /// A request failed because there was no network: keep `like` for later.
    mutating func holdForNetwork(_ like: QueuedLike) {
        believesOffline = true
        pending.append(like)
    }

    /// A request got through: the network is there.
    mutating func networkWorked() {
        believesOffline = false
    }

    /// The network is back: the likes to send again, oldest first.
    mutating func takeAll() -> [QueuedLike] {
        believesOffline = false
        defer { pending = [] }
        return pending
    }
}
