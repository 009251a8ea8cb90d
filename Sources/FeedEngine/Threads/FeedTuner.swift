/// Turns a page of raw feed posts into display rows the way Catbird's
/// FeedTuner does: each reply is shown under the conversation it answers,
/// replies in one thread share one slice, no post is shown twice, and the
/// options hide replies to other people and reposts.
///
/// The rules, where the behaviour being modelled leaves a choice:
///
/// - **Threads.** A post without a `parentID` is standalone and is the root
///   of its own thread. A reply belongs to the thread its `rootID` names; a
///   reply that names no root treats its parent as the root.
/// - **Slices.** A reply's slice is, top to bottom: the root (`.root`, when
///   it can be found and is not the parent), the parent (`.parent`, or
///   `.root` when the parent is the root, when it can be found), and the
///   reply itself (`.reply`).
/// - **Incomplete threads.** The `.reply` row carries `isThreadIncomplete`,
///   because it is the one row every slice has. It is set when the parent or
///   the root cannot be found; when the parent does not answer the root
///   directly (the posts between them are missing); when the post shown as
///   root is itself a reply; and when a root or parent row is left out
///   because that post is already shown higher up.
/// - **Merging.** The posts of one thread in the feed make one slice, placed
///   where the thread's first post appears. It shows the thread's first reply
///   in feed order that is not already shown (the newest, as feeds run newest
///   first) with that reply's parent and root; the thread's other replies are
///   not shown, unless one of them is that parent. A root that is in the feed
///   on its own becomes its thread slice's `.root` row, and stays
///   `.standalone` when no reply of its thread is shown.
/// - **Duplicates.** A post id is shown at most once: the topmost row that
///   would show it keeps it, and every later row with that id is dropped.
/// - **Filters.** They apply to feed posts before grouping, so a root whose
///   replies are all hidden stays on its own. `hideReposts` drops feed posts
///   whose `repostedBy` is set. `hideReplies` drops replies that do not
///   continue their author's own thread (see ``Options/hideReplies``). Roots
///   and parents found through `lookup` are context and are never filtered.
///
/// The tuner is deterministic: rows depend only on the order of the input
/// and on what `lookup` answers. Its dictionary and set are only probed,
/// never iterated, so hashing never reaches the output.
package struct FeedTuner: Sendable {
    /// What the tuner hides from the feed.
    package struct Options: Hashable, Sendable {
        /// Hide replies to other people, keeping self-threads: a reply stays
        /// only if its root and its parent, those that can be found, are by
        /// the reply's author, and at least one of them can be found.
        package var hideReplies: Bool
        /// Hide posts reposted into the feed (`repostedBy != nil`).
        package var hideReposts: Bool

        /// Creates options; by default nothing is hidden.
        package init(hideReplies: Bool = false, hideReposts: Bool = false) {
            self.hideReplies = hideReplies
            self.hideReposts = hideReposts
        }
    }

    /// Display rows and the work it took to make them, for cost modelling.
    ///
    /// Every feed post has exactly one fate: it is shown as a row, or it is
    /// counted in `filtered`, `duplicatesDropped` or `repliesMerged`.
    package struct TunedFeed: Hashable, Sendable {
        /// The display rows, top to bottom.
        package var items: [FeedItem]
        /// Feed posts read: the number of posts passed in.
        package var postsExamined: Int
        /// Calls made to `lookup`: at most two for each reply in the feed.
        package var lookups: Int
        /// Feed posts hidden by the options.
        package var filtered: Int
        /// Feed posts not shown themselves because a row elsewhere shows the
        /// same post id.
        package var duplicatesDropped: Int
        /// Replies not shown because their thread's slice shows another reply.
        package var repliesMerged: Int
    }

    /// What the tuner hides.
    package var options: Options

    /// Creates a tuner that hides what `options` asks.
    package init(options: Options = Options()) {
        self.options = options
    }

    /// The display rows for `posts`.
    ///
    /// - Parameters:
    ///   - posts: The feed's raw posts in feed order, newest first.
    ///   - lookup: Finds a post the client knows by id (thread roots and
    ///     parents delivered with the page); `nil` when it is not known.
    /// - Returns: The rows of ``tuneWithStats(_:lookup:)``, top to bottom.
    /// - Complexity: O(*n*) expected for *n* posts, with at most two calls to
    ///   `lookup` per reply.
    package func tune(_ posts: [Post], lookup: (PostID) -> Post?) -> [FeedItem] {
        tuneWithStats(posts, lookup: lookup).items
    }

    /// The display rows for `posts`, with the counts of the work done.
    ///
    /// Three passes: filter the feed posts and group them by thread root,
    /// threads in order of their first post; write each thread's slice,
    /// skipping post ids already shown; then count what became of the feed
    /// posts that were not shown.
    ///
    /// - Parameters:
    ///   - posts: The feed's raw posts in feed order, newest first.
    ///   - lookup: Finds a post the client knows by id (thread roots and
    ///     parents delivered with the page); `nil` when it is not known.
    /// - Complexity: O(*n*) expected for *n* posts, with at most two calls to
    ///   `lookup` per reply.
    package func tuneWithStats(_ posts: [Post], lookup: (PostID) -> Post?) -> TunedFeed {
        precondition(posts.count < Int(Int32.max), "the tuner takes fewer than \(Int32.max) posts")
        var dispositions = [_FeedPostDisposition](repeating: .pending, count: posts.count)
        // One thread per feed post at most, in 8 bytes each: a million-post
        // feed's threads take 8 MB once, not a doubling array of 24-byte ones.
        var threads: [_FeedThread] = []
        threads.reserveCapacity(posts.count)
        var replyLists: [[_ThreadReply]] = []
        // Only a root that a reply names can gather more than one feed post
        // into its thread; any other post starts a thread of its own (a
        // second copy of it starts another, which shows nothing: its id is
        // shown by then). So only those roots are indexed by id, and a feed
        // without replies indexes none.
        var repliedRoots = Set<PostID>()
        for post in posts {
            if let parentID = post.parentID { repliedRoots.insert(post.rootID ?? parentID) }
        }
        var threadOfRoot: [PostID: Int] = [:]
        var lookups = 0
        var filtered = 0

        // Pass 1: filter, then group by thread root in order of first post.
        for (index, post) in posts.enumerated() {
            if options.hideReposts && post.repostedBy != nil {
                dispositions[index] = .filtered
                filtered += 1
                continue
            }
            var context: _ReplyContext?
            if let parentID = post.parentID {
                let found = _ReplyContext(reply: post, parentID: parentID, lookup: lookup, lookups: &lookups)
                if options.hideReplies && !found.isSelfThread(of: post.authorID) {
                    dispositions[index] = .filtered
                    filtered += 1
                    continue
                }
                context = found
            }
            let rootID = context?.rootID ?? post.id
            let threadIndex: Int
            if context == nil && !repliedRoots.contains(rootID) {
                threadIndex = threads.count
                threads.append(_FeedThread())
            } else if let existing = threadOfRoot[rootID] {
                threadIndex = existing
            } else {
                threadIndex = threads.count
                threadOfRoot[rootID] = threadIndex
                threads.append(_FeedThread())
            }
            if let context {
                if threads[threadIndex].repliesSlot < 0 {
                    threads[threadIndex].repliesSlot = Int32(replyLists.count)
                    replyLists.append([])
                }
                replyLists[Int(threads[threadIndex].repliesSlot)].append(_ThreadReply(index: index, context: context))
            } else if threads[threadIndex].rootIndex == nil {
                threads[threadIndex].rootPosition = Int32(index)
            }
        }

        // Pass 2: write each thread's slice, top to bottom.
        var items: [FeedItem] = []
        items.reserveCapacity(posts.count)
        var shown = PostIDSet(minimumCapacity: posts.count)
        for thread in threads {
            let replies = thread.repliesSlot < 0 ? [] : replyLists[Int(thread.repliesSlot)]
            guard let chosen = replies.first(where: { !shown.contains(posts[$0.index].id) }) else {
                if let rootIndex = thread.rootIndex, shown.insert(posts[rootIndex].id) {
                    items.append(FeedItem(post: posts[rootIndex]))
                    dispositions[rootIndex] = .shown
                }
                continue
            }
            let reply = posts[chosen.index]
            let context = chosen.context
            // The feed's own copy of the root stands in for the looked-up one.
            let root = thread.rootIndex.map { posts[$0] } ?? context.root
            var incomplete = false
            if let root, root.parentID != nil {
                incomplete = true
            }
            let rootShown = Self.appendContext(root, role: .root, above: reply, to: &items, shown: &shown)
            if rootShown, let rootIndex = thread.rootIndex {
                dispositions[rootIndex] = .shown
            }
            if !rootShown {
                incomplete = true
            }
            if context.parentID != context.rootID {
                if let parent = context.parent, parent.parentID != context.rootID {
                    incomplete = true
                }
                if !Self.appendContext(context.parent, role: .parent, above: reply, to: &items, shown: &shown) {
                    incomplete = true
                }
            }
            shown.insert(reply.id)
            items.append(FeedItem(post: reply, role: .reply, isThreadIncomplete: incomplete))
            dispositions[chosen.index] = .shown
        }

        // Pass 3: a feed post not shown is a duplicate when its id is shown
        // elsewhere; otherwise its thread's slice shows another reply.
        var duplicatesDropped = 0
        var repliesMerged = 0
        for index in posts.indices where dispositions[index] == .pending {
            if shown.contains(posts[index].id) {
                duplicatesDropped += 1
            } else {
                repliesMerged += 1
            }
        }
        return TunedFeed(
            items: items,
            postsExamined: posts.count,
            lookups: lookups,
            filtered: filtered,
            duplicatesDropped: duplicatesDropped,
            repliesMerged: repliesMerged
        )
    }

    /// Appends a root or parent row above `reply` unless the post is unknown,
    /// is the reply itself or is already shown; returns whether it did.
    private static func appendContext(
        _ post: Post?,
        role: ThreadRole,
        above reply: Post,
        to items: inout [FeedItem],
        shown: inout PostIDSet
    ) -> Bool {
        guard let post, post.id != reply.id, shown.insert(post.id) else {
            return false
        }
        items.append(FeedItem(post: post, role: role))
        return true
    }
}

