import FoundationEssentials

/// A feed imported from a capture, as FEED.json holds it: per post only
/// lengths, media shapes, structure and salted ids, in the capture's order
/// (newest first, page by page), with the capture's page sizes and counts
/// of every embed type met, known or not. No text, URI, handle or DID.
package struct ImportedFeed: Codable, Equatable, Sendable {
    /// The value of `format` in every FEED.json.
    package static let formatName = "feedsim-feed"
    /// The version of the format this build writes and reads.
    package static let currentVersion = 1

    package var format = ImportedFeed.formatName
    package var version = ImportedFeed.currentVersion
    /// What the posts came from: `getTimeline` pages or `json-lines`.
    package var source: String
    /// Posts in each page, in the order the capture paged them.
    package var pageSizes: [Int]
    /// Posts by embed kind (`none`, `images`, …, `unknown`).
    package var embeds: [String: Int]
    /// Posts by embed type this importer does not know, by `$type`.
    package var unknownEmbedTypes: [String: Int]
    /// Feed items by reason type this importer does not know, by `$type`.
    package var unknownReasonTypes: [String: Int]
    /// Media items (of posts and their quotes, a card's thumbnail among
    /// them) and how many give their size.
    package var mediaItems: Int
    package var mediaSizeKnown: Int
    package var posts: [ImportedPost]

    enum CodingKeys: String, CodingKey {
        case format, version, source, embeds, posts
        case pageSizes = "page_sizes"
        case unknownEmbedTypes = "unknown_embed_types"
        case unknownReasonTypes = "unknown_reason_types"
        case mediaItems = "media_items"
        case mediaSizeKnown = "media_size_known"
    }

    /// A feed of `posts` paged as `pageSizes`, its counts taken from the posts.
    package init(source: String, pageSizes: [Int], posts: [ImportedPost], unknownReasonTypes: [String: Int] = [:]) {
        self.source = source
        self.pageSizes = pageSizes
        self.posts = posts
        self.unknownReasonTypes = unknownReasonTypes
        embeds = Dictionary(uniqueKeysWithValues: EmbedKind.allCases.map { ($0.rawValue, 0) })
        unknownEmbedTypes = [:]
        mediaItems = 0
        mediaSizeKnown = 0
        for post in posts {
            embeds[post.embed.rawValue, default: 0] += 1
            if let type = post.unknownEmbed { unknownEmbedTypes[type, default: 0] += 1 }
            // A card without a thumbnail has nothing to lay out but its text.
            let media = (post.media + (post.quote?.media ?? [])).filter { !$0.isCardWithoutThumbnail }
            mediaItems += media.count
            mediaSizeKnown += media.filter(\.sizeKnown).count
        }
    }

    /// FEED.json's text: keys sorted, so the same feed is the same bytes.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}

/// What a post embeds, by the lexicon's view types (`app.bsky.embed.*#view`).
package enum EmbedKind: String, Codable, CaseIterable, Sendable {
    case none, images, video, external, record, recordWithMedia, unknown
}

/// One post of an imported feed.
package struct ImportedPost: Codable, Equatable, Sendable {
    /// The post's URI (or its line's id), salted and hashed.
    package var id: String
    /// The author's DID, salted and hashed.
    package var author: String
    /// Characters of text, counted as layout counts them: grapheme clusters.
    package var textLength: Int
    /// The reply's parent and root, salted and hashed.
    package var parent: String?
    package var root: String?
    /// Who reposted it into the feed (their DID, salted and hashed).
    package var repostedBy: String?
    package var embed: EmbedKind
    /// Images, a video or an external card's thumbnail, in order.
    package var media: [ImportedMedia]
    /// The quoted record, for `record` and `recordWithMedia` embeds.
    package var quote: ImportedQuote?
    /// The `$type` of an embed this importer does not know.
    package var unknownEmbed: String?

    enum CodingKeys: String, CodingKey {
        case id, author, parent, root, embed, media, quote
        case textLength = "text_length"
        case repostedBy = "reposted_by"
        case unknownEmbed = "unknown_embed"
    }

    package init(
        id: String, author: String, textLength: Int, parent: String? = nil, root: String? = nil,
        repostedBy: String? = nil, embed: EmbedKind = .none, media: [ImportedMedia] = [],
        quote: ImportedQuote? = nil, unknownEmbed: String? = nil
    ) {
        self.id = id
        self.author = author
        self.textLength = textLength
        self.parent = parent
        self.root = root
        self.repostedBy = repostedBy
        self.embed = embed
        self.media = media
        self.quote = quote
        self.unknownEmbed = unknownEmbed
    }
}

/// A media item: its kind and, when the capture gives it, its shape
/// (`aspectRatio`'s width and height, in the capture's units).
package struct ImportedMedia: Codable, Equatable, Sendable {
    package enum Kind: String, Codable, Sendable {
        case image, video, external
    }

    package var kind: Kind
    package var width: Int?
    package var height: Int?
    /// For an external card, `false` when the link has no thumbnail (the
    /// card is its text alone); absent otherwise, so files written before
    /// it read as cards with thumbnails.
    package var thumb: Bool?

    package init(kind: Kind, width: Int? = nil, height: Int? = nil, thumb: Bool? = nil) {
        self.kind = kind
        self.width = width
        self.height = height
        self.thumb = thumb
    }

    /// Whether it is an external card without a thumbnail: no media to lay out.
    package var isCardWithoutThumbnail: Bool { kind == .external && thumb == false }

    /// Whether layout knows the shape before the media loads.
    package var sizeKnown: Bool { width != nil && height != nil }
}

/// A quoted record: what it is, its text's length and its media.
package struct ImportedQuote: Codable, Equatable, Sendable {
    /// `post`, `unavailable` (not found, blocked, detached) or `other`
    /// (a feed, list, labeler or starter pack).
    package var kind: String
    package var textLength: Int
    package var media: [ImportedMedia]

    enum CodingKeys: String, CodingKey {
        case kind, media
        case textLength = "text_length"
    }

    package init(kind: String, textLength: Int, media: [ImportedMedia] = []) {
        self.kind = kind
        self.textLength = textLength
        self.media = media
    }
}
