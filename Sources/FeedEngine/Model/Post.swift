/// A post's stable identity across pages, refreshes and relaunches.
public typealias PostID = UInt64

/// Media attached to a post. No pixels: only what layout and the image
/// pipeline need (kind, pixel size, encoded bytes).
public struct Media: Hashable, Sendable {
    /// The shape of the media attachment.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case single, carousel, video
    }

    // Stored widest first, so that a `Media?` takes 26 bytes, not 33.
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var encodedBytes: Int
    public var kind: Kind
    /// Whether the feed's data gives the pixel size; if not, layout assumes
    /// a square until the image arrives.
    public var sizeKnownAtLayout: Bool

    public init(kind: Kind, pixelWidth: Int, pixelHeight: Int, encodedBytes: Int, sizeKnownAtLayout: Bool = true) {
        self.kind = kind
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.encodedBytes = encodedBytes
        self.sizeKnownAtLayout = sizeKnownAtLayout
    }

    /// Height over width; what decides the media's share of a cell's height.
    public var aspectRatio: Double {
        pixelWidth > 0 ? Double(pixelHeight) / Double(pixelWidth) : 1
    }
}

/// One post as the feed engine sees it: identity, threading and the content
/// that decides its cell's height.
public struct Post: Identifiable, Hashable, Sendable {
    // Stored widest first, so that a post takes 112 bytes, not 136: a feed
    // server holds up to a million of them.
    public var id: PostID
    /// Characters of body text; with the width and type size it decides the
    /// number of text lines.
    public var textLength: Int
    public var likeCount: Int
    public var media: Media?
    public var isLikedByViewer: Bool
    public var authorID: UInt32
    /// The post this one replies to, if any.
    public var parentID: PostID?
    /// The author who reposted it into this feed, if it is a repost.
    public var repostedBy: UInt32?
    /// The first post of the thread this one belongs to, if it is a reply.
    public var rootID: PostID?
    /// A height the cell has whatever it shows (a fixed-size card), in
    /// points; `nil` sizes the cell from its content.
    public var fixedHeightPt: Double?

    public init(
        id: PostID,
        authorID: UInt32,
        textLength: Int,
        media: Media? = nil,
        likeCount: Int = 0,
        isLikedByViewer: Bool = false,
        parentID: PostID? = nil,
        rootID: PostID? = nil,
        repostedBy: UInt32? = nil,
        fixedHeightPt: Double? = nil
    ) {
        self.id = id
        self.authorID = authorID
        self.textLength = textLength
        self.media = media
        self.likeCount = likeCount
        self.isLikedByViewer = isLikedByViewer
        self.parentID = parentID
        self.rootID = rootID
        self.repostedBy = repostedBy
        self.fixedHeightPt = fixedHeightPt
    }
}
