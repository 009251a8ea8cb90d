/// What the engine persists so a relaunch can put the reader back: the feed
/// as loaded and the anchor post with its place in the viewport.
package struct FeedSnapshot: Sendable, Equatable {
    package var posts: [Post]
    package var threadContext: [Post]
    package var nextCursor: FeedCursor?
    package var anchorID: PostID?
    /// The anchor's top relative to the top of the viewport, in points.
    package var anchorViewportY: Double
    /// Simulated time the snapshot was taken, in nanoseconds.
    package var savedAt: Int64

    package init(
        posts: [Post], threadContext: [Post], nextCursor: FeedCursor?, anchorID: PostID?,
        anchorViewportY: Double, savedAt: Int64
    ) {
        self.posts = posts
        self.threadContext = threadContext
        self.nextCursor = nextCursor
        self.anchorID = anchorID
        self.anchorViewportY = anchorViewportY
        self.savedAt = savedAt
    }
}

/// What to do when the app returns from the background, by time away
/// (Catbird's state store: under 10 minutes keep everything, 10–30 minutes
/// look for new posts without moving, over 30 minutes start fresh).
package struct ForegroundPolicy: Hashable, Sendable {
    /// Below this time away nothing happens, in nanoseconds.
    package var keepUnder: Int64
    /// Below this (and at or above `keepUnder`) new posts are fetched and
    /// held behind the indicator; at or above it the feed reloads from the top.
    package var checkUnder: Int64

    package init(keepUnder: Int64 = 600_000_000_000, checkUnder: Int64 = 1_800_000_000_000) {
        self.keepUnder = keepUnder
        self.checkUnder = checkUnder
    }

    /// The action for `away` nanoseconds in the background.
    package func action(after away: Int64) -> ForegroundAction {
        if away < keepUnder { return .keep }
        if away < checkUnder { return .checkForNewPosts }
        return .fullRefresh
    }
}

/// The three foreground behaviours.
package enum ForegroundAction: String, Hashable, Sendable, CaseIterable {
    case keep
    case checkForNewPosts = "check_for_new_posts"
    case fullRefresh = "full_refresh"
}
