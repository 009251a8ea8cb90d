import Determinism
import FeedEngine
import FeedScenario

/// A deterministic source of posts: the same seed and settings always give
/// the same posts.
package struct SyntheticFeed: Sendable {
    /// Ids start here so they never look like indices.
    package static let firstPostID: PostID = 1_000_000
    /// Distinct authors posts are drawn from.
    package static let authorCount: UInt64 = 5_000
    /// Media shapes and their weights (out of 100): mostly single photos, as
    /// in Instagram-style feeds, fewer carousels and videos.
    static let mediaKinds: [(Media.Kind, UInt64)] = [(.single, 70), (.carousel, 20), (.video, 10)]
    /// Media pixel sizes at `Media.storedPixelWidth` (1,080 px): square,
    /// 4:5 portrait, 1.91:1 landscape, 16:9 video, 9:16 story-style video.
    static let mediaShapes: [(width: Int, height: Int)] = [
        (1080, 1080), (1080, 1350), (1080, 566), (1080, 608), (1080, 1920),
    ]

    /// Replies answer one of this many most recent posts.
    static let replyWindow = 64

    private var generator: Xoshiro256StarStar
    private let settings: FeedSettings
    private var nextID: PostID = SyntheticFeed.firstPostID
    /// The last `replyWindow` posts, oldest first from `recentStart`: a ring,
    /// so that each new post overwrites the oldest instead of shifting the
    /// window (a memmove of the whole window per post).
    private var recent: [Post] = []
    private var recentStart = 0

    /// A writer whose first post gets id `firstID`: after the posts of an
    /// imported feed, the next id.
    package init(settings: FeedSettings, streams: RandomStreams, firstID: PostID = SyntheticFeed.firstPostID) {
        self.settings = settings
        self.generator = streams.generator(for: .content)
        self.nextID = firstID
    }

    /// The next `count` posts, in the order they were written (oldest
    /// first, ids increasing); a feed shows them newest first.
    package mutating func nextPosts(_ count: Int) -> [Post] {
        var posts: [Post] = []
        posts.reserveCapacity(count)
        for _ in 0..<count { posts.append(nextPost()) }
        return posts
    }

    private mutating func nextPost() -> Post {
        let id = nextID
        nextID += 1
        let author = UInt32(generator.next(below: SyntheticFeed.authorCount))
        let text = generator.next(in: settings.textLength)
        var media: Media? = nil
        if generator.chance(settings.mediaFraction) {
            var pick = generator.next(below: 100)
            var kind = Media.Kind.single
            for (candidate, weight) in SyntheticFeed.mediaKinds {
                if pick < weight {
                    kind = candidate
                    break
                }
                pick -= weight
            }
            let shape = SyntheticFeed.mediaShapes[Int(generator.next(below: UInt64(SyntheticFeed.mediaShapes.count)))]
            let bytes = Media.encodedBytes(width: shape.width, height: shape.height)
            // Drawn only when some sizes are unknown, so other feeds keep their sequence.
            let sizeKnown = settings.mediaSizeKnownFraction >= 1 || generator.chance(settings.mediaSizeKnownFraction)
            media = Media(
                kind: kind, pixelWidth: shape.width, pixelHeight: shape.height, encodedBytes: bytes,
                sizeKnownAtLayout: sizeKnown)
        }
        let likes = Int(generator.next(below: 1_000))
        var post = Post(id: id, authorID: author, textLength: text, media: media, likeCount: likes)
        if !recent.isEmpty, generator.chance(settings.replyFraction) {
            let parent = recent[(recentStart + Int(generator.next(below: UInt64(recent.count)))) % recent.count]
            post.parentID = parent.id
            post.rootID = parent.rootID ?? parent.id
        } else if generator.chance(settings.repostFraction) {
            post.repostedBy = UInt32(generator.next(below: SyntheticFeed.authorCount))
        }
        // Drawn only when asked for, so other feeds keep their sequence.
        if settings.quoteFraction > 0, generator.chance(settings.quoteFraction) {
            post.quotedTextLength = generator.next(in: settings.textLength)
        }
        if settings.externalCardFraction > 0, generator.chance(settings.externalCardFraction) {
            post.hasExternalCard = true
            post.media = Media.externalCardThumbnail
        }
        switch settings.itemHeight {
        case .content: break
        case let .fixed(height): post.fixedHeightPt = height
        // Drawn only for ranged heights, so other feeds keep their sequence.
        case let .uniform(range):
            post.fixedHeightPt = range.lowerBound + generator.nextUnit() * (range.upperBound - range.lowerBound)
        }
        if recent.count < SyntheticFeed.replyWindow {
            recent.append(post)
        } else {
            recent[recentStart] = post
            recentStart = (recentStart + 1) % recent.count
        }
        return post
    }

    /// Changes `post` as the server would between two fetches: new likes.
    package mutating func touched(_ post: Post) -> Post {
        var changed = post
        changed.likeCount += 1 + Int(generator.next(below: 20))
        return changed
    }
}
