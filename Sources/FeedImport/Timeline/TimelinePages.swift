import FeedScenario
import FoundationEssentials
import Glibc

/// Reads `app.bsky.feed.getTimeline` response pages (`{"feed": [...],
/// "cursor": ...}`) into imported posts, after the lexicons in
/// bluesky-social/atproto: `lexicons/app/bsky/feed/getTimeline.json`,
/// `feed/defs.json` and `embed/{images,video,external,record,recordWithMedia}.json`.
/// Keeps lengths, shapes and salted ids; drops text, URIs, handles, DIDs
/// and cursors.
struct TimelinePageReader {
    static let repostReason = "app.bsky.feed.defs#reasonRepost"
    static let pinReason = "app.bsky.feed.defs#reasonPin"

    let salt: ImportSalt
    /// Feed items by reason type not known here.
    private(set) var unknownReasons: [String: Int] = [:]

    init(salt: ImportSalt) {
        self.salt = salt
    }

    /// The posts of one page, in its order.
    mutating func posts(ofPage page: JSONNode) throws(TimelineProblem) -> [ImportedPost] {
        let items = try page.required("feed").array()
        if let cursor = try page.field("cursor") { _ = try cursor.string() }
        var posts: [ImportedPost] = []
        for item in items { posts.append(try post(of: item)) }
        return posts
    }

    /// One `feedViewPost`.
    private mutating func post(of item: JSONNode) throws(TimelineProblem) -> ImportedPost {
        let view = try item.required("post")
        let id = salt.hash(try view.required("uri").string())
        let author = salt.hash(try view.required("author").required("did").string())
        let text = try view.required("record").required("text").string()
        var post = ImportedPost(id: id, author: author, textLength: text.count)
        if let reply = try item.field("reply") {
            post.parent = salt.hash(try reply.required("parent").required("uri").string())
            post.root = salt.hash(try reply.required("root").required("uri").string())
        }
        if let reason = try item.field("reason") {
            let type = try reason.required("$type").string()
            if type == Self.repostReason {
                post.repostedBy = salt.hash(try reason.required("by").required("did").string())
            } else if type != Self.pinReason {
                unknownReasons[type, default: 0] += 1
            }
        }
        if let embed = try view.field("embed") { try read(embed: embed, into: &post) }
        return post
    }

    /// A post's embed: its kind, media and quote.
    private func read(embed: JSONNode, into post: inout ImportedPost) throws(TimelineProblem) {
        let type = try embed.required("$type").string()
        switch type {
        case "app.bsky.embed.record#view":
            post.embed = .record
            post.quote = try quote(of: try embed.required("record"))
        case "app.bsky.embed.recordWithMedia#view":
            post.embed = .recordWithMedia
            post.quote = try quote(of: try embed.required("record").required("record"))
            let media = try embed.required("media")
            if let found = try Self.media(of: media) {
                post.media = found
            } else {
                post.unknownEmbed = try media.required("$type").string()
            }
        default:
            if let found = try Self.media(of: embed) {
                post.embed = found.first?.kind == .video ? .video : found.first?.kind == .external ? .external : .images
                post.media = found
            } else {
                post.embed = .unknown
                post.unknownEmbed = type
            }
        }
    }

    /// The media of an images, video or external view; nil for other types.
    static func media(of embed: JSONNode) throws(TimelineProblem) -> [ImportedMedia]? {
        switch try embed.required("$type").string() {
        case "app.bsky.embed.images#view":
            var images: [ImportedMedia] = []
            for image in try embed.required("images").array() {
                images.append(try shape(of: image, kind: .image))
            }
            return images
        case "app.bsky.embed.video#view":
            return [try shape(of: embed, kind: .video)]
        case "app.bsky.embed.external#view":
            let external = try embed.required("external")
            _ = try external.field("uri")
            // `thumb` is optional in `viewExternal`: a card without one is its text alone.
            return [ImportedMedia(kind: .external, thumb: try external.field("thumb") == nil ? false : nil)]
        default:
            return nil
        }
    }

    /// A media item with its optional `aspectRatio` (`app.bsky.embed.defs`).
    private static func shape(of node: JSONNode, kind: ImportedMedia.Kind) throws(TimelineProblem) -> ImportedMedia {
        guard let ratio = try node.field("aspectRatio") else { return ImportedMedia(kind: kind) }
        return ImportedMedia(
            kind: kind, width: try ratio.required("width").integer(minimum: 1),
            height: try ratio.required("height").integer(minimum: 1))
    }

    /// A quoted record's view (`app.bsky.embed.record#view`'s `record`).
    private func quote(of record: JSONNode) throws(TimelineProblem) -> ImportedQuote {
        switch try record.required("$type").string() {
        case "app.bsky.embed.record#viewRecord":
            let text = try record.required("value").field("text")?.string() ?? ""
            var media: [ImportedMedia] = []
            if let first = try record.field("embeds")?.array().first {
                media = try Self.media(of: first) ?? []
            }
            return ImportedQuote(kind: "post", textLength: text.count, media: media)
        case "app.bsky.embed.record#viewNotFound", "app.bsky.embed.record#viewBlocked",
            "app.bsky.embed.record#viewDetached":
            return ImportedQuote(kind: "unavailable", textLength: 0)
        default:
            return ImportedQuote(kind: "other", textLength: 0)
        }
    }
}