extension FeedTuner {
    /// Makes the Swift runtime instantiate the metadata of the tuner's
    /// containers for threads: its lists of replies, its table of roots and
    /// the set of roots replied to, which a feed without replies never
    /// grows. The runtime allocates each one's metadata once per process,
    /// the first time the tuner meets a reply; a session whose first reply
    /// arrives in a measured run counted that allocation (1, 80 bytes, in a
    /// random session) where a later run in the same worker did not, so
    /// `--jobs` changed the counts. The warm-up calls this
    /// (`FeedEngine.instantiateRuntimeMetadata()`).
    ///
    /// - Complexity: O(1): a thread of a few posts.
    static func instantiateRuntimeMetadata() {
        let root = Post(id: 1, authorID: 1, textLength: 10)
        let parent = Post(id: 2, authorID: 1, textLength: 10, parentID: 1, rootID: 1)
        let feed = [
            Post(id: 4, authorID: 2, textLength: 10, parentID: 2, rootID: 1),
            Post(id: 3, authorID: 1, textLength: 10, parentID: 2, rootID: 1),
            Post(id: 5, authorID: 1, textLength: 10, repostedBy: 2),
            root,
        ]
        for options in [Options(), Options(hideReplies: true, hideReposts: true)] {
            _ = FeedTuner(options: options).tuneWithStats(feed) { id in id == 2 ? parent : id == 1 ? root : nil }
        }
    }
}

