/// Where a post sits in a consolidated thread, which changes how its cell
/// is drawn (a connecting line, a "show more" affordance).
public enum ThreadRole: String, Hashable, Sendable, CaseIterable {
    /// A post shown on its own.
    case standalone
    /// The first post of a thread shown above a reply.
    case root
    /// The post a reply answers, shown between the root and the reply.
    case parent
    /// The reply that brought the thread into the feed.
    case reply
}

/// One row of the feed as displayed: a post and its place in a thread.
public struct FeedItem: Identifiable, Hashable, Sendable {
    public var post: Post
    public var role: ThreadRole
    /// The thread has posts between the root and the parent that are not
    /// shown; the cell offers to show them.
    public var isThreadIncomplete: Bool

    public init(post: Post, role: ThreadRole = .standalone, isThreadIncomplete: Bool = false) {
        self.post = post
        self.role = role
        self.isThreadIncomplete = isThreadIncomplete
    }

    public var id: PostID { post.id }
}
