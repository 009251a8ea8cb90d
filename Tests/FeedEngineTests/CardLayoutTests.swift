import Testing

@testable import FeedEngine

/// Quoted records and external cards: stored in a post's 40 bytes, laid
/// out as cards of their own, and counted as work of their own.
@Suite("Card layout")
struct CardLayoutTests {
    static let metrics = CellLayoutMetrics()
    static let width = 390.0

    static func post(textLength: Int = 40, media: Media? = nil, quote: Int? = nil, card: Bool = false) -> Post {
        var post = Post(id: 7, authorID: 3, textLength: textLength, media: media)
        post.quotedTextLength = quote
        post.hasExternalCard = card
        return post
    }

    static func height(_ post: Post, typeScale: Double = 1) -> Double {
        metrics.height(of: post, width: width, typeScale: typeScale)
    }

    @Test("a quote and an external card are stored beside every other field and read back")
    func storage() {
        var post = Post(
            id: 1_234_567, authorID: 4_999, textLength: 300,
            media: Media(kind: .single, pixelWidth: 1080, pixelHeight: 566, encodedBytes: 152_820), likeCount: 999,
            parentID: 1_234_500, repostedBy: 0)
        post.quotedTextLength = Post.maximumTextLength
        post.hasExternalCard = true
        #expect(post.quotedTextLength == Post.maximumTextLength && post.hasExternalCard)
        #expect(post.fixedHeightPt == nil && post.textLength == 300 && post.likeCount == 999)
        #expect(post.parentID == 1_234_500 && post.repostedBy == 0 && post.media?.pixelHeight == 566)
        post.quotedTextLength = 0
        #expect(post.quotedTextLength == 0)
        post.quotedTextLength = nil
        post.hasExternalCard = false
        #expect(post.quotedTextLength == nil && !post.hasExternalCard && post.fixedHeightPt == nil)
        // Once the quote is gone its field holds a fixed height again.
        post.fixedHeightPt = 120
        #expect(post.fixedHeightPt == 120 && post.quotedTextLength == nil)
        post.fixedHeightPt = nil
        #expect(
            post
                == Post(
                    id: 1_234_567, authorID: 4_999, textLength: 300,
                    media: Media(kind: .single, pixelWidth: 1080, pixelHeight: 566, encodedBytes: 152_820),
                    likeCount: 999,
                    parentID: 1_234_500, repostedBy: 0))
        #expect(MemoryLayout<Post>.stride == 40)
    }

    @Test("a quoted record's card adds its insets, author line and text wrapped inside the card")
    func quoteHeight() {
        // 390 pt wide: 358 pt of content, 338 pt inside the card's 10 pt
        // insets; 15 pt text at half an em a glyph is 45 glyphs a line.
        let plain = Self.height(Self.post())
        // 100 characters: 3 lines of 19.5 pt.
        let quoted = Self.height(Self.post(quote: 100))
        #expect(quoted - plain == 8 + 20 + 18 + 4 + 3 * 19.5)
        // A quote with no text (a feed, a list, a record that is gone): the card and its author line.
        #expect(Self.height(Self.post(quote: 0)) - plain == 8 + 20 + 18)
        // 45 characters fill one line inside the card; the post's own 358 pt would hold 47.
        #expect(Self.height(Self.post(quote: 46)) - Self.height(Self.post(quote: 45)) == 19.5)
        // Larger text: the author line and the text scale, the insets do not.
        let scale = 1.5
        let glyphs = Int(338 / (15 * scale * 0.5))
        let lines = Double((100 + glyphs - 1) / glyphs)
        let grown = Self.height(Self.post(quote: 100), typeScale: scale) - Self.height(Self.post(), typeScale: scale)
        #expect(abs(grown - (8 + 20 + 18 * scale + 4 + lines * 15 * scale * 1.3)) < HeightIndex.quantum)
    }

    @Test("an external card adds its title, description and domain under its thumbnail")
    func externalCardHeight() {
        let plain = Self.height(Self.post())
        // Two 15 pt title lines and three 13 pt lines, at 1.3, inside 10 pt insets: 109.7 pt.
        let text = 20 + (2 * 15 + 3 * 13) * 1.3
        #expect(abs(Self.height(Self.post(card: true)) - plain - (8 + text)) < HeightIndex.quantum)
        // With its thumbnail as the post's media: the media's height, then the card's text.
        let thumbnail = Media(
            kind: .single, pixelWidth: Media.externalCardThumbnail.pixelWidth,
            pixelHeight: Media.externalCardThumbnail.pixelHeight, encodedBytes: 188_400)
        let withThumbnail = Self.height(Self.post(media: thumbnail, card: true))
        let thumbnailHeight = 8 + 358 * (628.0 / 1200)
        #expect(abs(withThumbnail - plain - thumbnailHeight - text) < HeightIndex.quantum)
        // A post with both (a quote beside a shared link) has both cards.
        let both = Self.height(Self.post(quote: 0, card: true))
        #expect(abs(both - plain - (8 + 20 + 18) - (8 + text)) < HeightIndex.quantum)
    }

    @Test("a cell's work counts its quote's characters and its cards; a list counts them per frame")
    func counted() {
        let item = FeedItem(post: Self.post(textLength: 40, quote: 25, card: true))
        let cell = CellWork(.measure, item)
        #expect(cell.textCharacters == 65)
        #expect(cell.cards == [.quote, .externalCard])
        #expect(CellWork(.configure, FeedItem(post: Self.post())).cards.isEmpty)

        let list = FeedList(configuration: FeedListConfiguration(estimatedItemHeight: 200, width: Self.width))
        var posts: [FeedItem] = []
        for id in 1...6 {
            var post = Post(id: PostID(id), authorID: 1, textLength: 10)
            if id % 2 == 0 { post.quotedTextLength = 30 }
            if id % 3 == 0 { post.hasExternalCard = true }
            posts.append(FeedItem(post: post))
        }
        list.replaceAll(with: posts)
        _ = list.updateVisibleRect(minY: list.contentMinY, height: 2_000)
        let work = list.drainWork()
        #expect(work.cellsMeasured == 6 && work.cellsConfigured == 6)
        #expect(work.measuredQuotes == 3 && work.configuredQuotes == 3)
        #expect(work.measuredExternalCards == 2 && work.configuredExternalCards == 2)
        #expect(work.measuredTextCharacters == 6 * 10 + 3 * 30)
    }

    @Test("under asynchronous display the cards' configure work goes with the contents")
    func asyncDisplayCards() {
        var configuration = FeedListConfiguration(estimatedItemHeight: 200, width: Self.width)
        configuration.displaysAsynchronously = true
        let list = FeedList(configuration: configuration)
        list.replaceAll(with: [FeedItem(post: Self.post(quote: 30, card: true))])
        _ = list.updateVisibleRect(minY: list.contentMinY, height: 2_000)
        var cells: [CellWork] = []
        let work = list.drainWork { cells.append($0) }
        #expect(work.configuredQuotes == 0 && work.configuredExternalCards == 0)
        #expect(work.measuredQuotes == 1 && work.measuredExternalCards == 1)
        #expect(cells.filter { $0.kind == .configure }.allSatisfy { $0.cards.isEmpty })
    }
}
