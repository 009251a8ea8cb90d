/// The feed's posts as the server ordered them (newest first), the posts
/// known for threading, and where the next page starts: the engine's data,
/// apart from how it is shown.
///
/// Every post the engine has learned stays known, in its latest version, for
/// threading: page posts, their thread context, and posts that have since
/// left the feed. The feed's own posts are not stored twice: a known post is
/// looked up in `context` and then in the feed, through `feedIndex`, and
/// `context` holds only what the feed does not (thread context, posts that
/// left the feed, and the rare newer version of a feed post than the feed's
/// copy). A million-post feed so takes one array of posts and an index of
/// 8 bytes a slot (`PostIDMap`), where a dictionary of every post took
/// 120 bytes a slot.
struct FeedStore {
    /// The feed's posts, newest first.
    private(set) var posts: [Post] = []
    /// Where each feed post's id first appears in `posts`. Post ids are
    /// below 2^32 (`Post.idLimit`), so keys and positions take 32 bits.
    private var feedIndex = PostIDMap()
    /// Known posts whose latest version is not the feed's copy of them.
    /// Only looked up.
    private var context: [PostID: Post] = [:]
    /// Whether some post in the feed may be a reply (names a parent or a
    /// root): false only when none is, so that persisting a feed without
    /// replies, at every finger lift, skips a scan of the whole feed.
    private var feedMayHaveReplies = false

    /// The latest version of post `id` the engine learned, from a page, as
    /// thread context or from the server's pushes; `nil` if it never did.
    /// - Complexity: O(1)
    func post(_ id: PostID) -> Post? {
        if let known = context[id] { return known }
        return feedPosition(of: id).map { posts[$0] }
    }

    /// Whether the post is known, from a page or as thread context.
    /// - Complexity: O(1)
    func knows(_ id: PostID) -> Bool { context[id] != nil || feedPosition(of: id) != nil }

    /// Where post `id` first appears in the feed.
    /// - Complexity: O(1)
    private func feedPosition(of id: PostID) -> Int? {
        guard id < Post.idLimit, let position = feedIndex[UInt32(id)] else { return nil }
        return Int(position)
    }

    /// Where the next page starts; `nil` before the first page and at the end.
    private(set) var cursor: FeedCursor?
    /// Whether the server said there is nothing after the last post.
    private(set) var reachedEnd = false
    /// Whether a page request is on its way (the cursor moves only when its
    /// page is applied, so asking again before would fetch it twice).
    var isLoadingPage = false
    /// The earliest time the next page may be requested, in nanoseconds.
    var nextPageAttemptAt: Int64 = 0

    /// Makes `post` the latest known version of its id.
    /// - Complexity: O(1)
    private mutating func learn(_ post: Post) {
        if let position = feedPosition(of: post.id), posts[position] == post {
            // Most feeds have no context at all: skip hashing the id again.
            if !context.isEmpty { context[post.id] = nil }
        } else {
            context[post.id] = post
        }
    }

    /// Learns the posts of `page` and their thread context.
    /// - Complexity: O(k) for k posts in the page.
    private mutating func remember(_ page: FeedPage) {
        for post in page.threadContext { learn(post) }
        for post in page.posts { learn(post) }
    }

    /// Learns the feed's own posts, in order, as `learn` would one by one:
    /// without an id twice, each post is its id's first copy, so only what
    /// `context` held of them goes.
    /// - Complexity: O(n), and O(1) when nothing is known apart from the feed.
    private mutating func learnFeed() {
        if feedIndex.count == posts.count {
            if !context.isEmpty { for post in posts { context[post.id] = nil } }
        } else {
            for post in posts { learn(post) }
        }
    }

    /// The feed becomes `newPosts`, and every post keeps its known version:
    /// a post that leaves the feed, or whose feed copy changes, goes into
    /// `context` as it was.
    /// - Complexity: O(n + m) for n posts before and m after.
    private mutating func setFeed(_ newPosts: [Post]) {
        let oldPosts = posts
        let oldIndex = feedIndex
        posts = newPosts
        feedMayHaveReplies = posts.contains(where: FeedStore.isReply)
        rebuildIndex()
        for (position, old) in oldPosts.enumerated() where context[old.id] == nil {
            // Only a post's first copy is what the engine knows of it.
            guard oldIndex[UInt32(old.id)] == UInt32(position) else { continue }
            if let now = feedPosition(of: old.id), posts[now] == old { continue }
            context[old.id] = old
        }
    }

    /// Indexes every post's first position in the feed.
    /// - Complexity: O(n)
    private mutating func rebuildIndex() {
        precondition(posts.count < Int(UInt32.max), "a feed holds fewer than \(UInt32.max) posts")
        feedIndex.removeAll(keepingCapacity: true)
        feedIndex.reserveCapacity(posts.count)
        // Last to first, so that a later copy's entry is overwritten by the
        // first's: one hash a post.
        var position = posts.count - 1
        while position >= 0 {
            feedIndex.updateValue(UInt32(position), forKey: UInt32(posts[position].id))
            position -= 1
        }
    }

