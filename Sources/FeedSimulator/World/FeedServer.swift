import Determinism
import FeedEngine
import FeedScenario

/// The feed's server behind the modelled network: a deterministic timeline
/// of posts, newest first, served in cursor pages and written on demand. Each request's fate and
/// timing come from the network model (latency, bandwidth, loss, timeouts,
/// retries, offline windows), plus the server's own processing time.
final class FeedServer {
    /// Bytes of a request's headers and body (a GET with an auth token).
    static let requestBytes = 1_024
    /// Bytes of one post in a page's JSON (text, author, counts, media URLs).
    static let bytesPerPost = 2_048
    /// Bytes of a like's request and response.
    static let likeBytes = 512

    /// Every post written, by position from the oldest, written again from
    /// checkpoints when read rather than held (a 1,000,000-post feed took
    /// 40 MB as an array). A post's id tells its place: the synthetic feed
    /// numbers posts from `SyntheticFeed.firstPostID` in the order they are
    /// written, and every one is published, so no index by id is kept. Pages
    /// run newest first: a page's index `i` is position `count - 1 - i`.
    @exclusivity(unchecked) private var timeline: PostTimeline
    /// With an imported feed served as the capture paged it, the positions
    /// just past each captured page, ascending (`pageEnds`); empty otherwise.
    private let importedPageEnds: [Int]
    /// Posts deleted from the timeline. They keep their place so that a
    /// cursor naming one still knows where the next page starts; pages and
    /// thread context skip them. Only looked up.
    @exclusivity(unchecked) private var deleted: Set<PostID> = []
    @exclusivity(unchecked) private var feed: SyntheticFeed
    @exclusivity(unchecked) private var failures: Xoshiro256StarStar
    private let settings: ServerSettings
    @exclusivity(unchecked) private(set) var network: NetworkModel
    /// The current time, from the world.
    private let clock: () -> SimTime
    /// Hands a response to the world: runs `deliver` after `delay` ns.
    private let respond: (_ delay: SimTime, _ deliver: @escaping () -> Void) -> Void
    /// Where each exchange is recorded, when the run keeps a timeline.
    private let recorder: TimelineRecorder?
    /// Logical requests made (a retried request counts once).
    @exclusivity(unchecked) private(set) var requests = 0
    /// Requests that failed after every retry.
    @exclusivity(unchecked) private(set) var failedRequests = 0

    init(
        feed: FeedSettings, server: ServerSettings, network: NetworkModel, streams: RandomStreams,
        clock: @escaping () -> SimTime, recorder: TimelineRecorder? = nil,
        respond: @escaping (_ delay: SimTime, _ deliver: @escaping () -> Void) -> Void
    ) {
        if let imported = feed.imported?.feed {
            let served = imported.servedPosts(count: feed.postCount, firstID: SyntheticFeed.firstPostID)
            timeline = PostTimeline(fixed: served.posts)
            self.feed = SyntheticFeed(
                settings: feed, streams: streams, firstID: SyntheticFeed.firstPostID + PostID(served.posts.count))
            importedPageEnds = feed.imported?.pagedAsCaptured == true ? FeedServer.pageEnds(served.pageSizes) : []
        } else {
            timeline = PostTimeline()
            self.feed = SyntheticFeed(settings: feed, streams: streams)
            importedPageEnds = []
        }
        self.failures = streams.generator(for: .server)
        self.settings = server
        self.network = network
        self.clock = clock
        self.respond = respond
        self.recorder = recorder
        if feed.imported == nil { _ = timeline.append(feed.postCount, with: &self.feed, returning: false) }
    }

    /// The position of post `id` counted from the oldest post, which does
    /// not move when newer posts go on top; `nil` for an id never published.
    ///
    /// - Complexity: O(1).
    private func position(of id: PostID) -> Int? {
        guard id >= SyntheticFeed.firstPostID, id - SyntheticFeed.firstPostID < UInt64(timeline.count) else {
            return nil
        }
        return Int(id - SyntheticFeed.firstPostID)
    }

    /// Sends a request over the network and calls `completion` when its
    /// plan says it finished: with `success` or with the failure's reason.
    /// `kind` names it in a timeline.
    func exchange<T>(
        _ kind: String, requestBytes: Int, responseBytes: Int, success: @escaping () -> Result<T, FeedTransportError>,
        completion: @escaping (Result<T, FeedTransportError>) -> Void
    ) {
        requests += 1
        let now = clock()
        let plan = network.plan(requestAt: now, requestBytes: requestBytes, responseBytes: responseBytes)
        let result: Result<T, FeedTransportError>
        switch plan.result {
        case .succeeded:
            result = success()
        case let .failed(reason, _):
            switch reason {
            case .offline: result = .failure(.offline)
            case .timedOut: result = .failure(.timedOut)
            case .lost: result = .failure(.serverError)
            }
        }
        var failed = false
        if case .failure = result {
            failedRequests += 1
            failed = true
        }
        let processing = plan.succeeded ? settings.latencyNs : 0
        respond(plan.finishedAt - now + processing) { completion(result) }
        recorder?.recordRequest(
            kind, at: now, answeredAt: plan.finishedAt + processing, requestBytes: requestBytes,
            responseBytes: responseBytes, plan: plan, failed: failed)
    }

    /// Writes `count` new posts at the head of the timeline and returns them, newest first.
    @discardableResult
    func writeNewPosts(_ count: Int) -> [Post] {
        Array(timeline.append(count, with: &feed, returning: true).reversed())
    }

