import FeedEngine
import FeedScenario

/// The feed's server: a deterministic timeline of posts, newest first,
/// served in cursor pages after the scenario's latency. Until the network
/// model arrives every response takes the same time and only likes can fail.
final class FeedServer {
    /// The whole timeline, newest first.
    private(set) var timeline: [Post] = []
    /// Every post by id, for thread context and cursors. Only looked up.
    private var byID: [PostID: Int] = [:]
    private var feed: SyntheticFeed
    private var failures: Xoshiro256StarStar
    private let settings: ServerSettings
    /// Hands a response to the world: runs `deliver` after `delay` ns.
    private let respond: (_ delay: SimTime, _ deliver: @escaping () -> Void) -> Void
    private(set) var requests = 0
    private(set) var failedRequests = 0

    init(
        feed: FeedSettings, server: ServerSettings, streams: RandomStreams,
        respond: @escaping (_ delay: SimTime, _ deliver: @escaping () -> Void) -> Void
    ) {
        self.feed = SyntheticFeed(settings: feed, streams: streams)
        self.failures = streams.generator(for: .network)
        self.settings = server
        self.respond = respond
        publish(self.feed.nextPosts(feed.postCount))
    }

    /// Writes `count` new posts at the head of the timeline and returns them, newest first.
    @discardableResult
    func writeNewPosts(_ count: Int) -> [Post] {
        let written = feed.nextPosts(count)
        publish(written)
        return Array(timeline.prefix(written.count))
    }

    /// Changes `posts` (new like counts) and returns the new versions.
    func touch(_ ids: [PostID]) -> [Post] {
        ids.compactMap { id in
            guard let index = byID[id].map({ timeline.count - 1 - $0 }) else { return nil }
            timeline[index] = feed.touched(timeline[index])
            return timeline[index]
        }
    }

    /// Answers after the latency with `answer`'s result.
    func deliver(_ answer: @escaping () -> Void) {
        respond(settings.latencyNs, answer)
    }

    private func publish(_ written: [Post]) {
        // `byID` stores positions counted from the oldest post, which do not
        // move when newer posts go on top.
        for post in written {
            byID[post.id] = byID.count
        }
        timeline.insert(contentsOf: written.reversed(), at: 0)
    }

    private func post(_ id: PostID) -> Post? {
        byID[id].map { timeline[timeline.count - 1 - $0] }
    }

    private func page(after cursor: FeedCursor?, limit: Int) -> FeedPage {
        var start = 0
        if let cursor, let position = byID[cursor.afterPostID] {
            start = timeline.count - position
        }
        let end = limit >= timeline.count - start ? timeline.count : start + limit
        let posts = Array(timeline[start..<end])
        var context: [Post] = []
        for post in posts {
            for id in [post.parentID, post.rootID].compactMap({ $0 }) {
                if let found = self.post(id) { context.append(found) }
            }
        }
        let next = end < timeline.count ? posts.last.map { FeedCursor(afterPostID: $0.id) } : nil
        return FeedPage(posts: posts, threadContext: context, nextCursor: next)
    }
}

extension FeedServer: FeedTransport {
    func fetchPage(cursor: FeedCursor?, limit: Int, completion: @escaping (Result<FeedPage, FeedTransportError>) -> Void) {
        requests += 1
        let page = self.page(after: cursor, limit: limit)
        deliver { completion(.success(page)) }
    }

    func setLike(postID: PostID, liked: Bool, completion: @escaping (Result<Void, FeedTransportError>) -> Void) {
        requests += 1
        let fails = failures.chance(settings.likeFailureRate)
        if fails {
            failedRequests += 1
        } else if let position = byID[postID] {
            let index = timeline.count - 1 - position
            timeline[index].isLikedByViewer = liked
        }
        deliver { completion(fails ? .failure(.serverError) : .success(())) }
    }
}
