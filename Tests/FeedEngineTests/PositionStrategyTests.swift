import Testing

@testable import FeedEngine

/// A scroll view stand-in: an offset the engine reads and corrects.
final class FakeViewport: FeedViewport {
    var contentOffset: Double = 0
    var viewportHeight: Double = 800
    var insetTop: Double = 0
    var insetBottom: Double = 0
    var commits: [ChangeCause] = []

    func adjustContentOffset(by delta: Double) { contentOffset += delta }
    func feedWillCommit(_ cause: ChangeCause) {}
    func feedDidCommit(_ cause: ChangeCause) { commits.append(cause) }
}

/// A server that answers from a list of posts, after 10 ms on the manual scheduler.
final class FakeTransport: FeedTransport {
    var timeline: [Post]
    let scheduler: ManualScheduler
    var failLikes = false
    var likeRequests = 0

    init(timeline: [Post], scheduler: ManualScheduler) {
        self.timeline = timeline
        self.scheduler = scheduler
    }

    func fetchPage(
        cursor: FeedCursor?, limit: Int, completion: @escaping (Result<FeedPage, FeedTransportError>) -> Void
    ) {
        var start = 0
        if let cursor, let index = timeline.firstIndex(where: { $0.id == cursor.afterPostID }) { start = index + 1 }
        let end = min(timeline.count, limit == Int.max ? timeline.count : start + limit)
        let page = FeedPage(
            posts: Array(timeline[start..<end]),
            nextCursor: end < timeline.count ? FeedCursor(afterPostID: timeline[end - 1].id) : nil)
        scheduler.schedule(after: 10_000_000) { completion(.success(page)) }
    }

    func setLike(postID: PostID, liked: Bool, completion: @escaping (Result<Void, FeedTransportError>) -> Void) {
        likeRequests += 1
        let fail = failLikes
        scheduler.schedule(after: 10_000_000) { completion(fail ? .failure(.serverError) : .success(())) }
    }
}

/// An image source for feeds without media; a load would fail after 1 ms.
final class UnusedImageTransport: ImageTransport {
    let scheduler: ManualScheduler
    init(scheduler: ManualScheduler) { self.scheduler = scheduler }

    func load(_ request: ImageRequest, completion: @escaping (Result<Int, ImageLoadError>) -> Void) -> ImageLoadToken {
        scheduler.schedule(after: 1_000_000) { completion(.failure(.serverError)) }
        return ImageLoadToken(id: 0)
    }

    func cancel(_ token: ImageLoadToken) {}
}

/// Posts of fixed, known heights: no media, text sized so each cell measures
/// `CellLayoutMetrics` height for its text length.
func posts(_ ids: ClosedRange<PostID>, textLength: Int = 40) -> [Post] {
    ids.reversed().map { Post(id: $0, authorID: 1, textLength: textLength) }
}

struct EngineHarness {
    let scheduler = ManualScheduler()
    let viewport = FakeViewport()
    let transport: FakeTransport
    let images: UnusedImageTransport
    let engine: FeedEngine

    init(strategy: PositionStrategy, timeline: [Post], estimated: Double = 100, debounce: Int64 = 50_000_000) {
        transport = FakeTransport(timeline: timeline, scheduler: scheduler)
        let configuration = FeedEngineConfiguration(
            list: FeedListConfiguration(
                estimatedItemHeight: estimated, width: 390,
                coordinateSpace: strategy == .virtualSpace ? .tiledView : .ordinary),
            positionStrategy: strategy, debounceInterval: debounce)
        images = UnusedImageTransport(scheduler: scheduler)
        engine = FeedEngine(
            configuration: configuration, viewport: viewport, transport: transport, imageTransport: images,
            scheduler: scheduler)
        viewport.contentOffset = engine.list.contentMinY
    }

    /// Loads the first page and lays out the top of the feed.
    func start() {
        engine.start()
        scheduler.advance(by: 20_000_000)
        viewport.contentOffset = engine.offsetRange.lowerBound
        engine.layoutVisibleCells()
    }

