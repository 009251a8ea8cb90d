/// The feed's posts as the server ordered them (newest first), the posts
/// known for threading, and where the next page starts: the engine's data,
/// apart from how it is shown.
struct FeedStore {
    /// The feed's posts, newest first.
    private(set) var posts: [Post] = []
    /// Posts known for threading (page posts and their thread context). Only looked up.
    private(set) var known: [PostID: Post] = [:]

    /// Whether the post is known, from a page or as thread context.
    func knows(_ id: PostID) -> Bool { known[id] != nil }
    /// Where the next page starts; `nil` before the first page and at the end.
    private(set) var cursor: FeedCursor?
    /// Whether the server said there is nothing after the last post.
    private(set) var reachedEnd = false
    /// Whether a page request is on its way (the cursor moves only when its
    /// page is applied, so asking again before would fetch it twice).
    var isLoadingPage = false
    /// The earliest time the next page may be requested, in nanoseconds.
    var nextPageAttemptAt: Int64 = 0

    /// Learns the posts of `page` and their thread context.
    /// - Complexity: O(k) for k posts in the page.
    mutating func remember(_ page: FeedPage) {
        for post in page.threadContext { known[post.id] = post }
        for post in page.posts { known[post.id] = post }
    }

    /// Learns `posts` (new or changed ones).
    mutating func remember(_ posts: [Post]) {
        for post in posts { known[post.id] = post }
    }

    /// The feed becomes `page`: a first load, or a reload from the top.
    mutating func replace(with page: FeedPage) {
        remember(page)
        posts = page.posts
        moveCursor(to: page)
    }

    /// The page after the last post: new ones go at the end.
    /// - Complexity: O(n + k)
    mutating func append(_ page: FeedPage) {
        remember(page)
        let present = Set(posts.map(\.id))
        posts += page.posts.filter { !present.contains($0.id) }
        moveCursor(to: page)
    }

    /// New posts go on top, those already present are skipped.
    /// - Complexity: O(n + k)
    mutating func prepend(_ newPosts: [Post]) {
        remember(newPosts)
        let present = Set(posts.map(\.id))
        posts = newPosts.filter { !present.contains($0.id) } + posts
    }

    /// A refresh page either overlaps the feed or, when more posts arrived
    /// than a page holds, replaces it: the gap cannot be bridged. On overlap
    /// the page is the truth for the span it covers (new posts go on top,
    /// changed ones are updated, ones the server no longer has are removed)
    /// and the feed below that span is kept.
    /// - Complexity: O(n)
    mutating func mergeRefresh(_ page: FeedPage) {
        remember(page)
        guard let oldest = page.posts.last, let overlapEnd = posts.firstIndex(where: { $0.id == oldest.id }) else {
            posts = page.posts
            moveCursor(to: page)
            return
        }
        posts = page.posts + posts[(overlapEnd + 1)...]
    }

    /// Replaces the posts that changed on the server.
    mutating func update(_ changed: [Post]) {
        for post in changed {
            known[post.id] = post
            if let position = posts.firstIndex(where: { $0.id == post.id }) { posts[position] = post }
        }
    }

    /// Drops the posts deleted on the server.
    mutating func remove(_ gone: Set<PostID>) {
        posts.removeAll { gone.contains($0.id) }
    }

    /// Sets whether the viewer likes post `id`; returns whether it changed.
    @discardableResult
    mutating func setLike(_ liked: Bool, on id: PostID) -> Bool {
        guard let position = posts.firstIndex(where: { $0.id == id }), posts[position].isLikedByViewer != liked else { return false }
        posts[position].isLikedByViewer = liked
        posts[position].likeCount += liked ? 1 : -1
        known[id] = posts[position]
        return true
    }

    /// Whether the viewer likes post `id`, if the feed has it.
    func isLiked(_ id: PostID) -> Bool? {
        posts.first { $0.id == id }?.isLikedByViewer
    }

    /// Records that an image's pixel size is now known, in the feed and for threading.
    mutating func setMedia(_ media: Media, of id: PostID) {
        if let position = posts.firstIndex(where: { $0.id == id }) { posts[position].media = media }
        known[id]?.media = media
    }

    /// The parents and roots the feed's replies refer to, for persisting.
    func threadContext() -> [Post] {
        var context: [Post] = []
        for post in posts {
            for id in [post.parentID, post.rootID].compactMap({ $0 }) {
                if let post = known[id] { context.append(post) }
            }
        }
        return context
    }

    /// Puts persisted posts back.
    mutating func restore(_ snapshot: FeedSnapshot, pagesBySize: Bool) {
        posts = snapshot.posts
        for post in snapshot.threadContext { known[post.id] = post }
        for post in snapshot.posts { known[post.id] = post }
        cursor = snapshot.nextCursor
        reachedEnd = snapshot.nextCursor == nil && pagesBySize
    }

    private mutating func moveCursor(to page: FeedPage) {
        cursor = page.nextCursor
        reachedEnd = page.nextCursor == nil
    }

    /// Checks what must hold between the store's fields.
    /// - Complexity: O(n)
    func _checkInvariants() {
        #if DEBUG
        for post in posts { precondition(known[post.id] != nil, "post \(post.id) is in the feed but not known") }
        precondition(!reachedEnd || cursor == nil, "the end was reached but a cursor remains")
        #endif
    }
}
