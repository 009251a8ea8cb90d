import FeedEngine

/// An imported feed as the engine's posts: the mapping every run from a
/// FEED.json uses (docs/your-app.md, "Your feed").
extension ImportedFeed {
    /// The posts oldest first, as the server holds them: the post at
    /// position *p* from the oldest gets id `firstID + p`; a reply's parent
    /// and root are kept when they are in the feed.
    package func enginePosts(firstID: PostID) -> [Post] {
        Self.enginePosts(posts, firstID: firstID)
    }

    /// The `count` posts a server serves (the newest `count` of the
    /// capture, or the capture again and again, each copy's ids its own,
    /// when `count` is more), oldest first, and the sizes of their pages as
    /// the capture paged them, newest first.
    /// - Complexity: O(`count`).
    package func servedPosts(count: Int, firstID: PostID) -> (posts: [Post], pageSizes: [Int]) {
        var served: [ImportedPost] = []
        served.reserveCapacity(count)
        var pages: [Int] = []
        var copy = 0
        while served.count < count {
            let suffix = copy == 0 ? "" : "#\(copy)"
            var start = 0
            for size in pageSizes where served.count < count {
                let taken = min(size, count - served.count)
                for var post in posts[start..<(start + taken)] {
                    post.id += suffix
                    post.parent = post.parent.map { $0 + suffix }
                    post.root = post.root.map { $0 + suffix }
                    served.append(post)
                }
                pages.append(taken)
                start += size
            }
            copy += 1
        }
        return (Self.enginePosts(served, firstID: firstID), pages.filter { $0 > 0 })
    }

    /// `posts`, in feed order (newest first), as the engine's posts oldest first.
    static func enginePosts(_ posts: [ImportedPost], firstID: PostID) -> [Post] {
        let count = posts.count
        // A post met twice (reposted again) maps to its oldest place, so
        // that its replies find it older than they are.
        var idByHash: [String: PostID] = [:]
        for (index, post) in posts.enumerated() {
            idByHash[post.id] = firstID + PostID(count - 1 - index)
        }
        return posts.reversed().enumerated().map { position, imported in
            var post = Post(
                id: firstID + PostID(position), authorID: Self.authorNumber(imported.author),
                textLength: min(Post.maximumTextLength, imported.textLength),
                media: Self.engineMedia(imported.media.isEmpty ? imported.quote?.media ?? [] : imported.media))
            post.quotedTextLength = imported.quote.map { min(Post.maximumTextLength, $0.textLength) }
            post.hasExternalCard = imported.media.first?.kind == .external
            // A parent must be older: a later post of the same id (a repost
            // of it) is not its parent.
            post.parentID = imported.parent.flatMap { idByHash[$0] }.flatMap { $0 < post.id ? $0 : nil }
            let root = imported.root.flatMap { idByHash[$0] }.flatMap { $0 < post.id ? $0 : nil }
            post.rootID = post.parentID == nil ? nil : root ?? post.parentID
            post.repostedBy = imported.repostedBy.map(Self.authorNumber)
            return post
        }
    }

    /// A hashed id as a 32-bit author number (below `UInt32.max`).
    static func authorNumber(_ hash: String) -> UInt32 {
        min(UInt32(hash.prefix(8), radix: 16) ?? 0, UInt32.max - 1)
    }

    /// The engine's one media attachment for a post's media: the first
    /// item's shape; several images are a carousel; an external card's
    /// thumbnail its card's shape.
    static func engineMedia(_ media: [ImportedMedia]) -> Media? {
        guard let first = media.first, !first.isCardWithoutThumbnail else { return nil }
        if first.kind == .external { return Media.externalCardThumbnail }
        let kind: Media.Kind = first.kind == .video ? .video : media.count > 1 ? .carousel : .single
        let width = Media.storedPixelWidth
        var height = Media.storedPixelWidth
        if let w = first.width, let h = first.height {
            height = min(
                Post.maximumMediaPixels, max(1, Int((Double(Media.storedPixelWidth * h) / Double(w)).rounded())))
        }
        let bytes = Media.encodedBytes(width: width, height: height)
        return Media(
            kind: kind, pixelWidth: width, pixelHeight: height, encodedBytes: bytes, sizeKnownAtLayout: first.sizeKnown)
    }
}
