/// Where a page of older posts starts: the id of the last post already held.
package struct FeedCursor: Hashable, Sendable {
    package var afterPostID: PostID
    package init(afterPostID: PostID) { self.afterPostID = afterPostID }
}

/// A page of posts, newest first, and the cursor of the next page.
package struct FeedPage: Sendable, Equatable {
    package var posts: [Post]
    /// Posts the page's replies refer to (parents and roots), for threading.
    package var threadContext: [Post]
    /// `nil` at the end of the feed.
    package var nextCursor: FeedCursor?

    package init(posts: [Post], threadContext: [Post] = [], nextCursor: FeedCursor?) {
        self.posts = posts
        self.threadContext = threadContext
        self.nextCursor = nextCursor
    }
}

/// Why a request failed.
package enum FeedTransportError: Error, Equatable, Sendable {
    case offline
    case timedOut
    case serverError
}

/// How the engine talks to the feed's server. Completions are called later,
/// on the same (simulated) main thread, never synchronously.
package protocol FeedTransport: AnyObject {
    /// The page after `cursor`, or the first page when `cursor` is nil.
    func fetchPage(
        cursor: FeedCursor?, limit: Int, completion: @escaping (Result<FeedPage, FeedTransportError>) -> Void)
    /// Sets the viewer's like on a post.
    func setLike(postID: PostID, liked: Bool, completion: @escaping (Result<Void, FeedTransportError>) -> Void)
}

/// What hosts the feed on screen: the scroll view the engine reads and
/// corrects, and the observer of every change the engine commits.
package protocol FeedViewport: AnyObject {
    var contentOffset: Double { get }
    var viewportHeight: Double { get }
    /// Height hidden under bars at the top and bottom.
    var insetTop: Double { get }
    var insetBottom: Double { get }
    /// Moves the content by `delta` points, keeping any gesture or
    /// deceleration in progress consistent (UIKit's contentOffset adjustment).
    func adjustContentOffset(by delta: Double)
    /// The engine is about to change what is displayed without the user asking.
    func feedWillCommit(_ cause: ChangeCause)
    /// The change is committed and the position corrected.
    func feedDidCommit(_ cause: ChangeCause)
    /// If the content is decelerating freely after a fling, moves the place
    /// it will come to rest by `delta` points, leaving the content where it
    /// is now, and returns `true`; otherwise changes nothing and returns
    /// `false`. Default: `false`.
    func retargetDeceleration(by delta: Double) -> Bool
    /// Whether the content is decelerating freely after a fling. Default: `false`.
    var isDecelerating: Bool { get }
}

extension FeedViewport {
    package func retargetDeceleration(by delta: Double) -> Bool { false }
    package var isDecelerating: Bool { false }
}

/// Why the displayed feed changed.
public enum ChangeCause: String, Hashable, Sendable, CaseIterable {
    case initialLoad = "initial_load"
    case refresh
    case newPosts = "new_posts"
    case append
    case contentUpdate = "content_update"
    case heightChange = "height_change"
    case imageSize = "image_size"
    case widthChange = "width_change"
    case textSizeChange = "text_size_change"
    case likeRollback = "like_rollback"
    case like
    case restore
    case memoryReload = "memory_reload"
    /// Posts deleted on the server (by their authors, by moderation).
    case removal
    /// Held new posts shown because the reader tapped the indicator or
    /// scrolled to the top.
    case newPostsShown = "new_posts_shown"

    /// Whether the user asked for this change directly (a tap on like, on the
    /// new-posts indicator): such
    /// changes are not position drift.
    public var isUserAction: Bool { self == .like || self == .newPostsShown }
}