    /// Scrolls to `offset` from the top, measuring what comes into view on the way.
    func scroll(toDistanceFromTop distance: Double) {
        let top = engine.offsetRange.lowerBound
        var y = top
        while y < top + distance {
            y = min(top + distance, y + 200)
            viewport.contentOffset = y
            engine.layoutVisibleCells()
        }
    }

    /// The screen y of post `id`.
    func screenY(_ id: PostID) -> Double? {
        engine.list.index(of: id).map { engine.list.minY(of: $0) - viewport.contentOffset }
    }
}

@Suite("Position strategies")
struct PositionStrategyTests {
    /// Reading mid-feed, five new posts arrive above: the anchor post's drift per strategy.
    func driftWhenPostsArriveAbove(
        _ strategy: PositionStrategy
    ) throws -> (drift: Double, inserted: Double, harness: EngineHarness, anchor: PostID) {
        let harness = EngineHarness(strategy: strategy, timeline: posts(1...100))
        harness.start()
        harness.scroll(toDistanceFromTop: 3_000)
        let anchor = try #require(harness.engine.captureAnchor())
        let before = try #require(harness.screenY(anchor.itemID))
        let newPosts = posts(101...105, textLength: 200)
        harness.engine.receiveNewPosts(newPosts)
        harness.scheduler.advance(by: 60_000_000)
        let after = try #require(harness.screenY(anchor.itemID))
        let list = harness.engine.list
        var inserted = 0.0
        for id in 101...105 { inserted += list.layout.height(of: try #require(list.index(of: PostID(id)))) }
        return (after - before, inserted, harness, anchor.itemID)
    }

    @Test(
        "virtual_space and anchor keep the anchor post still when posts arrive above",
        arguments: [PositionStrategy.virtualSpace, .anchor])
    func zeroDrift(strategy: PositionStrategy) throws {
        let outcome = try driftWhenPostsArriveAbove(strategy)
        #expect(outcome.drift == 0)
        #expect(outcome.inserted == 500, "five estimated posts of 100 pt")
    }

    @Test("virtual_space never changes contentOffset on an update")
    func virtualSpaceKeepsOffset() throws {
        let harness = EngineHarness(strategy: .virtualSpace, timeline: posts(1...100))
        harness.start()
        harness.scroll(toDistanceFromTop: 3_000)
        let offset = harness.viewport.contentOffset
        harness.engine.receiveNewPosts(posts(101...110))
        harness.scheduler.advance(by: 60_000_000)
        #expect(harness.viewport.contentOffset == offset)
        #expect(harness.engine.list.contentMinY < 50_000_000, "prepends grow upwards")
        #expect(
            harness.engine.offsetRange.lowerBound == harness.engine.list.contentMinY,
            "insets clip the range to the content")
    }

    @Test("none drifts by exactly the inserted height")
    func noneDrifts() throws {
        let outcome = try driftWhenPostsArriveAbove(.none)
        #expect(outcome.drift == outcome.inserted)
    }

    @Test("offset_adjust moves contentOffset by exactly the inserted height")
    func offsetAdjust() throws {
        let harness = EngineHarness(strategy: .offsetAdjust, timeline: posts(1...100))
        harness.start()
        harness.scroll(toDistanceFromTop: 3_000)
        let offset = harness.viewport.contentOffset
        harness.engine.receiveNewPosts(posts(101...105))
        harness.scheduler.advance(by: 60_000_000)
        #expect(harness.viewport.contentOffset - offset == 500)
        let outcome = try driftWhenPostsArriveAbove(.offsetAdjust)
        #expect(outcome.drift == 0)
    }

    @Test("index_restore drifts by the height of the items now above the old index")
    func indexRestore() throws {
        let harness = EngineHarness(strategy: .indexRestore, timeline: posts(1...100))
        harness.start()
        harness.scroll(toDistanceFromTop: 3_000)
        let anchor = try #require(harness.engine.captureAnchor())
        let before = try #require(harness.screenY(anchor.itemID))
        harness.engine.receiveNewPosts(posts(101...105))
        harness.scheduler.advance(by: 60_000_000)
        let list = harness.engine.list
        let after = try #require(harness.screenY(anchor.itemID))
        // The old index now holds another post; the anchor sits below it by
        // the heights of the items between the old index and its new one.
        let newIndex = try #require(list.index(of: anchor.itemID))
        let expected = list.layout.minY(of: newIndex) - list.layout.minY(of: anchor.index)
        #expect(after - before == expected)
        #expect(expected > 0)
    }

    @Test("anchor falls back to the next surviving post when the anchor post is gone")
    func anchorFallback() throws {
        let harness = EngineHarness(strategy: .anchor, timeline: posts(1...100))
        harness.start()
        harness.scroll(toDistanceFromTop: 3_000)
        let anchor = try #require(harness.engine.captureAnchor())
        let next = harness.engine.list.items[anchor.index + 1].id
        let nextBefore = try #require(harness.screenY(next))
        // The server drops the anchor post and adds three posts on top.
        harness.transport.timeline = posts(101...103) + harness.transport.timeline.filter { $0.id != anchor.itemID }
        harness.engine.refresh()
        harness.scheduler.advance(by: 100_000_000)
        #expect(harness.engine.list.index(of: anchor.itemID) == nil)
        #expect(harness.screenY(next) == nextBefore)
        #expect(harness.engine.counters.anchorsLost == 1)
    }

    @Test("a pull captures the anchor past 20 pt; a stale pull anchor is replaced")
    func pullAnchorAndStaleness() throws {
        let harness = EngineHarness(strategy: .anchor, timeline: posts(1...50))
        harness.start()
        let top = harness.engine.offsetRange.lowerBound
        harness.viewport.contentOffset = top - 10
        harness.engine.scrollViewDidScroll(isDragging: true)
        #expect(harness.engine.pullAnchor == nil)
        harness.viewport.contentOffset = top - 90
        harness.engine.scrollViewDidScroll(isDragging: true)
        let captured = try #require(harness.engine.pullAnchor)
        #expect(captured.offsetY == top - 90)
        harness.engine.scrollViewDidEndDragging()
        #expect(harness.engine.isRefreshing)
        harness.viewport.contentOffset = top
        harness.transport.timeline = posts(51...53) + harness.transport.timeline
        harness.scheduler.advance(by: 31_000_000_000)
        #expect(harness.engine.counters.anchorsStale == 0, "the response came after 10 ms + 50 ms debounce")
        #expect(harness.engine.pullAnchor == nil)
    }

    @Test(
        "measuring a cell above the reader: none drifts, offset_adjust and anchor do not",
        arguments: [
            (PositionStrategy.none, true), (.offsetAdjust, false), (.anchor, false), (.virtualSpace, false),
        ])
    func heightChangeAbove(strategy: PositionStrategy, drifts: Bool) throws {
        // Estimated 100 pt, measured taller: scroll down past unmeasured
        // items by jumping, then scroll up one step so an item above is measured.
        let harness = EngineHarness(strategy: strategy, timeline: posts(1...100, textLength: 200), estimated: 100)
        harness.start()
        harness.viewport.contentOffset = harness.engine.offsetRange.lowerBound + 5_000
        harness.engine.layoutVisibleCells()
        let anchor = try #require(harness.engine.captureAnchor())
        let before = try #require(harness.screenY(anchor.itemID))
        harness.viewport.contentOffset -= 300
        harness.engine.layoutVisibleCells()
        let after = try #require(harness.screenY(anchor.itemID))
        let moved = after - before - 300
        #expect(harness.engine.list.measuredAboveAnchorInLastPass)
        #expect((moved != 0) == drifts, "moved \(moved)")
    }
}

@Suite("Geometry changes")
struct GeometryChangeTests {
    @Test(
        "a width or text-size change keeps the anchor post still under anchor and virtual_space",
        arguments: [
            PositionStrategy.anchor, .virtualSpace, .offsetAdjust,
        ])
    func geometryChangeKeepsAnchor(strategy: PositionStrategy) throws {
        for change in ["width", "text"] {
            let harness = EngineHarness(strategy: strategy, timeline: posts(1...100, textLength: 150))
            harness.start()
            harness.scroll(toDistanceFromTop: 3_000)
            let anchor = try #require(harness.engine.captureAnchor())
            let before = try #require(harness.screenY(anchor.itemID))
            if change == "width" {
                harness.engine.viewportDidResize(width: 600)
            } else {
                harness.engine.textSizeDidChange(scale: 1.35)
            }
            let after = try #require(harness.screenY(anchor.itemID))
            #expect(after == before, "\(strategy) \(change): \(before) → \(after)")
        }
    }