    /// The feed becomes `page`: a first load, or a reload from the top.
    /// - Complexity: O(n + k)
    mutating func replace(with page: FeedPage) {
        setFeed(page.posts)
        for post in page.threadContext { learn(post) }
        learnFeed()
        moveCursor(to: page)
    }

    /// The page after the last post: new ones go at the end.
    /// - Complexity: O(k) amortized for k posts in the page.
    mutating func append(_ page: FeedPage) {
        let fresh = page.posts.filter { feedPosition(of: $0.id) == nil }
        for post in fresh {
            feedIndex.insert(UInt32(posts.count), forKey: UInt32(post.id))
            posts.append(post)
            if FeedStore.isReply(post) { feedMayHaveReplies = true }
        }
        remember(page)
        moveCursor(to: page)
    }

    /// New posts go on top, those already present are skipped.
    /// - Complexity: O(n + k)
    mutating func prepend(_ newPosts: [Post]) {
        setFeed(newPosts.filter { feedPosition(of: $0.id) == nil } + posts)
        for post in newPosts { learn(post) }
    }

    /// A refresh page either overlaps the feed or, when more posts arrived
    /// than a page holds, replaces it: the gap cannot be bridged. On overlap
    /// the page is the truth for the span it covers (new posts go on top,
    /// changed ones are updated, ones the server no longer has are removed)
    /// and the feed below that span is kept.
    /// - Complexity: O(n)
    mutating func mergeRefresh(_ page: FeedPage) {
        guard let oldest = page.posts.last, let overlapEnd = feedPosition(of: oldest.id) else {
            setFeed(page.posts)
            for post in page.threadContext { learn(post) }
            learnFeed()
            moveCursor(to: page)
            return
        }
        setFeed(page.posts + posts[(overlapEnd + 1)...])
        remember(page)
    }

    /// Replaces the posts that changed on the server (like counts, text),
    /// keeping what the app learned of their images: the server's copy says
    /// nothing of an image's size the app has since measured.
    mutating func update(_ changed: [Post]) {
        for var post in changed {
            if let learned = self.post(post.id)?.media, learned.sizeKnownAtLayout, var media = post.media,
                media.pixelWidth == learned.pixelWidth, media.pixelHeight == learned.pixelHeight
            {
                media.sizeKnownAtLayout = true
                post.media = media
            }
            if let position = feedPosition(of: post.id) {
                posts[position] = post
                if FeedStore.isReply(post) { feedMayHaveReplies = true }
            }
            learn(post)
        }
    }

    /// Drops the posts deleted on the server.
    /// - Complexity: O(n)
    mutating func remove(_ gone: Set<PostID>) {
        setFeed(posts.filter { !gone.contains($0.id) })
    }

    /// Sets whether the viewer likes post `id`; returns whether it changed.
    /// - Complexity: O(1)
    @discardableResult
    mutating func setLike(_ liked: Bool, on id: PostID) -> Bool {
        guard let position = feedPosition(of: id), posts[position].isLikedByViewer != liked else { return false }
        posts[position].isLikedByViewer = liked
        posts[position].likeCount += liked ? 1 : -1
        learn(posts[position])
        return true
    }

    /// Whether the viewer likes post `id`, if the feed has it.
    /// - Complexity: O(1)
    func isLiked(_ id: PostID) -> Bool? {
        feedPosition(of: id).map { posts[$0].isLikedByViewer }
    }

    /// Records that an image's pixel size is now known, in the feed and for threading.
    /// - Complexity: O(1)
    mutating func setMedia(_ media: Media, of id: PostID) {
        var known = post(id)
        if let position = feedPosition(of: id) { posts[position].media = media }
        known?.media = media
        if let known { learn(known) }
    }

    /// The parents and roots the feed's replies refer to, for persisting.
    func threadContext() -> [Post] {
        guard feedMayHaveReplies else { return [] }
        var context: [Post] = []
        for post in posts {
            if let id = post.parentID, let parent = self.post(id) { context.append(parent) }
            if let id = post.rootID, let root = self.post(id) { context.append(root) }
        }
        return context
    }

    private static func isReply(_ post: Post) -> Bool {
        post.parentID != nil || post.rootID != nil
    }

    /// Puts persisted posts back.
    mutating func restore(_ snapshot: FeedSnapshot, pagesBySize: Bool) {
        setFeed(snapshot.posts)
        for post in snapshot.threadContext { learn(post) }
        learnFeed()
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
        precondition(
            feedIndex.count <= posts.count, "the feed index has \(feedIndex.count) ids for \(posts.count) posts")
        for (position, post) in posts.enumerated() {
            guard let first = feedPosition(of: post.id) else {
                preconditionFailure("post \(post.id) is in the feed but not indexed")
            }
            precondition(
                first <= position && posts[first].id == post.id,
                "post \(post.id) is indexed at \(first), not at its first place")
        }
        precondition(!reachedEnd || cursor == nil, "the end was reached but a cursor remains")
        precondition(
            feedMayHaveReplies || !posts.contains(where: FeedStore.isReply),
            "a reply is in the feed, which is marked as having none")
    }
}
