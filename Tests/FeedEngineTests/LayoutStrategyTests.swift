import Testing

@testable import FeedEngine

/// A background queue of one core: each job takes `jobTime` after the one
/// before it ends, and hands its result back on the manual scheduler.
final class SerialTestQueue: BackgroundQueue {
    let scheduler: ManualScheduler
    let jobTime: Int64
    private var freeAt: Int64 = 0
    private(set) var jobs: [BackgroundJob] = []

    init(scheduler: ManualScheduler, jobTime: Int64 = 1_000_000) {
        self.scheduler = scheduler
        self.jobTime = jobTime
    }

    func submit(_ job: BackgroundJob, completion: @escaping () -> Void) {
        jobs.append(job)
        let start = max(scheduler.now, freeAt)
        freeAt = start + jobTime
        scheduler.schedule(after: freeAt - scheduler.now, completion)
    }
}

/// An engine on a manual scheduler with a serial background queue, laying
/// out posts of known heights (300 pt text posts estimated at 100 pt).
struct LayoutHarness {
    let scheduler = ManualScheduler()
    let viewport = FakeViewport()
    let transport: FakeTransport
    let queue: SerialTestQueue
    let engine: FeedEngine

    init(
        layout: LayoutStrategy, strategy: PositionStrategy = .anchor, count: Int = 60,
        dropsStale: Bool = true
    ) {
        transport = FakeTransport(timeline: posts(1...PostID(count), textLength: 600), scheduler: scheduler)
        queue = SerialTestQueue(scheduler: scheduler)
        var list = FeedListConfiguration(estimatedItemHeight: 100, width: 390)
        list.dropsStalePrecomputedHeights = dropsStale
        let configuration = FeedEngineConfiguration(
            list: list, positionStrategy: strategy, layoutStrategy: layout)
        engine = FeedEngine(
            configuration: configuration, viewport: viewport, transport: transport,
            imageTransport: UnusedImageTransport(scheduler: scheduler), scheduler: scheduler, backgroundQueue: queue)
    }

    /// Loads the feed and lays out its top; nothing more runs.
    func start() {
        engine.start()
        scheduler.advance(by: 10_000_000)
        viewport.contentOffset = engine.offsetRange.lowerBound
        engine.layoutVisibleCells()
    }

    /// Lets the background queue finish and lays out once.
    func finishBackgroundWork() {
        scheduler.advance(by: 1_000_000_000)
        engine.layoutVisibleCells()
    }

    /// Rows whose height is measured, not estimated.
    var measuredRows: Int { (0..<engine.list.items.count).filter { engine.list.layout.isMeasured($0) }.count }
}

/// Heights ahead only for the rows below the screen (docs/extending.md).
struct BelowOnlyLayout: LayoutPolicy {
    static let name = "below_only"
    var precomputesHeights: Bool { true }
    var displaysAsynchronously: Bool { false }
    func precomputeOrder(of rows: [Int], at moment: PrefetchMoment) -> [Int] {
        rows.filter { $0 >= moment.visible.upperBound }
    }
}