    @Test("none lets a text-size change move the anchor post")
    func noneMoves() throws {
        let harness = EngineHarness(strategy: .none, timeline: posts(1...100, textLength: 150))
        harness.start()
        harness.scroll(toDistanceFromTop: 3_000)
        let anchor = try #require(harness.engine.captureAnchor())
        let before = try #require(harness.screenY(anchor.itemID))
        harness.engine.textSizeDidChange(scale: 1.35)
        #expect(harness.screenY(anchor.itemID) != before)
    }
}

@Suite("multi_anchor")
struct MultiAnchorTests {
    /// Reading mid-feed, a refresh drops the reader's post and moves the
    /// post below it to the top: where the three posts after those are on
    /// screen before and after, under `strategy`.
    func readerLostAndNextMoved(_ strategy: PositionStrategy) throws -> (before: [Double], after: [Double]) {
        let timeline = posts(1...100)
        let harness = EngineHarness(strategy: strategy, timeline: timeline)
        harness.start()
        harness.scroll(toDistanceFromTop: 3_000)
        let anchor = try #require(harness.engine.captureAnchor())
        let list = harness.engine.list
        let next = list.items[anchor.index + 1].id
        let watched = (2...4).map { list.items[anchor.index + $0].id }
        let before = try watched.map { try #require(harness.screenY($0)) }
        var changed = timeline.filter { $0.id != anchor.itemID && $0.id != next }
        changed.insert(try #require(timeline.first { $0.id == next }), at: 0)
        harness.transport.timeline = changed
        harness.engine.refresh()
        harness.scheduler.advance(by: 100_000_000)
        let after = try watched.map { try #require(harness.screenY($0)) }
        return (before, after)
    }

    @Test("when the reader's post is gone, the posts that agree outvote the one that moved")
    func majorityWhenTheReadersPostIsGone() throws {
        let multi = try readerLostAndNextMoved(.multiAnchor)
        for (b, a) in zip(multi.before, multi.after) { #expect(abs(a - b) <= 1, "\(multi)") }
        // `anchor` falls back on the first post below, which moved to the top.
        let single = try readerLostAndNextMoved(.anchor)
        #expect(zip(single.before, single.after).contains { abs($1 - $0) > 100 }, "\(single)")
    }

    @Test("while the reader's post survives, multi_anchor puts it back exactly as anchor does")
    func sameAsAnchorWhileTheReadersPostSurvives() throws {
        let positionStrategyTests = PositionStrategyTests()
        let multi = try positionStrategyTests.driftWhenPostsArriveAbove(.multiAnchor)
        let single = try positionStrategyTests.driftWhenPostsArriveAbove(.anchor)
        #expect(abs(multi.drift) <= 1e-9)
        #expect(multi.drift == single.drift)
    }
}

@Suite("content_anchor")
struct ContentAnchorTests {
    /// Reading mid-feed, on posts whose media sizes are unknown (each third
    /// post is text only); the reader's post has media. `change` is applied
    /// to the engine; returns how far the reader's post moved on screen.
    func readerDrift(_ strategy: PositionStrategy, change: (EngineHarness, PostID) -> Void) throws -> Double {
        let timeline = (1...100 as ClosedRange<PostID>).reversed().map { id in
            id % 3 == 0
                ? Post(id: id, authorID: 1, textLength: 40)
                : Post(
                    id: id, authorID: 1, textLength: 40,
                    media: Media(
                        kind: .single, pixelWidth: 1_000, pixelHeight: 500, encodedBytes: 50_000,
                        sizeKnownAtLayout: false))
        }
        let harness = EngineHarness(strategy: strategy, timeline: timeline)
        harness.start()
        // Scroll until the reader's post is one with media: its height waits on the image.
        var distance = 3_000.0
        var reader = try #require(harness.engine.captureAnchor())
        while reader.itemID % 3 == 0 {
            distance += 40
            harness.scroll(toDistanceFromTop: distance)
            reader = try #require(harness.engine.captureAnchor())
        }
        harness.scroll(toDistanceFromTop: distance)
        reader = try #require(harness.engine.captureAnchor())
        #expect(reader.itemID % 3 != 0)
        let before = try #require(harness.screenY(reader.itemID))
        change(harness, reader.itemID)
        harness.scheduler.advance(by: 100_000_000)
        return try #require(harness.screenY(reader.itemID)) - before
    }

    @Test("posts arriving above: content_anchor holds the reader's post as anchor does")
    func newPostsAbove() throws {
        for strategy in [PositionStrategy.contentAnchor, .anchor] {
            let drift = try readerDrift(strategy) { harness, _ in
                harness.engine.receiveNewPosts(posts(101...105, textLength: 200))
            }
            #expect(abs(drift) <= 1e-9, "\(strategy.name)")
        }
    }

    @Test("an update that changes the reader's post moves it under content_anchor, not under anchor")
    func updateOfTheReadersPost() throws {
        func grow(_ harness: EngineHarness, _ reader: PostID) {
            guard let post = harness.transport.timeline.first(where: { $0.id == reader }) else { return }
            var longer = post
            longer.textLength = 400
            harness.engine.receiveContentUpdates([longer])
        }
        let anchor = try readerDrift(.anchor, change: grow)
        #expect(abs(anchor) <= 1e-9)
        // The post below the reader's is held; the reader's post grew by
        // its longer text, so its top moved up by that much.
        let content = try readerDrift(.contentAnchor, change: grow)
        #expect(content < -20, "\(content)")
        #expect(!ContentAnchorKeeper.heldCauses.contains(.contentUpdate))
    }

    /// A jump far down the feed lays out the rows it lands on; the reader
    /// then moves up 400 pt onto rows never measured, and new posts arrive
    /// before a frame lays them out: how far the reader's post moves.
    func driftOnEstimatedReader(_ strategy: PositionStrategy) throws -> Double {
        // 600-character posts measure far more than the 100 pt estimate.
        let harness = EngineHarness(strategy: strategy, timeline: posts(1...200, textLength: 600))
        harness.start()
        let top = harness.engine.offsetRange.lowerBound
        harness.viewport.contentOffset = top + 8_000
        harness.engine.layoutVisibleCells()
        harness.viewport.contentOffset -= 400
        let reader = try #require(harness.engine.captureAnchor())
        let list = harness.engine.list
        let index = try #require(list.index(of: reader.itemID))
        #expect(!list.layout.isMeasured(index), "the reader's post is still estimated")
        let before = try #require(harness.screenY(reader.itemID))
        harness.engine.receiveNewPosts(posts(201...203))
        harness.scheduler.advance(by: 100_000_000)
        return try #require(harness.screenY(reader.itemID)) - before
    }

    @Test(
        """
        new posts landing while the reader's post is estimated: content_anchor holds a measured post below, and \
        measuring the reader's moves it
        """
    )
    func estimatedReader() throws {
        #expect(abs(try driftOnEstimatedReader(.anchor)) <= 1e-9)
        let content = try driftOnEstimatedReader(.contentAnchor)
        #expect(abs(content) > 10, "\(content)")
        #expect(!ContentAnchorKeeper.heldCauses.contains(.newPosts))
    }

    @Test("a post's height is final once measured, if it is text only or its media size is known")
    func finalHeight() throws {
        let harness = EngineHarness(
            strategy: .contentAnchor,
            timeline: [
                Post(id: 3, authorID: 1, textLength: 40),
                Post(
                    id: 2, authorID: 1, textLength: 40,
                    media: Media(kind: .single, pixelWidth: 10, pixelHeight: 10, encodedBytes: 10)),
                Post(
                    id: 1, authorID: 1, textLength: 40,
                    media: Media(
                        kind: .single, pixelWidth: 10, pixelHeight: 10, encodedBytes: 10, sizeKnownAtLayout: false)),
            ])
        harness.start()
        let list = harness.engine.listView
        #expect((0..<3).map { ContentAnchorKeeper.hasFinalHeight($0, in: list) } == [true, true, false])
    }
}
