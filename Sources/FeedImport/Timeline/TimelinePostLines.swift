import FeedScenario
import FoundationEssentials
import Glibc

/// Reads FeedSim's own post format: JSON Lines, one post a line, in feed
/// order (newest first), for feeds that are not Bluesky timelines. The
/// fields (docs/examples/your-app/post-line.schema.json):
/// `id`, `author` (strings, hashed); `text_length` (characters) or `text`
/// (counted, then dropped); optional `parent`, `root`, `reposted_by`
/// (strings, hashed); `page` (a whole number, not decreasing: posts of one
/// page share it); `media` (`[{"kind": "image"|"video"|"external",
/// "width": w, "height": h, "thumb": false}]`, the size optional, `thumb`
/// only on a card without a thumbnail); `quote`
/// (`{"kind", "text_length", "media"}`); `unknown_embed` (a type name).
struct TimelinePostLines {
    let salt: ImportSalt

    /// The posts of `text`, a JSON Lines file named `file`, and the page
    /// sizes their `page` numbers give. Blank lines are skipped.
    func read(_ text: String, file: String) throws(TimelineProblem) -> (posts: [ImportedPost], pageSizes: [Int]) {
        var posts: [ImportedPost] = []
        var pageSizes: [Int] = []
        var lastPage: Int?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            let node = try JSONNode.parse(Data(line.utf8), file: file, line: index + 1)
            posts.append(try post(of: node))
            let page = try node.field("page")?.integer() ?? 0
            if let lastPage, page < lastPage {
                throw try node.required("page").failure("expected a page number ≥ \(lastPage), found \(page)")
            }
            if page != lastPage { pageSizes.append(0) }
            pageSizes[pageSizes.count - 1] += 1
            lastPage = page
        }
        return (posts, pageSizes)
    }

    private func post(of node: JSONNode) throws(TimelineProblem) -> ImportedPost {
        var post = ImportedPost(
            id: salt.hash(try node.required("id").string()), author: salt.hash(try node.required("author").string()),
            textLength: try textLength(of: node))
        post.parent = try hashed(node.field("parent"))
        post.root = try hashed(node.field("root"))
        post.repostedBy = try hashed(node.field("reposted_by"))
        post.media = try media(of: node.field("media"))
        if let quote = try node.field("quote") {
            post.quote = ImportedQuote(
                kind: try quote.field("kind")?.string() ?? "post", textLength: try textLength(of: quote),
                media: try media(of: quote.field("media")))
        }
        post.unknownEmbed = try node.field("unknown_embed")?.string()
        post.embed = Self.embed(of: post)
        return post
    }

    /// The string at `node` hashed with the salt, or nil when absent.
    private func hashed(_ node: JSONNode?) throws(TimelineProblem) -> String? {
        guard let node else { return nil }
        return salt.hash(try node.string())
    }

    /// `text_length`, or the length of `text`, or 0 when neither is given.
    private func textLength(of node: JSONNode) throws(TimelineProblem) -> Int {
        if let length = try node.field("text_length") { return try length.integer() }
        return try node.field("text")?.string().count ?? 0
    }

    private func media(of list: JSONNode?) throws(TimelineProblem) -> [ImportedMedia] {
        guard let list else { return [] }
        var media: [ImportedMedia] = []
        for item in try list.array() {
            let kindNode = try item.required("kind")
            let name = try kindNode.string()
            guard let kind = ImportedMedia.Kind(rawValue: name) else {
                throw kindNode.failure("expected \"image\", \"video\" or \"external\", found \"\(name)\"")
            }
            let width = try item.field("width")?.integer(minimum: 1)
            let height = try item.field("height")?.integer(minimum: 1)
            guard (width == nil) == (height == nil) else {
                throw item.failure("expected both \"width\" and \"height\" or neither, found one")
            }
            var thumb: Bool? = nil
            if let node = try item.field("thumb") {
                guard kind == .external else {
                    throw node.failure("expected \"thumb\" only on an \"external\" card, found it on \"\(name)\"")
                }
                // Kept only when false: a card has a thumbnail unless it says not.
                thumb = try node.boolean() ? nil : false
            }
            media.append(ImportedMedia(kind: kind, width: width, height: height, thumb: thumb))
        }
        return media
    }

    /// The embed kind a post's fields amount to.
    static func embed(of post: ImportedPost) -> EmbedKind {
        if post.unknownEmbed != nil { return .unknown }
        if post.quote != nil { return post.media.isEmpty ? .record : .recordWithMedia }
        switch post.media.first?.kind {
        case nil: return .none
        case .image: return .images
        case .video: return .video
        case .external: return .external
        }
    }
}
