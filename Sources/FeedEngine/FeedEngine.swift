/// What to do with new posts that arrive while the reader is mid-feed.
package enum NewPostsPolicy: String, Hashable, Sendable, CaseIterable {
    /// Insert them above at once (the position strategy keeps the reader's place).
    case insert
    /// Hold them behind a "new posts" indicator until the reader taps it or
    /// scrolls to the top.
    case indicator
}

/// Everything that configures a `FeedEngine`: the engine variant under test.
package struct FeedEngineConfiguration: Hashable, Sendable {
    package var list: FeedListConfiguration
    package var positionStrategy: PositionStrategy
    /// Bursts of data changes closer than this are applied as one, in
    /// nanoseconds (Catbird uses 50 ms and 150 ms).
    package var debounceInterval: Int64
    package var viewModelCacheCount: Int
    /// Cost limit of the view model cache, in bytes.
    package var viewModelCacheCost: Int
    /// Posts per page; 0 asks for the whole feed at once.
    package var pageSize: Int
    /// Load the next page when the last visible item is this close to the end.
    package var loadMoreThreshold: Int
    /// How far past the top a pull must go to trigger a refresh, in points.
    package var refreshTriggerDistance: Double
    package var newPostsPolicy: NewPostsPolicy
    /// Beside the other one-byte fields, so that they share a word.
    package var diffAlgorithm: DiffAlgorithm
    package var tuner: FeedTuner.Options
    package var images: ImagePipeline.Configuration
    /// Which images load before their cells ask (`images.prefetchWindow` is
    /// the window it works with).
    package var imagePrefetch: ImagePrefetch
    /// When the next page is asked for (`loadMoreThreshold` is the threshold
    /// it works with).
    package var pagePrefetch: PagePrefetch
    /// The row views kept off screen, in a lazy stack; `nil` in a host that
    /// reuses its cells (a collection view, `List`).
    package var rowViews: RowViewSettings?
    /// Rows past the screen the host lays out in a frame's spare time while
    /// the reader scrolls towards them (`prefetchRowsInSpareTime`); 0 turns
    /// it off.
    package var spareTimePrefetchRows: Int
    /// Which row bodies run again when the feed changes, in a SwiftUI host
    /// (`nil` in a collection view, which configures the changed cells).
    package var rowObservation: RowObservation?
    /// Where cells are measured and drawn: on the main thread as they show
    /// (`self_sizing`), or ahead on a background queue.
    package var layoutStrategy: LayoutStrategy

    package init(
        list: FeedListConfiguration,
        positionStrategy: PositionStrategy = .none,
        diffAlgorithm: DiffAlgorithm = .heckel,
        debounceInterval: Int64 = FeedEngineConfiguration.defaultDebounceInterval,
        viewModelCacheCount: Int = FeedEngineConfiguration.defaultViewModelCacheCount,
        viewModelCacheCost: Int = FeedEngineConfiguration.defaultViewModelCacheCost,
        pageSize: Int = 0,
        loadMoreThreshold: Int = FeedEngineConfiguration.defaultLoadMoreThreshold,
        refreshTriggerDistance: Double = FeedEngineConfiguration.defaultRefreshTriggerDistance,
        newPostsPolicy: NewPostsPolicy = .insert,
        tuner: FeedTuner.Options = FeedTuner.Options(),
        images: ImagePipeline.Configuration = ImagePipeline.Configuration(decodeMode: .mainThread, diskReadLatency: 0),
        imagePrefetch: ImagePrefetch = .window,
        pagePrefetch: PagePrefetch = .threshold,
        rowViews: RowViewSettings? = nil,
        spareTimePrefetchRows: Int = 0,
        rowObservation: RowObservation? = nil,
        layoutStrategy: LayoutStrategy = .selfSizing
    ) {
        self.list = list
        self.positionStrategy = positionStrategy
        self.diffAlgorithm = diffAlgorithm
        self.debounceInterval = debounceInterval
        self.viewModelCacheCount = viewModelCacheCount
        self.viewModelCacheCost = viewModelCacheCost
        self.pageSize = pageSize
        self.loadMoreThreshold = loadMoreThreshold
        self.refreshTriggerDistance = refreshTriggerDistance
        self.newPostsPolicy = newPostsPolicy
        self.tuner = tuner
        self.images = images
        self.imagePrefetch = imagePrefetch
        self.pagePrefetch = pagePrefetch
        self.rowViews = rowViews
        self.spareTimePrefetchRows = spareTimePrefetchRows
        self.rowObservation = rowObservation
        self.layoutStrategy = layoutStrategy
    }
}

