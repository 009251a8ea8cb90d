import FeedEngine
import FeedImport
import FeedScenario
import FeedSimTestSupport
import Foundation
import Testing

/// A getTimeline page written the way the lexicon shapes it, for tests.
enum TimelineFixture {
    static let salt = ImportSalt(bytes: Array("a test salt of sixteen bytes".utf8))

    /// A `feedViewPost` of post `n` by `who` with `text` and `embed` (JSON), optionally a reply or repost.
    static func item(_ n: Int, by who: String, text: String, embed: String? = nil, extra: String = "") -> String {
        let embedMember = embed.map { #", "embed": \#($0)"# } ?? ""
        return #"""
            {"post": {"uri": "at://did:plc:\#(who)/app.bsky.feed.post/p\#(n)", "cid": "c\#(n)",
              "author": {"did": "did:plc:\#(who)", "handle": "\#(who).test"},
              "record": {"$type": "app.bsky.feed.post", "text": "\#(text)", "createdAt": "2026-01-01T00:00:00Z"},
              "indexedAt": "2026-01-01T00:00:00Z"\#(embedMember)}\#(extra)}
            """#
    }

    static func page(_ items: [String], cursor: String? = "next") -> String {
        #"{"feed": [\#(items.joined(separator: ",\n"))]\#(cursor.map { #", "cursor": "\#($0)""# } ?? "")}"#
    }

    /// An images view of images each with (`true`) or without an aspect ratio.
    static func images(_ known: [Bool]) -> String {
        let images = known.enumerated().map { index, isKnown in
            let ratio = isKnown ? #", "aspectRatio": {"width": 1000, "height": \#(600 + index)}"# : ""
            return #"{"thumb": "https://cdn.test/t\#(index).jpg", "fullsize": "https://cdn.test/f.jpg", "#
                + #""alt": "x"\#(ratio)}"#
        }
        return #"{"$type": "app.bsky.embed.images#view", "images": [\#(images.joined(separator: ", "))]}"#
    }

    /// Imports `text` written as `name` in a fresh folder.
    static func importing(_ text: String, as name: String = "page.json") throws -> ImportedFeed {
        let folder = try ScratchFolder(prefix: "feedsim-timeline")
        defer { folder.remove() }
        try folder.write(text, to: name)
        return try TimelineImport.read(path: folder.appending(name).path, salt: salt)
    }

    /// The problem importing `text` meets, or nil.
    static func problem(_ text: String, as name: String = "page.json") -> TimelineProblem? {
        do {
            _ = try importing(text, as: name)
            return nil
        } catch let problem as TimelineProblem {
            return problem
        } catch {
            return TimelineProblem(file: name, place: .wholeFile, problem: "unexpected \(error)")
        }
    }
}

@Suite("Timeline import")
struct TimelineImportTests {
    @Test("a timeline with 30 of 40 images sized comes back out of the feed with 75% of media sized")
    func knownAspectRatioShare() throws {
        // 20 posts of one image (15 sized) and 10 of two images (15 of 20 sized): 30 of 40.
        var items: [String] = []
        for n in 0..<20 {
            items.append(TimelineFixture.item(n, by: "u\(n % 3)", text: "t", embed: TimelineFixture.images([n < 15])))
        }
        for n in 20..<30 {
            let known = n < 25 ? [true, true] : [true, false]
            items.append(TimelineFixture.item(n, by: "u1", text: "t", embed: TimelineFixture.images(known)))
        }
        let feed = try TimelineFixture.importing(TimelineFixture.page(items))
        #expect(feed.mediaItems == 40 && feed.mediaSizeKnown == 30)
        // The engine gets one attachment a post, shaped by its first image: 25 of 30 sized.
        let posts = feed.enginePosts(firstID: 1_000_000)
        let media = posts.compactMap(\.media)
        #expect(media.count == 30)
        #expect(media.filter(\.sizeKnownAtLayout).count == 25)
        #expect(media.filter { $0.kind == .carousel }.count == 10)
        // Sized images keep their shape: 1000 × 600 scaled to 1080 wide.
        #expect(posts.last?.media == Media(kind: .single, pixelWidth: 1080, pixelHeight: 648, encodedBytes: 174_960))
    }

    @Test("text is counted in grapheme clusters, as layout counts characters, and a quote keeps its own")
    func textLength() throws {
        let quote = #"""
            {"$type": "app.bsky.embed.record#view", "record": {"$type": "app.bsky.embed.record#viewRecord",
              "uri": "at://did:plc:q/app.bsky.feed.post/q", "cid": "q",
              "author": {"did": "did:plc:q", "handle": "q.test"},
              "value": {"text": "quoted words"}, "indexedAt": "2026-01-01T00:00:00Z"}}
            """#
        let page = TimelineFixture.page([
            TimelineFixture.item(1, by: "a", text: "héllo 👍🏽 🇫🇷"),
            TimelineFixture.item(2, by: "a", text: "ab", embed: quote),
        ])
        let feed = try TimelineFixture.importing(page)
        #expect(feed.posts.map(\.textLength) == [9, 2])
        #expect(feed.posts[1].quote == ImportedQuote(kind: "post", textLength: 12))
        #expect(feed.posts[1].embed == .record)
        // The engine's post keeps its own text; the quote is a card with its text's length.
        let posts = feed.enginePosts(firstID: 10)
        #expect(posts.map(\.textLength) == [2, 9])
        #expect(posts.map(\.quotedTextLength) == [12, nil])
        #expect(posts.allSatisfy { !$0.hasExternalCard })
    }

    @Test("replies keep parent and root, reposts their reposter, as hashed ids linked in the engine's posts")
    func threadsAndReposts() throws {
        let ref =
            #"{"uri": "at://did:plc:a/app.bsky.feed.post/p1", "cid": "c1", "author": {"did": "did:plc:a"}, "#
            + #""record": {"text": ""}, "indexedAt": "x"}"#
        let page = TimelineFixture.page([
            TimelineFixture.item(2, by: "b", text: "reply", extra: #", "reply": {"root": \#(ref), "parent": \#(ref)}"#),
            TimelineFixture.item(
                1, by: "a", text: "root",
                extra: #", "reason": {"$type": "app.bsky.feed.defs#reasonRepost", "by": {"did": "did:plc:r"}, "#
                    + #""indexedAt": "x"}"#),
        ])
        let feed = try TimelineFixture.importing(page)
        let salt = TimelineFixture.salt
        #expect(feed.posts[0].parent == salt.hash("at://did:plc:a/app.bsky.feed.post/p1"))
        #expect(feed.posts[0].root == feed.posts[0].parent && feed.posts[0].parent == feed.posts[1].id)
        #expect(feed.posts[1].repostedBy == salt.hash("did:plc:r"))
        let posts = feed.enginePosts(firstID: 100)
        // Oldest first: the root (position 0, id 100), then the reply pointing at it.
        #expect(posts.map(\.id) == [100, 101])
        #expect(posts[1].parentID == 100 && posts[1].rootID == 100 && posts[0].repostedBy != nil)
    }

    @Test("unknown embed types are counted by type, kept on the post and printed, never dropped")
    func unknownEmbeds() throws {
        let poll = #"{"$type": "app.example.embed.poll#view", "options": ["a", "b"]}"#
        let page = TimelineFixture.page([
            TimelineFixture.item(1, by: "a", text: "x", embed: poll),
            TimelineFixture.item(2, by: "a", text: "y", embed: poll),
            TimelineFixture.item(3, by: "a", text: "z"),
        ])
        let feed = try TimelineFixture.importing(page)
        #expect(feed.unknownEmbedTypes == ["app.example.embed.poll#view": 2])
        #expect(feed.embeds["unknown"] == 2 && feed.embeds["none"] == 1)
        // Media of a type not known beside a quote is counted the same way.
        let withMedia =
            #"{"$type": "app.bsky.embed.recordWithMedia#view", "record": {"record": "#
            + #"{"$type": "app.bsky.embed.record#viewNotFound"}}, "media": {"$type": "app.example.embed.gif#view"}}"#
        let quoting = try TimelineFixture.importing(
            TimelineFixture.page([TimelineFixture.item(4, by: "a", text: "q", embed: withMedia)]))
        #expect(quoting.unknownEmbedTypes == ["app.example.embed.gif#view": 1])
        #expect(quoting.posts[0].embed == .recordWithMedia && quoting.posts[0].quote?.kind == "unavailable")
        #expect(feed.posts[0].unknownEmbed == "app.example.embed.poll#view")
        let summary = TimelineImport.summary(of: feed)
        #expect(summary.contains("unknown embed type app.example.embed.poll#view: 2 (counted in the file"))
        let decoded = try JSONDecoder().decode(ImportedFeed.self, from: try feed.encoded())
        #expect(decoded == feed)
    }

    @Test("the output holds no text, URI, handle or DID of the input")
    func privacy() throws {
        let secrets = ["did:plc:secretauthor", "secretauthor.test", "the secret words of a post", "cdn.test", "next"]
        let page = TimelineFixture.page([
            TimelineFixture.item(
                1, by: "secretauthor", text: "the secret words of a post", embed: TimelineFixture.images([true]))
        ])
        let text = String(decoding: try TimelineFixture.importing(page).encoded(), as: UTF8.self)
        for secret in secrets + ["p1", "at://"] { #expect(!text.contains(secret), "\(secret) leaked") }
    }

    @Test(
        "a malformed page is refused with the JSON path and what was expected",
        arguments: [
            (#"{"feed": 3}"#, "$.feed", "expected an array, found a number"),
            (#"{"cursor": "x"}"#, "$", #"expected a member "feed", found none"#),
            (#"{"feed": [{"post": {"uri": 1}}]}"#, "$.feed[0].post.uri", "expected a string, found a number"),
            (
                TimelineFixture.page([
                    TimelineFixture.item(
                        1, by: "a", text: "x",
                        embed: #"{"$type": "app.bsky.embed.images#view", "#
                            + #""images": [{"aspectRatio": {"width": 0, "height": 2}}]}"#)
                ]),
                "$.feed[0].post.embed.images[0].aspectRatio.width", "expected a whole number ≥ 1, found 0"
            ),
            (
                TimelineFixture.page([TimelineFixture.item(1, by: "a", text: "x", embed: #"{"images": []}"#)]),
                "$.feed[0].post.embed", #"expected a member "$type", found none"#
            ),
        ])
    func malformedPage(text: String, path: String, problem: String) {
        let found = TimelineFixture.problem(text)
        #expect(found?.place == .jsonPath(path))
        #expect(found?.problem == problem)
    }

    @Test("a page that is not JSON, and a post line that is malformed, are refused with their place")
    func malformedFiles() {
        #expect(TimelineFixture.problem(#"{"feed": ["#)?.place == .wholeFile)
        let lines = #"{"id": "a", "author": "b"}"# + "\n\n" + #"{"id": "c", "author": "d", "media": [{"kind": "gif"}]}"#
        let found = TimelineFixture.problem(lines, as: "posts.jsonl")
        #expect(found?.place == .line(3))
        #expect(found?.problem == #"$.media[0].kind: expected "image", "video" or "external", found "gif""#)
        let backwards = #"{"id": "a", "author": "b", "page": 2}"# + "\n" + #"{"id": "c", "author": "d", "page": 1}"#
        let backwardsProblem = TimelineFixture.problem(backwards, as: "posts.jsonl")?.problem
        #expect(backwardsProblem == "$.page: expected a page number ≥ 2, found 1")
    }

    @Test("post lines give their pages, media, quotes and embed kinds")
    func postLines() throws {
        let lines = [
            #"{"id": "a", "author": "x", "text": "four", "page": 0}"#,
            #"{"id": "b", "author": "x", "text_length": 7, "page": 0, "#
                + #""media": [{"kind": "image", "width": 4, "height": 5}]}"#,
            #"{"id": "c", "author": "y", "page": 1, "quote": {"text_length": 3}, "media": [{"kind": "video"}]}"#,
        ]
        let feed = try TimelineFixture.importing(lines.joined(separator: "\n") + "\n", as: "posts.jsonl")
        #expect(feed.pageSizes == [2, 1])
        #expect(feed.posts.map(\.embed) == [.none, .images, .recordWithMedia])
        #expect(feed.posts.map(\.textLength) == [4, 7, 0])
        #expect(feed.mediaItems == 2 && feed.mediaSizeKnown == 1)
    }

    @Test("the same capture and salt import to the same bytes; another salt changes every id")
    func repeatable() throws {
        let page = TimelineFixture.page([
            TimelineFixture.item(1, by: "a", text: "x"), TimelineFixture.item(2, by: "b", text: "y"),
        ])
        let first = try TimelineFixture.importing(page).encoded()
        #expect(try TimelineFixture.importing(page).encoded() == first)
        let folder = try ScratchFolder(prefix: "feedsim-timeline")
        defer { folder.remove() }
        try folder.write(page, to: "p.json")
        let other = try TimelineImport.read(
            path: folder.appending("p.json").path, salt: ImportSalt(bytes: Array(0..<16)))
        #expect(other.posts.map(\.id) != (try TimelineFixture.importing(page)).posts.map(\.id))
    }

    @Test("a server's posts: the capture's newest, or the capture again with each copy's own ids, paged as captured")
    func servedPosts() throws {
        let lines = (0..<5).map { n in
            let reply = n == 0 ? #", "parent": "p1", "root": "p1""# : ""
            return #"{"id": "p\#(n)", "author": "a", "text_length": \#(n), "page": \#(n / 3)\#(reply)}"#
        }
        let feed = try TimelineFixture.importing(lines.joined(separator: "\n"), as: "posts.jsonl")
        #expect(feed.pageSizes == [3, 2])
        let few = feed.servedPosts(count: 4, firstID: 10)
        #expect(few.pageSizes == [3, 1])
        #expect(few.posts.map(\.textLength) == [3, 2, 1, 0])
        let many = feed.servedPosts(count: 12, firstID: 10)
        #expect(many.pageSizes == [3, 2, 3, 2, 2])
        #expect(many.posts.map(\.id) == Array(10..<22))
        // Newest first p0 p1 p2 p3 p4 p0' p1' …: each copy's reply answers its own copy's p1.
        let replies = many.posts.filter { $0.parentID != nil }
        #expect(replies.map(\.id) == [11, 16, 21])
        #expect(replies.map(\.parentID) == [10, 15, 20])
    }
}