extension FeedTuner.TunedFeed {
    /// Traps unless no post id repeats, only reply rows are marked
    /// incomplete, a root row is followed by its parent or reply and a parent
    /// row by its reply, and the counts add up.
    internal func _checkInvariants() {
        var seen = Set<PostID>(minimumCapacity: items.count)
        for (row, item) in items.enumerated() {
            precondition(seen.insert(item.id).inserted, "post \(item.id) shown twice (row \(row))")
            precondition(
                !item.isThreadIncomplete || item.role == .reply,
                "row \(row) is marked incomplete but is \(item.role)"
            )
            let next = row + 1 < items.count ? items[row + 1].role : nil
            switch item.role {
            case .root:
                precondition(next == .parent || next == .reply, "root row \(row) not followed by its thread")
            case .parent:
                precondition(next == .reply, "parent row \(row) not followed by its reply")
            case .standalone, .reply:
                break
            }
        }
        precondition(postsExamined >= 0 && lookups >= 0, "negative count")
        precondition(filtered >= 0 && duplicatesDropped >= 0 && repliesMerged >= 0, "negative count")
        let shownFromFeed = postsExamined - filtered - duplicatesDropped - repliesMerged
        precondition(
            shownFromFeed >= 0 && shownFromFeed <= items.count,
            "\(postsExamined) posts examined do not account for \(items.count) rows"
        )
    }
}

/// What became of one feed post while tuning.
internal enum _FeedPostDisposition {
    /// Not shown yet: a duplicate or a merged reply unless a slice shows it.
    case pending
    /// Hidden by the options.
    case filtered
    /// Shown as a row of its own.
    case shown
}

/// The feed posts of one thread: its root if it is in the feed on its own,
/// and where its replies are listed, in feed order.
internal struct _FeedThread {
    /// The root's feed index, or -1 when the root is not in the feed on its own.
    var rootPosition: Int32 = -1
    /// The thread's slot in the tuner's reply lists, or -1 without replies.
    var repliesSlot: Int32 = -1

    var rootIndex: Int? { rootPosition < 0 ? nil : Int(rootPosition) }
}

/// A reply in the feed, by index, with the thread posts found for it.
internal struct _ThreadReply {
    var index: Int
    var context: _ReplyContext
}

/// The root and parent a reply answers, as far as the client knows them.
internal struct _ReplyContext {
    var rootID: PostID
    var parentID: PostID
    var root: Post?
    var parent: Post?

    /// Finds the reply's parent and, when it is another post, its root.
    init(reply: Post, parentID: PostID, lookup: (PostID) -> Post?, lookups: inout Int) {
        self.parentID = parentID
        rootID = reply.rootID ?? parentID
        parent = lookup(parentID)
        lookups += 1
        if rootID == parentID {
            root = parent
        } else {
            root = lookup(rootID)
            lookups += 1
        }
    }

    /// Whether a reply by `author` continues that author's own thread: the
    /// root and parent that can be found are by `author`, and at least one
    /// of them can be found.
    func isSelfThread(of author: UInt32) -> Bool {
        guard root != nil || parent != nil else {
            return false
        }
        return (root?.authorID ?? author) == author && (parent?.authorID ?? author) == author
    }
}
