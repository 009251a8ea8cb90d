import Testing

@testable import FeedEngine

@Suite("Prefetch policies")
struct PrefetchPolicyTests {
    static func moment(
        _ visible: Range<Int>, of count: Int = 100, velocity: Double = 0, rowHeight: Double = 200, window: Int = 5,
        threshold: Int = 5
    ) -> PrefetchMoment {
        PrefetchMoment(
            visible: visible, itemCount: count, velocity: velocity, rowHeight: rowHeight, window: window,
            loadMoreThreshold: threshold)
    }

    @Test(
        "rows past the screen, in either direction, clamped to the feed",
        arguments: [
            (0..<3, 20, true, 3..<8),
            (14..<18, 20, true, 18..<20),
            (18..<20, 20, true, 20..<20),
            (10..<12, 20, false, 5..<10),
            (2..<5, 20, false, 0..<2),
        ] as [(Range<Int>, Int, Bool, Range<Int>)]
    )
    func rows(visible: Range<Int>, itemCount: Int, towardsEnd: Bool, expected: Range<Int>) {
        #expect(PrefetchPolicyTests.moment(visible, of: itemCount).rows(5, towardsEnd: towardsEnd) == expected)
    }

    @Test("window: the configured rows ahead, whatever the reader's speed or direction")
    func window() {
        let policy = WindowImagePrefetch()
        #expect(policy.imagePrefetchRows(at: Self.moment(10..<14)) == 14..<19)
        #expect(policy.imagePrefetchRows(at: Self.moment(10..<14, velocity: -4_000)) == 14..<19)
        #expect(policy.imagePrefetchRows(at: Self.moment(10..<14, velocity: 8_000, window: 2)) == 14..<16)
    }

    @Test("threshold: the next page once the last row on screen is the threshold from the end")
    func threshold() {
        let policy = ThresholdPagePrefetch()
        #expect(!policy.shouldLoadNextPage(at: Self.moment(80..<94)))
        #expect(policy.shouldLoadNextPage(at: Self.moment(80..<95)))
        #expect(!policy.shouldLoadNextPage(at: Self.moment(80..<94, velocity: 20_000)))
    }

    @Test("velocity_prefetch: images as far ahead as half a second of scrolling, in the direction of travel, capped")
    func velocityImages() {
        let policy = VelocityPrefetch()
        // At rest: the plain window ahead.
        #expect(policy.imagePrefetchRows(at: Self.moment(10..<14)) == 14..<19)
        // 2,000 pt/s over 200 pt rows: 5 rows in 0.5 s, on top of the window.
        #expect(policy.imagePrefetchRows(at: Self.moment(10..<14, velocity: 2_000)) == 14..<24)
        // Back towards the top: the rows above the screen.
        #expect(policy.imagePrefetchRows(at: Self.moment(40..<44, velocity: -2_000)) == 30..<40)
        // A fling: at most 40 rows.
        #expect(policy.imagePrefetchRows(at: Self.moment(10..<14, of: 1_000, velocity: 40_000)) == 14..<54)
    }

    @Test("velocity_prefetch: a fast reader asks for the next page as many rows earlier as they cross in 1.5 s")
    func velocityPages() {
        let policy = VelocityPrefetch()
        #expect(!policy.shouldLoadNextPage(at: Self.moment(70..<80)))
        // 1,000 pt/s over 200 pt rows: 8 rows (7.5 rounded up) in 1.5 s.
        #expect(!policy.shouldLoadNextPage(at: Self.moment(70..<86, velocity: 1_000)))
        #expect(policy.shouldLoadNextPage(at: Self.moment(70..<87, velocity: 1_000)))
        // Scrolling back up asks no earlier than at rest.
        #expect(!policy.shouldLoadNextPage(at: Self.moment(70..<87, velocity: -1_000)))
    }

