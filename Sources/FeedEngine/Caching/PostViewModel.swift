/// What a post cell displays, prepared once per post and content version:
/// the strings a real cell would format (author line, counts, an
/// accessibility label).
public final class PostViewModel {
    public let postID: PostID
    /// The post's content version the view model was built from.
    public let contentVersion: Int
    public let authorLine: String
    public let likeLabel: String
    public let accessibilityLabel: String

    /// Builds the view model for `item`.
    public init(item: FeedItem) {
        let post = item.post
        postID = post.id
        contentVersion = PostViewModel.contentVersion(of: post)
        authorLine = "@author\(post.authorID) · \(item.role.rawValue)"
        likeLabel = post.likeCount >= 1_000
            ? "\(post.likeCount / 1_000).\((post.likeCount % 1_000) / 100)K likes"
            : "\(post.likeCount) likes"
        var label = "Post by author \(post.authorID), \(post.textLength) characters"
        if let media = post.media { label += ", \(media.kind.rawValue) \(media.pixelWidth) by \(media.pixelHeight)" }
        label += post.isLikedByViewer ? ", liked by you" : ""
        accessibilityLabel = label
    }

    /// Approximate bytes held: what the cache's cost limit counts.
    public var cost: Int {
        64 + authorLine.utf8.count + likeLabel.utf8.count + accessibilityLabel.utf8.count
    }

    /// Changes whenever what the cell shows changes.
    public static func contentVersion(of post: Post) -> Int {
        post.likeCount &* 2 &+ (post.isLikedByViewer ? 1 : 0)
    }
}
