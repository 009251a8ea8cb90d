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
///
/// The role and the incomplete flag share one byte, which the 39 bytes of a
/// `Post` leave free before the row's 40-byte stride: a million rows take
/// 40 MB, not 44.
public struct FeedItem: Identifiable, Hashable, Sendable {
    public var post: Post
    private var _placement: UInt8

    public init(post: Post, role: ThreadRole = .standalone, isThreadIncomplete: Bool = false) {
        self.post = post
        _placement = 0
        self.role = role
        self.isThreadIncomplete = isThreadIncomplete
    }

    public var id: PostID { post.id }

    /// Where the post sits in a consolidated thread (the placement's low two bits).
    public var role: ThreadRole {
        get {
            switch _placement & 0b11 {
            case 0: .standalone
            case 1: .root
            case 2: .parent
            default: .reply
            }
        }
        set {
            let bits: UInt8 =
                switch newValue {
                case .standalone: 0
                case .root: 1
                case .parent: 2
                case .reply: 3
                }
            _placement = (_placement & ~0b11) | bits
        }
    }

    /// The thread has posts between the root and the parent that are not
    /// shown; the cell offers to show them.
    public var isThreadIncomplete: Bool {
        get { _placement & 0b100 != 0 }
        set { _placement = newValue ? _placement | 0b100 : _placement & ~0b100 }
    }
}