    @Test("the built-ins are known by name, and a registered policy joins them")
    func registry() {
        #expect(ImagePrefetch.named("window") == .window)
        #expect(ImagePrefetch.named("velocity_prefetch") == .velocity)
        #expect(PagePrefetch.named("threshold") == .threshold)
        #expect(PagePrefetch.named("velocity_prefetch") == .velocity)
        struct Nothing: ImagePrefetchPolicy {
            static let name = "prefetch_nothing"
            func imagePrefetchRows(at moment: PrefetchMoment) -> Range<Int> { 0..<0 }
        }
        ImagePrefetch.register(ImagePrefetch(Nothing.self))
        #expect(ImagePrefetch.named("prefetch_nothing")?.make().imagePrefetchRows(at: Self.moment(0..<3)) == 0..<0)
        #expect(ImagePrefetch.known.map(\.name).prefix(2) == ["window", "velocity_prefetch"])
        // A built-in name cannot be taken.
        struct Impostor: ImagePrefetchPolicy {
            static let name = "window"
            func imagePrefetchRows(at moment: PrefetchMoment) -> Range<Int> { 0..<0 }
        }
        ImagePrefetch.register(ImagePrefetch(Impostor.self))
        #expect(ImagePrefetch.named("window")?.make().imagePrefetchRows(at: Self.moment(0..<3)) == 3..<8)
    }
}

/// The policies as the engine uses them: the speed it measures between
/// layout passes, and the page requests that follow.
@Suite("Prefetch policies in the engine")
struct EnginePrefetchTests {
    /// A 200-post feed in pages of 40, scrolled down by `distance` points at
    /// `speed` pt/s in 16 ms frames; the page requests made and the speed the
    /// engine measured.
    static func scroll(
        _ policy: PagePrefetch, at speed: Double, distance: Double = 800
    ) -> (pages: Int, velocity: Double) {
        let scheduler = ManualScheduler()
        let viewport = FakeViewport()
        let transport = FakeTransport(timeline: posts(1...200), scheduler: scheduler)
        let images = UnusedImageTransport(scheduler: scheduler)
        let configuration = FeedEngineConfiguration(
            list: FeedListConfiguration(estimatedItemHeight: 100, width: 390, coordinateSpace: .ordinary),
            pageSize: 40, loadMoreThreshold: 3, pagePrefetch: policy)
        let engine = FeedEngine(
            configuration: configuration, viewport: viewport, transport: transport, imageTransport: images,
            scheduler: scheduler)
        engine.start()
        scheduler.advance(by: 20_000_000)
        viewport.contentOffset = engine.offsetRange.lowerBound
        engine.layoutVisibleCells()
        let step = speed * 0.016
        var moved = 0.0
        while moved < distance {
            viewport.contentOffset += step
            moved += step
            scheduler.advance(by: 16_000_000)
            engine.layoutVisibleCells()
        }
        return (engine.counters.pagesRequested, engine.scrollVelocity)
    }

    /// Apple's own pattern for pagination in a SwiftUI feed: a view after
    /// the last row asks for the next page from its `onAppear`, which runs
    /// when the view is placed, not when a lazy stack prefetches it
    /// ("Dive into lazy stacks and scrolling with SwiftUI", WWDC26 session
    /// 321, 15:07–15:41).
    @Test("on_appear asks for the next page only once the last post is on screen, where threshold asked earlier")
    func onAppearWaitsForTheEnd() {
        // 3,000 pt into a first page of 40 posts: within 3 posts of its end
        // (threshold asks), short of its last post (on_appear does not).
        #expect(Self.scroll(.threshold, at: 1_000, distance: 3_000).pages == 2)
        #expect(Self.scroll(.onAppear, at: 1_000, distance: 3_000).pages == 1)
        // 3,600 pt: the last post is on screen.
        #expect(Self.scroll(.onAppear, at: 1_000, distance: 3_600).pages == 2)
        // However fast the reader goes, nothing is asked for ahead of the end.
        #expect(Self.scroll(.onAppear, at: 8_000, distance: 3_000).pages == 1)
    }

    @Test("the engine measures the reader's speed between layout passes")
    func measuredSpeed() {
        #expect(abs(Self.scroll(.threshold, at: 5_000).velocity - 5_000) < 1e-6)
        #expect(abs(Self.scroll(.threshold, at: 1_250).velocity - 1_250) < 1e-6)
    }

    @Test("threshold waits for the end of the page; velocity_prefetch asks as far ahead as the reader is moving")
    func pagesAskedFor() {
        // 800 pt into a first page of 40 posts: far from its end.
        #expect(Self.scroll(.threshold, at: 5_000).pages == 1)
        #expect(Self.scroll(.velocity, at: 5_000).pages > 1)
        // Slowly, the reader crosses few posts in 1.5 s: no earlier than the threshold.
        #expect(Self.scroll(.velocity, at: 100, distance: 200).pages == 1)
    }
}
