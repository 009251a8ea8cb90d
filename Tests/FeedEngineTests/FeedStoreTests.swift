import Testing

@testable import FeedEngine

@Suite("FeedStore")
struct FeedStoreTests {
    private static func post(_ id: PostID, parent: PostID? = nil, root: PostID? = nil) -> Post {
        Post(id: id, authorID: 1, textLength: 40, parentID: parent, rootID: root)
    }

    /// What `threadContext()` must give: every reply's parent, then root,
    /// in feed order, as the store knows them.
    private static func expectedContext(_ store: FeedStore) -> [PostID] {
        store.posts.flatMap { [$0.parentID, $0.rootID].compactMap { $0 } }.compactMap { store.post($0)?.id }
    }

    @Test("a feed without replies persists no thread context; replies that arrive by any way bring theirs")
    func threadContextFollowsReplies() {
        var store = FeedStore()
        store.replace(with: FeedPage(posts: (1...50).map { Self.post($0) }, nextCursor: FeedCursor(afterPostID: 1)))
        #expect(store.threadContext().isEmpty)
        store._checkInvariants()

        // A page appended with a reply in it.
        store.append(FeedPage(posts: [Self.post(60, parent: 3, root: 2)], nextCursor: nil))
        #expect(store.threadContext().map(\.id) == [3, 2])
        #expect(store.threadContext().map(\.id) == Self.expectedContext(store))
        store._checkInvariants()

        // Replaced by a feed without replies, then a post updated in place
        // into a reply.
        store.replace(with: FeedPage(posts: (100...120).map { Self.post($0) }, nextCursor: nil))
        #expect(store.threadContext().isEmpty)
        store.update([Self.post(105, parent: 101, root: 100)])
        #expect(store.threadContext().map(\.id) == [101, 100])
        store._checkInvariants()

        // A reload whose page carries its replies' context.
        store.replace(
            with: FeedPage(
                posts: [Self.post(200, parent: 7, root: 7), Self.post(201)], threadContext: [Self.post(7)],
                nextCursor: nil))
        #expect(store.threadContext().map(\.id) == [7, 7])
        #expect(store.threadContext().map(\.id) == Self.expectedContext(store))
    }
}
