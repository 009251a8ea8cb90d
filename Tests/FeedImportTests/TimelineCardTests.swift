import FeedEngine
import FeedScenario
import Testing

@testable import FeedImport

@Suite("Timeline cards")
struct TimelineCardTests {
    @Test("an external card and a quote beside a shared link reach the engine as cards of their own")
    func cards() throws {
        let external = #"""
            {"$type": "app.bsky.embed.external#view", "external": {"uri": "https://example.org/a",
              "title": "A title", "description": "A description", "thumb": "https://example.org/a.jpg"}}
            """#
        let quoteWithLink = #"""
            {"$type": "app.bsky.embed.recordWithMedia#view",
             "record": {"record": {"$type": "app.bsky.embed.record#viewRecord",
               "uri": "at://did:plc:q/app.bsky.feed.post/q", "cid": "q",
               "author": {"did": "did:plc:q", "handle": "q.test"},
               "value": {"text": "four"}, "indexedAt": "2026-01-01T00:00:00Z"}},
             "media": {"$type": "app.bsky.embed.external#view", "external": {"uri": "https://example.org/b"}}}
            """#
        let page = TimelineFixture.page([
            TimelineFixture.item(3, by: "a", text: "link", embed: external),
            TimelineFixture.item(2, by: "a", text: "both", embed: quoteWithLink),
            TimelineFixture.item(1, by: "a", text: "plain"),
        ])
        let feed = try TimelineFixture.importing(page)
        // Oldest first: the plain post, the quote beside a link, the link.
        let posts = feed.enginePosts(firstID: 10)
        #expect(posts.map(\.hasExternalCard) == [false, true, true])
        #expect(posts.map(\.quotedTextLength) == [nil, 4, nil])
        #expect(posts.map(\.textLength) == [5, 4, 4])
        // The card's thumbnail is the post's media, 1.91:1 and sized at layout.
        let thumbnail = try #require(posts[2].media)
        #expect(thumbnail.pixelWidth == 1_200 && thumbnail.pixelHeight == 628 && thumbnail.sizeKnownAtLayout)
        #expect(posts[0].media == nil)
    }
}

extension TimelineCardTests {
    @Test("an external card without a thumbnail is a card with no media, in a capture and in post lines")
    func cardWithoutThumbnail() throws {
        let bare = #"{"$type": "app.bsky.embed.external#view", "external": {"uri": "https://example.org/c"}}"#
        let feed = try TimelineFixture.importing(
            TimelineFixture.page([TimelineFixture.item(1, by: "a", text: "bare", embed: bare)]))
        #expect(feed.posts[0].media == [ImportedMedia(kind: .external, thumb: false)])
        #expect(feed.mediaItems == 0)
        let post = try #require(feed.enginePosts(firstID: 10).first)
        #expect(post.hasExternalCard && post.media == nil)

        let lines = [
            #"{"id": "a", "author": "x", "page": 1, "media": [{"kind": "external", "thumb": false}]}"#,
            #"{"id": "b", "author": "x", "page": 1, "media": [{"kind": "external", "thumb": true}]}"#,
        ].joined(separator: "\n")
        let fromLines = try TimelineFixture.importing(lines, as: "posts.jsonl")
        #expect(fromLines.posts.map { $0.media.first?.thumb } == [false, nil])
        #expect(fromLines.enginePosts(firstID: 10).map(\.hasMedia) == [true, false])

        let misplaced = #"{"id": "a", "author": "x", "page": 1, "media": [{"kind": "image", "thumb": false}]}"#
        let problem = try #require(TimelineFixture.problem(misplaced, as: "posts.jsonl"))
        #expect(
            problem.problem == #"$.media[0].thumb: expected "thumb" only on an "external" card, found it on "image""#)
    }
}