/// The engine's defaults, defined once: a configuration made without them
/// and a scenario's `engine` settings both start from these.
extension FeedEngineConfiguration {
    /// Bursts closer than 50 ms are applied as one (Catbird's shorter interval).
    package static let defaultDebounceInterval: Int64 = 50_000_000
    package static let defaultViewModelCacheCount = 200
    /// 1 MiB of view models.
    package static let defaultViewModelCacheCost = 1 << 20
    /// The next page when the last row on screen is 5 from the end.
    package static let defaultLoadMoreThreshold = 5
    /// UIRefreshControl triggers about 80 pt past the top.
    package static let defaultRefreshTriggerDistance = 80.0
    /// The height a cell is assumed to have before it is measured, in points.
    package static let defaultEstimatedItemHeight = 200.0
}

/// The feed engine an app would ship: it holds the feed's posts, turns them
/// into display rows (thread consolidation), applies changes as diffed batch
/// updates through a debouncer, keeps the reader's place with the configured
/// strategy, pages, refreshes, likes optimistically, and caches view models.
///
/// It is single-threaded and synchronous. Time reaches it only through the
/// `EngineScheduler`, data only through the `FeedTransport`, and the screen
/// only through the `FeedViewport`. The class is a façade over focused
/// parts, each in its own file: the feed store and pagination
/// (`FeedStore`, `FeedEngine+Pages`), incoming changes and their batch
/// updates (`FeedEngine+Changes`), layout and its compensation
/// (`FeedEngine+Layout`, with a `PositionKeeper`), scrolling and pull to
/// refresh (`FeedEngine+Scrolling`), optimistic likes and the offline queue
/// (`FeedEngine+Likes`, `OfflineActionQueue`), lifecycle and restoration
/// (`FeedEngine+Restoration`), and cells with their images (`FeedEngine+Cells`).
///
/// The engine is single-threaded, so the stored properties of its classes
/// (this one, `FeedList`, `ImagePipeline`, `Debouncer`) are
/// `@exclusivity(unchecked)`: Swift's dynamic exclusivity checks on every
/// access to a class's stored property were a tenth of a session's CPU time
/// (`perf` on the 60 s, 120 Hz session). The attribute, not a compiler flag,
/// so that a package depending on FeedSim by version builds it.
package final class FeedEngine {
    /// A data change waiting in the debouncer.
    enum PendingChange {
        case page(FeedPage, replacing: Bool)
        case refresh(FeedPage)
        case newPosts([Post])
        /// Held new posts the reader asked to see.
        case shownNewPosts([Post])
        case contentUpdate([Post])
        case removal([PostID])
    }

    package let configuration: FeedEngineConfiguration
    /// The list the engine lays out; others see it through `listView`.
    let list: FeedList
    // The engine holds its transport and scheduler: they do not hold it
    // (completions handed to them hold it only until they run or are
    // dropped), so there is no cycle. The viewport is the engine's owner
    // (a scroll view's controller; the simulation), which must outlive it:
    // it is read every frame, and an `unowned(unsafe)` reference costs no
    // reference counting where a safe `unowned` one took an atomic check
    // and increment on every read. A weak reference would be worse still:
    // a side table, and the runtime's slow path on every retain.
    unowned(unsafe) let viewport: any FeedViewport
    let transport: any FeedTransport
    let scheduler: any EngineScheduler

    /// The posts, their threading context and the pagination state.
    @exclusivity(unchecked) var store = FeedStore()
    @exclusivity(unchecked) package internal(set) var isRefreshing = false
    /// New posts held behind the indicator.
    @exclusivity(unchecked) package internal(set) var heldNewPosts: [Post] = []
    /// The anchor captured during a pull, used when the refresh lands.
    @exclusivity(unchecked) package internal(set) var pullAnchor: ScrollAnchor?
    @exclusivity(unchecked) var wasPulling = false
    /// Whether the pull in progress has started its refresh: one pull, one refresh.
    @exclusivity(unchecked) var pullTriggeredRefresh = false
    @exclusivity(unchecked) var viewModels: LRUCache<PostKey, PostViewModel>
    /// Folds bursts of data changes into one batch update.
    lazy var debouncer = Debouncer<PendingChange>(interval: configuration.debounceInterval, scheduler: scheduler) {
        [unowned self] changes in
        self.applyPending(changes)
    }
    let tuner: FeedTuner
    package let images: ImagePipeline
    /// One completion for every image request, made once so that asking for
    /// an image allocates no closure context.
    lazy var imageCompletion: (ImageLoadOutcome) -> Void = { [unowned self] outcome in self.imageArrived(outcome) }
    /// Reused for prefetch targets so a moving viewport does not allocate.
    @exclusivity(unchecked) var prefetchTargets: [ImageRequest] = []
    @exclusivity(unchecked) var lastPrefetchVisible: Range<Int> = 0..<0
    /// The configured prefetch policies (`FeedEngine+Prefetch`).
    let imagePrefetchPolicy: any ImagePrefetchPolicy
    let pagePrefetchPolicy: any PagePrefetchPolicy
    /// The reader's speed through the feed at the last layout pass, in pt/s.
    @exclusivity(unchecked) var scrollVelocity = 0.0
    /// contentOffset and the time at the last layout pass, for the speed.
    @exclusivity(unchecked) var lastLayoutOffset = Double.nan
    @exclusivity(unchecked) var lastLayoutTime: Int64 = 0
    /// Likes waiting for the network.
    @exclusivity(unchecked) var offlineActions = OfflineActionQueue()
    /// Keeps the reader's place per the configured strategy.
    @exclusivity(unchecked) var keeper: any PositionKeeper
    /// The row views a lazy stack keeps off screen.
    @exclusivity(unchecked) var rowViews: RowViewRetention
    /// How far the last layout pass moved the content to compensate heights.
    @exclusivity(unchecked) var lastCompensation = 0.0
    /// The reader's anchor as the current layout pass began: what changes
    /// the pass sets off (an image delivered as its cell is configured) are
    /// judged against, since the pass itself changes which post looks
    /// most visible.
    @exclusivity(unchecked) var layoutPassAnchor: ScrollAnchor?
    /// Whether a cell is being configured: an image delivered now comes
    /// from the memory cache as part of the row's first layout.
    @exclusivity(unchecked) var configuringCell = false
    /// The post a commit settles its layout around (`settleLayout`): while
    /// it settles, that is the reader's post, whatever its passes measure.
    @exclusivity(unchecked) var settlingAnchorID: PostID?
    /// Corrections the viewport applied to a fling's resting point
    /// (`PlaceCorrection.retargetingFling`).
    @exclusivity(unchecked) var retargetedFlings = 0
    /// The post a retargeted fling is carrying to where it is held, while
    /// the fling lasts.
    @exclusivity(unchecked) var flightAnchorID: PostID?

    /// Whether a fling this engine retargeted is still carrying a post to
    /// where it is held: false once the fling is over, or once a height
    /// changed on its way that it could no longer be retargeted for, and
    /// the strategy corrected the content in the frame instead.
    package var isCarryingFling: Bool { flightAnchorID != nil }
    /// How far past its edges the content was as the current commit began
    /// (a finger's stretch, a bounce): its corrections may keep that much
    /// past the edges the change moved (`correctOffset`).
    @exclusivity(unchecked) var heldOverscroll: (top: Double, bottom: Double) = (0, 0)
    /// The layout strategy's work off the main thread, with its queue
    /// (`FeedEngine+Background`); `nil` when the strategy sends none, or no
    /// queue was given: every cell is then measured and drawn on the main
    /// thread. One reference, so that an engine that sends nothing off the
    /// main thread is no larger than before there was any.
    let offMain: OffMainLayout?

    /// What the engine did, for reports.
    package struct Counters: Equatable, Sendable {
        package var pagesRequested = 0
        package var pageFailures = 0
        package var refreshes = 0
        package var commits = 0
        package var likes = 0
        package var likeRollbacks = 0
        package var anchorsStale = 0
        package var anchorsLost = 0
        package var newPostsHeld = 0
        /// Likes made while offline, queued for replay.
        package var actionsQueued = 0
        /// Queued likes sent again after reconnecting.
        package var actionsReplayed = 0
        package var restores = 0
        package var foregroundChecks = 0
        package var foregroundRefreshes = 0
    }

    @exclusivity(unchecked) package internal(set) var counters = Counters()

    /// An engine laying out for `viewport`, which must outlive it (the
    /// engine does not keep it alive), loading through `transport` and
    /// `imageTransport` and scheduling on `scheduler`, which it keeps, and
    /// sending layout work off the main thread to `backgroundQueue`.
    package init(
        configuration: FeedEngineConfiguration,
        viewport: any FeedViewport,
        transport: any FeedTransport,
        imageTransport: any ImageTransport,
        scheduler: any EngineScheduler,
        backgroundQueue: (any BackgroundQueue)? = nil
    ) {
        var listConfiguration = configuration.list
        offMain = OffMainLayout.make(policy: configuration.layoutStrategy.make(), queue: backgroundQueue)
        listConfiguration.displaysAsynchronously = offMain?.policy.displaysAsynchronously ?? false
        imagePrefetchPolicy = configuration.imagePrefetch.make()
        pagePrefetchPolicy = configuration.pagePrefetch.make()
        let keeper = configuration.positionStrategy.makePositionKeeper()
        if let space = keeper.coordinateSpace { listConfiguration.coordinateSpace = space }
        self.keeper = keeper
        self.configuration = configuration
        self.list = FeedList(configuration: listConfiguration)
        self.viewport = viewport
        self.transport = transport
        self.scheduler = scheduler
        self.rowViews = RowViewRetention(configuration.rowViews)
        self.viewModels = LRUCache(
            countLimit: configuration.viewModelCacheCount, costLimit: configuration.viewModelCacheCost)
        self.tuner = FeedTuner(options: configuration.tuner)
        self.images = ImagePipeline(
            configuration: configuration.images, transport: imageTransport, scheduler: scheduler)
        // The list belongs to the engine and never calls back after it.
        list.onConfigure = { [unowned self] index in self.configureCell(at: index) }
        list.onEndDisplay = { [unowned self] id in
            self.images.cancel(for: FeedEngine.imageOwner(id))
            self.rowViews.disappeared(id)
        }
        // Made now, with the engine, rather than inside the first call that needs them.
        _ = debouncer
        _ = imageCompletion
    }

    /// The feed's posts as the server ordered them, newest first.
    package var posts: [Post] { store.posts }
    /// How many posts the feed holds: `posts.count` without retaining the array.
    package var postCount: Int { store.posts.count }
    /// Whether the server said there is nothing after the last post.
    package var reachedEnd: Bool { store.reachedEnd }
    /// Whether a page request is on its way.
    package var isLoadingPage: Bool { store.isLoadingPage }
    /// Whether the last request failed for want of a network.
    package var believesOffline: Bool { offlineActions.believesOffline }

    /// The rows and their layout, read-only.
    package var listView: FeedListView { FeedListView(list) }
    /// The list as the strategy reads it: read-only, its lookups charged as
    /// the engine's work.
    var keeperListView: FeedListView { FeedListView(list, chargingLookups: true) }

    /// Work since the last call: the list's and the image pipeline's; each
    /// cell configured or measured is also handed to `visitCell`, with what
    /// it shows, for a cost model that charges by content.
    package func drainWork(visitingCells visitCell: (CellWork) -> Void = { _ in }) -> WorkCounters {
        var work = list.drainWork(visitingCells: visitCell)
        work += images.drainWork()
        return work
    }

    /// Whether work is waiting to be charged to the next frame.
    package var hasPendingWork: Bool { !list.pendingWork.isZero || !images.pendingWork.isZero }

    /// Image requests served from memory or disk, over all requests.
    package var imageHitRate: Double { images.hitRate }

    /// View-model lookups served from the cache, over all lookups; 0 before any.
    package var viewModelHitRate: Double {
        let lookups = viewModels.hits + viewModels.misses
        return lookups == 0 ? 0 : Double(viewModels.hits) / Double(lookups)
    }

    /// Bytes held by the view model cache.
    package var viewModelCacheCost: Int { viewModels.totalCost }

    /// Bytes held in memory by the engine's caches: view models and decoded images.
    package var cacheMemoryBytes: Int { viewModels.totalCost + images.memoryCacheCost }

    /// Row views a lazy stack keeps alive off screen (0 in a host that
    /// reuses its cells).
    package var keptRowViews: Int { rowViews.keptCount }

    /// Bytes those row views hold.
    package var keptRowViewBytes: Int { rowViews.bytes }

    /// Starts the feed: requests the first page.
    package func start() {
        requestPage(cursor: nil, replacing: true)
    }

    /// The system is short of memory: trim the view model cache, keeping
    /// `fraction` of its cost (0 clears it).
    package func didReceiveMemoryWarning(keepingFraction fraction: Double) {
        if fraction <= 0 {
            viewModels.removeAll()
            images.didReceiveMemoryWarning(.clearAll)
        } else if fraction < 1 {
            viewModels.trim(toCost: Int(Double(viewModels.totalCost) * fraction))
            images.didReceiveMemoryWarning(.trimToFraction(fraction))
        }
    }

    /// Checks what must hold between the engine's parts at the end of every
    /// mutation of the feed, when ``EngineChecks/enabled``: always in debug
    /// builds, and in others when the environment asks (the test command's
    /// release build of the tests does).
    /// - Complexity: O(n)
    func _checkInvariants() {
        guard EngineChecks.enabled else { return }
        store._checkInvariants()
        for item in list.items {
            precondition(store.knows(item.id), "row \(item.id) shows a post the engine does not know")
        }
    }
}