    /// Changes `posts` (new like counts) and returns the new versions.
    func touch(_ ids: [PostID]) -> [Post] {
        ids.compactMap { id in
            guard let position = position(of: id) else { return nil }
            let touched = feed.touched(timeline.post(at: position))
            timeline.change(at: position, to: touched)
            return touched
        }
    }

    /// Deletes `ids` from the timeline: later pages and refreshes leave them out.
    func delete(_ ids: [PostID]) {
        for id in ids where position(of: id) != nil { deleted.insert(id) }
    }

    /// Answers after the latency with `answer`'s result.
    func deliver(_ answer: @escaping () -> Void) {
        respond(settings.latencyNs, answer)
    }

    private func post(_ id: PostID) -> Post? {
        guard !deleted.contains(id) else { return nil }
        return position(of: id).map { timeline.post(at: $0) }
    }

    /// The id of the post at `position`, counted from the oldest: the
    /// inverse of `position(of:)`.
    private func id(atPosition position: Int) -> PostID {
        SyntheticFeed.firstPostID + PostID(position)
    }

    /// The id of the post at `index` in pages' order (0 is the newest).
    private func id(atPageIndex index: Int) -> PostID {
        id(atPosition: timeline.count - 1 - index)
    }

    /// Where the page after `cursor` lies in the timeline: `start..<end`,
    /// holding `count` posts that were not deleted (at most `limit`), with
    /// the deleted posts after them skipped too.
    private struct PageExtent {
        var start: Int
        var end: Int
        var count: Int
    }

    private func pageExtent(after cursor: FeedCursor?, limit requested: Int) -> PageExtent {
        var start = 0
        if let cursor, let position = position(of: cursor.afterPostID) {
            start = timeline.count - position
        }
        let limit = capturedPageLimit(at: start) ?? requested
        var count = 0
        var end = start
        while end < timeline.count, count < limit {
            if !deleted.contains(id(atPageIndex: end)) { count += 1 }
            end += 1
        }
        while end < timeline.count, deleted.contains(id(atPageIndex: end)) { end += 1 }
        return PageExtent(start: start, end: end, count: count)
    }

    /// The positions, counted from the oldest, just past each page of a
    /// capture paged `pageSizes` (newest page first), ascending.
    static func pageEnds(_ pageSizes: [Int]) -> [Int] {
        var ends: [Int] = []
        var end = pageSizes.reduce(0, +)
        for size in pageSizes {
            ends.append(end)
            end -= size
        }
        return ends.reversed()
    }

    /// With the capture's paging, the posts left in the captured page that
    /// holds page index `start`: a page starting inside one ends where it
    /// ended. Nil for the synthetic feed, a scenario's own `page_size`, or
    /// a start among posts written after launch.
    /// - Complexity: O(log p) for p pages.
    private func capturedPageLimit(at start: Int) -> Int? {
        let position = timeline.count - 1 - start
        guard let last = importedPageEnds.last, position >= 0, position < last else { return nil }
        var low = 0
        var high = importedPageEnds.count - 1
        while low < high {
            let middle = (low + high) / 2
            if importedPageEnds[middle] > position { high = middle } else { low = middle + 1 }
        }
        let pageStart = low == 0 ? 0 : importedPageEnds[low - 1]
        return position - pageStart + 1
    }

    /// The page `extent` describes. Built only for a response that arrives,
    /// in an array of exactly its size: a page of a million posts is most of
    /// a run's memory, and a doubling array would hold it twice over while
    /// it grew.
    private func page(_ extent: PageExtent) -> FeedPage {
        var posts: [Post] = []
        posts.reserveCapacity(extent.count)
        // Page indices count from the newest post, timeline positions from
        // the oldest: the page's posts are positions
        // `count - end ..< count - start`, read newest first.
        let newest = timeline.count
        timeline.appendPosts(newestFirst: (newest - extent.end)..<(newest - extent.start), to: &posts) { position in
            !deleted.contains(id(atPosition: position))
        }
        var context: [Post] = []
        // A reply's parent, then its root; two optionals read in place,
        // where an array of them per post cost two allocations a post.
        for post in posts {
            if let parent = post.parentID, let found = self.post(parent) { context.append(found) }
            if let root = post.rootID, let found = self.post(root) { context.append(found) }
        }
        let next = extent.end < timeline.count ? posts.last.map { FeedCursor(afterPostID: $0.id) } : nil
        return FeedPage(posts: posts, threadContext: context, nextCursor: next)
    }
}

extension FeedServer: FeedTransport {
    func fetchPage(
        cursor: FeedCursor?, limit: Int, completion: @escaping (Result<FeedPage, FeedTransportError>) -> Void
    ) {
        let extent = pageExtent(after: cursor, limit: limit)
        // A request without a cursor loads from the top: a refresh, or the first load.
        exchange(
            cursor == nil ? "refresh" : "page", requestBytes: FeedServer.requestBytes,
            responseBytes: extent.count * FeedServer.bytesPerPost,
            success: { .success(self.page(extent)) }, completion: completion)
    }

    func setLike(postID: PostID, liked: Bool, completion: @escaping (Result<Void, FeedTransportError>) -> Void) {
        exchange(
            "like", requestBytes: FeedServer.likeBytes, responseBytes: FeedServer.likeBytes,
            success: { [unowned self] in
                guard !self.failures.chance(self.settings.likeFailureRate) else { return .failure(.serverError) }
                if let position = self.position(of: postID) {
                    var post = self.timeline.post(at: position)
                    post.isLikedByViewer = liked
                    self.timeline.change(at: position, to: post)
                }
                return .success(())
            },
            completion: completion)
    }
}
