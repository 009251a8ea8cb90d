import Determinism
import FeedEngine
import FeedScenario
import Testing

@testable import FeedSimulator

/// The server's timeline writes its posts again from checkpoints when read:
/// every read must give the post the synthetic feed wrote, however the
/// writes were split and whatever was drawn between them.
@Suite("Post timeline")
struct PostTimelineTests {
    /// Feeds that draw differently per post: replies and reposts (the ring
    /// of recent posts), unknown media sizes and ranged heights (extra draws).
    static let settings: [FeedSettings] = {
        var plain = FeedSettings(postCount: 0)
        plain.mediaFraction = 0.3
        var threaded = FeedSettings(postCount: 0, mediaFraction: 0.5, replyFraction: 0.4, repostFraction: 0.2)
        threaded.mediaSizeKnownFraction = 0.5
        threaded.itemHeight = .uniform(80...160)
        return [plain, threaded]
    }()

    @Test(
        "a page's read gives, newest first, the posts read one by one, changed ones included",
        arguments: settings.indices)
    func pageReadsMatchSingleReads(_ index: Int) {
        var writer = SyntheticFeed(settings: Self.settings[index], streams: RandomStreams(seed: 5))
        var timeline = PostTimeline()
        _ = timeline.append(3 * PostTimeline.chunkSize + 100, with: &writer, returning: false)
        var random = Xoshiro256StarStar(seed: 8)
        for _ in 0..<40 {
            // A post changed now and then, as a like changes it.
            let touched = Int(random.next(below: UInt64(timeline.count)))
            var post = timeline.post(at: touched)
            post.likeCount += 1
            timeline.change(at: touched, to: post)
            // Ranges inside a chunk, across one or two boundaries, whole and empty.
            let low = Int(random.next(below: UInt64(timeline.count)))
            let high = min(timeline.count, low + Int(random.next(below: UInt64(2 * PostTimeline.chunkSize + 2))))
            let skipped = random.next(below: 3) == 0 ? 7 : Int.max
            var page: [Post] = []
            timeline.appendPosts(newestFirst: low..<high, to: &page) { $0 % skipped != 3 }
            var expected: [Post] = []
            for position in (low..<high).reversed() where position % skipped != 3 {
                expected.append(timeline.post(at: position))
            }
            #expect(page == expected, "positions \(low)..<\(high)")
        }
        var whole: [Post] = []
        timeline.appendPosts(newestFirst: 0..<timeline.count, to: &whole) { _ in true }
        #expect(whole.count == timeline.count)
        #expect(whole.first == timeline.post(at: timeline.count - 1) && whole.last == timeline.post(at: 0))
    }

    @Test(
        "every position reads the post written there, across chunks, with draws between writes",
        arguments: settings.indices)
    func readsWhatWasWritten(_ index: Int) {
        let settings = Self.settings[index]
        var reference = SyntheticFeed(settings: settings, streams: RandomStreams(seed: 11))
        var writer = SyntheticFeed(settings: settings, streams: RandomStreams(seed: 11))
        var timeline = PostTimeline()
        var written: [Post] = []
        // Writes that end inside a chunk, span several and are a chunk exactly,
        // with a touch (a draw from the same generator) between each.
        for count in [1, PostTimeline.chunkSize - 1, 2 * PostTimeline.chunkSize + 3, PostTimeline.chunkSize, 0, 17] {
            let returned = timeline.append(count, with: &writer, returning: true)
            let expected = reference.nextPosts(count)
            #expect(returned == expected, "write of \(count) posts")
            written += expected
            if let last = expected.last {
                #expect(
                    writer.touched(last) == reference.touched(last), "the writer's generator moved as the reference's")
            }
        }
        #expect(timeline.count == written.count)
        for position in written.indices {
            #expect(timeline.post(at: position) == written[position], "position \(position) in order")
        }
        // Out of order, jumping between chunks as thread context does.
        var random = Xoshiro256StarStar(seed: 3)
        for _ in 0..<2_000 {
            let position = Int(random.next(below: UInt64(written.count)))
            #expect(timeline.post(at: position) == written[position], "position \(position) at random")
        }
    }

    @Test("a changed post reads as changed, and its neighbours as written")
    func changedPosts() {
        var writer = SyntheticFeed(settings: Self.settings[0], streams: RandomStreams(seed: 5))
        var timeline = PostTimeline()
        let written = timeline.append(PostTimeline.chunkSize + 10, with: &writer, returning: true)
        var liked = written[PostTimeline.chunkSize]
        liked.isLikedByViewer = true
        liked.likeCount += 1
        timeline.change(at: PostTimeline.chunkSize, to: liked)
        #expect(timeline.post(at: PostTimeline.chunkSize) == liked)
        #expect(timeline.post(at: PostTimeline.chunkSize - 1) == written[PostTimeline.chunkSize - 1])
        #expect(timeline.post(at: PostTimeline.chunkSize + 1) == written[PostTimeline.chunkSize + 1])
    }
}
