/// The work an engine call did, as counts. The engine never times itself: a
/// device cost profile turns these counts into main-thread time.
package struct WorkCounters: Equatable, Hashable, Sendable {
    /// Cells configured with a post's content (every time a cell becomes visible).
    package var cellsConfigured: Int = 0
    /// Self-sizing measurements (a cell laid out to find its height).
    package var cellsMeasured: Int = 0
    /// Items placed by a layout pass that touches every item (load, reload).
    package var itemsLaidOut: Int = 0
    /// Height updates written into the height index.
    package var heightUpdates: Int = 0
    /// Offset or index queries answered by the height index.
    package var offsetQueries: Int = 0
    /// Elements compared by a diff.
    package var diffElements: Int = 0
    /// Inserts, deletes, moves and updates applied to the list.
    package var changesApplied: Int = 0
    /// View models built (cache misses).
    package var viewModelsCreated: Int = 0
    /// Pixels of images decoded on the main thread.
    package var mainThreadDecodedPixels: Int = 0
    /// Characters of text (the post's and a quoted record's) in the cells configured.
    package var configuredTextCharacters: Int = 0
    // The counts from here on are 32 bits: no frame comes near 2^31 of
    // them, and a list keeps its pending counts in a 512-byte object.

    /// Media items (photos, carousel pages, videos) in the cells configured.
    package var configuredMediaItems: Int32 = 0
    /// Quoted records in the cells configured.
    package var configuredQuotes: Int32 = 0
    /// External cards in the cells configured.
    package var configuredExternalCards: Int32 = 0
    /// Media items in the cells measured.
    package var measuredMediaItems: Int32 = 0
    /// Cells measured that are rows of a thread (root, parent or reply),
    /// which lay out a connector and, when incomplete, a "show more" row.
    package var measuredThreadRows: Int32 = 0
    /// Quoted records in the cells measured.
    package var measuredQuotes: Int32 = 0
    /// External cards in the cells measured.
    package var measuredExternalCards: Int32 = 0
    /// Results of background work (a precomputed height, prepared
    /// contents) handed back to the main thread.
    package var backgroundResults: Int32 = 0
    /// Characters of text (the post's and a quoted record's) in the cells measured.
    package var measuredTextCharacters: Int = 0

    package init() {}

    /// Whether no work at all was done.
    package var isZero: Bool { self == WorkCounters() }

    /// Adds `other`'s counts to these.
    package static func += (lhs: inout WorkCounters, rhs: WorkCounters) {
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
        lhs.backgroundResults += rhs.backgroundResults
        lhs.configuredQuotes += rhs.configuredQuotes
        lhs.configuredExternalCards += rhs.configuredExternalCards
        lhs.measuredQuotes += rhs.measuredQuotes
        lhs.measuredExternalCards += rhs.measuredExternalCards
    }
}

/// One cell configured or measured, with what it shows: what a content-aware
/// cost model charges it for.
package struct CellWork: Equatable, Hashable, Sendable {
    package enum Kind: UInt64, Hashable, Sendable {
        case configure = 1
        case measure = 2
    }

    package var kind: Kind
    package var postID: PostID
    package var textCharacters: Int
    package var mediaItems: Int
    /// Whether the cell is a row of a thread (root, parent or reply).
    package var isThreadRow: Bool
    /// The cards the cell lays out besides its media.
    package var cards: Cards

    /// A quoted record's card and an external card: each a layout kind
    /// with costs of its own.
    package struct Cards: OptionSet, Hashable, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        package static let quote = Cards(rawValue: 1 << 0)
        package static let externalCard = Cards(rawValue: 1 << 1)

        /// The cards `post` shows.
        package init(_ post: Post) {
            self = []
            if post.quotedTextLength != nil { insert(.quote) }
            if post.hasExternalCard { insert(.externalCard) }
        }
    }

    package init(
        kind: Kind, postID: PostID, textCharacters: Int, mediaItems: Int, isThreadRow: Bool, cards: Cards = []
    ) {
        self.kind = kind
        self.postID = postID
        self.textCharacters = textCharacters
        self.mediaItems = mediaItems
        self.isThreadRow = isThreadRow
        self.cards = cards
    }

    /// The cell work of `item`: its text counts a quoted record's.
    package init(_ kind: Kind, _ item: FeedItem) {
        self.init(
            kind: kind, postID: item.id, textCharacters: item.post.textLength + (item.post.quotedTextLength ?? 0),
            mediaItems: item.post.media?.itemCount ?? 0, isThreadRow: item.role != .standalone,
            cards: Cards(item.post))
    }
}

extension Media {
    /// Pages a carousel cell lays out and configures: the one shown and
    /// the two beside it, so that paging never shows an empty page.
    package static let carouselPagesLoaded = 3

    /// The media items a cell with this media lays out.
    package var itemCount: Int { kind == .carousel ? Media.carouselPagesLoaded : 1 }
}