@Suite("Layout strategies")
struct LayoutStrategyTests {
    @Test("a registered layout strategy is known by name, and the engine computes the heights it orders, no others")
    func registered() throws {
        LayoutStrategy.register(LayoutStrategy(BelowOnlyLayout.self))
        let strategy = try #require(LayoutStrategy.named("below_only"))
        #expect(LayoutStrategy.known.map(\.name).suffix(1) == ["below_only"])
        let harness = LayoutHarness(layout: strategy)
        harness.start()
        let below = harness.engine.list.displayedRange.upperBound
        #expect(!harness.queue.jobs.isEmpty)
        #expect(
            harness.queue.jobs.allSatisfy { job in
                (harness.engine.list.index(of: job.cell.postID) ?? -1) >= below
            })
    }

    @Test("the built-in strategies by name, self_sizing first and the default")
    func builtIns() {
        #expect(LayoutStrategy.builtIn.map(\.name) == ["self_sizing", "precomputed", "async_display"])
        #expect(
            FeedEngineConfiguration(list: FeedListConfiguration(estimatedItemHeight: 1, width: 1)).layoutStrategy
                == .selfSizing)
        #expect(LayoutStrategy.named("precomputed") == .precomputed)
    }

    @Test("self_sizing sends nothing off the main thread: only the rows shown are measured")
    func selfSizingSendsNothing() {
        let harness = LayoutHarness(layout: .selfSizing)
        harness.start()
        let measured = harness.measuredRows
        harness.finishBackgroundWork()
        #expect(harness.queue.jobs.isEmpty)
        #expect(harness.measuredRows == measured)
        #expect(measured < 60)
    }

    @Test(
        """
        precomputed: the rows not shown get their heights on the background queue when the posts arrive, and \
        the main thread measures only the rows it had to show first
        """
    )
    func precomputedHeights() {
        let harness = LayoutHarness(layout: .precomputed)
        harness.start()
        // The first pass measures the rows its estimates put on screen.
        let shown = harness.measuredRows
        let measuredOnMain = harness.engine.drainWork().cellsMeasured
        #expect(measuredOnMain == shown)
        #expect(shown < 10)
        #expect(harness.queue.jobs.count == 60 - shown)
        #expect(harness.queue.jobs.allSatisfy { $0.kind == .height })
        harness.finishBackgroundWork()
        #expect(harness.measuredRows == 60)
        let work = harness.engine.drainWork()
        #expect(work.cellsMeasured == 0, "no row measured twice")
        #expect(work.backgroundResults == 60 - shown, "each result handed back is charged")
        #expect(harness.engine.offMainCounters.heightsApplied == 60 - shown)
        #expect(harness.engine.offMainCounters.heightMismatches == 0)
        // The heights are the ones the main thread would have measured.
        for index in 0..<60 {
            #expect(
                harness.engine.list.layout.height(of: index)
                    == harness.engine.list.measuredHeight(of: harness.engine.list.items[index]))
        }
    }

    @Test(
        """
        a width change while heights are on their way drops them: no row gets a height computed for the old \
        width; applied anyway, the precomputed_height check counts every one
        """
    )
    func staleHeightsDropped() {
        for dropsStale in [true, false] {
            let harness = LayoutHarness(layout: .precomputed, dropsStale: dropsStale)
            harness.start()
            harness.scheduler.advance(by: 3_500_000)
            harness.engine.viewportDidResize(width: 700)
            harness.finishBackgroundWork()
            let counters = harness.engine.offMainCounters
            if dropsStale {
                #expect(counters.heightMismatches == 0)
                #expect(counters.heightsDropped > 0)
            } else {
                #expect(counters.heightMismatches > 0)
                #expect(counters.firstMismatch?.contains("precomputed height") == true)
            }
        }
    }

    /// The reader jumps 5,000 pt down before any height came back, then the
    /// heights of the rows above land: how far the reader's post moved.
    func moveWhenHeightsLandAbove(_ strategy: PositionStrategy) throws -> Double {
        let harness = LayoutHarness(layout: .precomputed, strategy: strategy, count: 200)
        harness.start()
        harness.viewport.contentOffset += 5_000
        harness.engine.layoutVisibleCells()
        let anchor = try #require(harness.engine.captureAnchor())
        let before = harness.engine.list.minY(of: anchor.index) - harness.viewport.contentOffset
        harness.finishBackgroundWork()
        let index = try #require(harness.engine.list.index(of: anchor.itemID))
        return harness.engine.list.minY(of: index) - harness.viewport.contentOffset - before
    }

    @Test(
        """
        a precomputed height that replaces an estimate above the reader is a height change above them: anchor \
        holds the reader's post, none lets it move by the heights' change
        """
    )
    func positionThroughPrecomputedHeights() throws {
        #expect(try moveWhenHeightsLandAbove(.anchor) == 0)
        #expect(try moveWhenHeightsLandAbove(.none) > 0)
    }

    @Test(
        """
        async_display: cells show a placeholder until their contents come back from the background queue, and \
        configuring them on the main thread charges no text or media
        """
    )
    func asyncDisplay() {
        let harness = LayoutHarness(layout: .asyncDisplay)
        harness.start()
        let visible = harness.engine.list.displayedRange
        #expect(harness.engine.placeholderCount(in: visible) == visible.count)
        let work = harness.engine.drainWork()
        #expect(work.cellsConfigured == visible.count)
        #expect(work.configuredTextCharacters == 0)
        #expect(harness.queue.jobs.contains { $0.kind == .display && $0.cell.textCharacters == 600 })
        harness.finishBackgroundWork()
        #expect(harness.engine.placeholderCount(in: visible) == 0)
        #expect(harness.engine.offMainCounters.contentsApplied >= visible.count)
    }

    @Test(
        """
        async_display keeps contents only for the display range (the screen and a screenful each side): rows \
        the reader left far behind show placeholders again when they come back
        """
    )
    func contentsLetGoOutsideTheDisplayRange() {
        let harness = LayoutHarness(layout: .asyncDisplay, count: 200)
        harness.start()
        harness.finishBackgroundWork()
        let top = harness.viewport.contentOffset
        #expect(harness.engine.placeholderCount(in: harness.engine.list.displayedRange) == 0)
        harness.viewport.contentOffset = top + 20_000
        harness.engine.layoutVisibleCells()
        harness.finishBackgroundWork()
        harness.viewport.contentOffset = top
        harness.engine.layoutVisibleCells()
        let shown = harness.engine.list.displayedRange
        #expect(harness.engine.placeholderCount(in: shown) == shown.count)
        harness.finishBackgroundWork()
        #expect(harness.engine.placeholderCount(in: harness.engine.list.displayedRange) == 0)
    }

    @Test("without a background queue every strategy lays out on the main thread, as self_sizing does")
    func noQueueNoWorkOffMain() {
        let scheduler = ManualScheduler()
        let viewport = FakeViewport()
        let engine = FeedEngine(
            configuration: FeedEngineConfiguration(
                list: FeedListConfiguration(estimatedItemHeight: 100, width: 390), layoutStrategy: .asyncDisplay),
            viewport: viewport, transport: FakeTransport(timeline: posts(1...30), scheduler: scheduler),
            imageTransport: UnusedImageTransport(scheduler: scheduler), scheduler: scheduler)
        engine.start()
        scheduler.advance(by: 10_000_000)
        engine.layoutVisibleCells()
        #expect(engine.placeholderCount(in: engine.list.displayedRange) == 0)
        #expect(engine.drainWork().configuredTextCharacters > 0)
    }
}
