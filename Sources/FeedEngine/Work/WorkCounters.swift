/// The work an engine call did, as counts. The engine never times itself: a
/// device cost profile turns these counts into main-thread time.
public struct WorkCounters: Equatable, Hashable, Sendable {
    /// Cells configured with a post's content (every time a cell becomes visible).
    public var cellsConfigured: Int = 0
    /// Self-sizing measurements (a cell laid out to find its height).
    public var cellsMeasured: Int = 0
    /// Items placed by a layout pass that touches every item (load, reload).
    public var itemsLaidOut: Int = 0
    /// Height updates written into the height index.
    public var heightUpdates: Int = 0
    /// Offset or index queries answered by the height index.
    public var offsetQueries: Int = 0
    /// Elements compared by a diff.
    public var diffElements: Int = 0
    /// Inserts, deletes, moves and updates applied to the list.
    public var changesApplied: Int = 0
    /// View models built (cache misses).
    public var viewModelsCreated: Int = 0
    /// Pixels of images decoded on the main thread.
    public var mainThreadDecodedPixels: Int = 0
    /// Characters of body text in the cells configured.
    public var configuredTextCharacters: Int = 0
    /// Media items (photos, carousel pages, videos) in the cells configured.
    public var configuredMediaItems: Int = 0
    /// Characters of body text in the cells measured.
    public var measuredTextCharacters: Int = 0
    /// Media items in the cells measured.
    public var measuredMediaItems: Int = 0
    /// Cells measured that are rows of a thread (root, parent or reply),
    /// which lay out a connector and, when incomplete, a "show more" row.
    public var measuredThreadRows: Int = 0

    public init() {}

    /// Whether no work at all was done.
    public var isZero: Bool { self == WorkCounters() }

    /// Adds `other`'s counts to these.
    public static func += (lhs: inout WorkCounters, rhs: WorkCounters) {
        lhs.cellsConfigured += rhs.cellsConfigured
        lhs.cellsMeasured += rhs.cellsMeasured
        lhs.itemsLaidOut += rhs.itemsLaidOut
        lhs.heightUpdates += rhs.heightUpdates
        lhs.offsetQueries += rhs.offsetQueries
        lhs.diffElements += rhs.diffElements
        lhs.changesApplied += rhs.changesApplied
        lhs.viewModelsCreated += rhs.viewModelsCreated
        lhs.mainThreadDecodedPixels += rhs.mainThreadDecodedPixels
        lhs.configuredTextCharacters += rhs.configuredTextCharacters
        lhs.configuredMediaItems += rhs.configuredMediaItems
        lhs.measuredTextCharacters += rhs.measuredTextCharacters
        lhs.measuredMediaItems += rhs.measuredMediaItems
        lhs.measuredThreadRows += rhs.measuredThreadRows
    }
}

/// One cell configured or measured, with what it shows: what a content-aware
/// cost model charges it for.
public struct CellWork: Equatable, Hashable, Sendable {
    public enum Kind: UInt64, Hashable, Sendable {
        case configure = 1
        case measure = 2
    }

    public var kind: Kind
    public var postID: PostID
    public var textCharacters: Int
    public var mediaItems: Int
    /// Whether the cell is a row of a thread (root, parent or reply).
    public var isThreadRow: Bool

    public init(kind: Kind, postID: PostID, textCharacters: Int, mediaItems: Int, isThreadRow: Bool) {
        self.kind = kind
        self.postID = postID
        self.textCharacters = textCharacters
        self.mediaItems = mediaItems
        self.isThreadRow = isThreadRow
    }

    /// The cell work of `item`.
    public init(_ kind: Kind, _ item: FeedItem) {
        self.init(
            kind: kind, postID: item.id, textCharacters: item.post.textLength,
            mediaItems: item.post.media?.itemCount ?? 0, isThreadRow: item.role != .standalone)
    }
}

extension Media {
    /// Pages a carousel cell lays out and configures: the one shown and
    /// the two beside it, so that paging never shows an empty page.
    public static let carouselPagesLoaded = 3

    /// The media items a cell with this media lays out.
    public var itemCount: Int { kind == .carousel ? Media.carouselPagesLoaded : 1 }
}
