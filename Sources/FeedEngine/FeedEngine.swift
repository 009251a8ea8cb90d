/// What to do with new posts that arrive while the reader is mid-feed.
public enum NewPostsPolicy: String, Hashable, Sendable, CaseIterable {
    /// Insert them above at once (the position strategy keeps the reader's place).
    case insert
    /// Hold them behind a "new posts" indicator until the reader taps it or
    /// scrolls to the top.
    case indicator
}

/// Everything that configures a `FeedEngine`: the engine variant under test.
public struct FeedEngineConfiguration: Hashable, Sendable {
    public var list: FeedListConfiguration
    public var positionStrategy: PositionStrategy
    public var diffAlgorithm: DiffAlgorithm
    /// Bursts of data changes closer than this are applied as one, in
    /// nanoseconds (Catbird uses 50 ms and 150 ms).
    public var debounceInterval: Int64
    public var viewModelCacheCount: Int
    /// Cost limit of the view model cache, in bytes.
    public var viewModelCacheCost: Int
    /// Posts per page; 0 asks for the whole feed at once.
    public var pageSize: Int
    /// Load the next page when the last visible item is this close to the end.
    public var loadMoreThreshold: Int
    /// How far past the top a pull must go to trigger a refresh, in points.
    public var refreshTriggerDistance: Double
    public var newPostsPolicy: NewPostsPolicy
    public var tuner: FeedTuner.Options
    public var images: ImagePipeline.Configuration

    public init(
        list: FeedListConfiguration,
        positionStrategy: PositionStrategy = .none,
        diffAlgorithm: DiffAlgorithm = .heckel,
        debounceInterval: Int64 = 50_000_000,
        viewModelCacheCount: Int = 200,
        viewModelCacheCost: Int = 1 << 20,
        pageSize: Int = 0,
        loadMoreThreshold: Int = 5,
        refreshTriggerDistance: Double = 80,
        newPostsPolicy: NewPostsPolicy = .insert,
        tuner: FeedTuner.Options = FeedTuner.Options(),
        images: ImagePipeline.Configuration = ImagePipeline.Configuration(decodeMode: .mainThread, diskReadLatency: 0)
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
    }
}

/// The feed engine an app would ship: it holds the feed's posts, turns them
/// into display rows (thread consolidation), applies changes as diffed batch
/// updates through a debouncer, keeps the reader's place with the configured
/// strategy, pages, refreshes, likes optimistically, and caches view models.
///
/// It is single-threaded and synchronous. Time reaches it only through the
/// `EngineScheduler`, data only through the `FeedTransport`, and the screen
/// only through the `FeedViewport`.
public final class FeedEngine {
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

    public let configuration: FeedEngineConfiguration
    public let list: FeedList
    unowned let viewport: any FeedViewport
    unowned let transport: any FeedTransport
    unowned let scheduler: any EngineScheduler

    /// The feed's posts as the server ordered them, newest first.
    public private(set) var posts: [Post] = []
    /// Posts known for threading (page posts and their thread context).
    var knownPosts: [PostID: Post] = [:]
    var cursor: FeedCursor?
    public private(set) var reachedEnd = false
    public private(set) var isLoadingPage = false
    public private(set) var isRefreshing = false
    /// New posts held behind the indicator.
    public private(set) var heldNewPosts: [Post] = []
    /// The anchor captured during a pull, used when the refresh lands.
    public private(set) var pullAnchor: ScrollAnchor?
    var wasPulling = false
    var viewModels: LRUCache<PostID, PostViewModel>
    var debouncer: Debouncer<PendingChange>!
    let tuner: FeedTuner
    public let images: ImagePipeline
    /// One completion for every image request, made once so that asking for
    /// an image allocates no closure context.
    var imageCompletion: ((ImageLoadOutcome) -> Void)!
    /// Reused for prefetch targets so a moving viewport does not allocate.
    var prefetchTargets: [ImageRequest] = []
    var lastPrefetchVisible: Range<Int> = 0..<0

    /// What the engine did, for reports.
    public struct Counters: Equatable, Sendable {
        public var pagesRequested = 0
        public var pageFailures = 0
        public var refreshes = 0
        public var commits = 0
        public var likes = 0
        public var likeRollbacks = 0
        public var anchorsStale = 0
        public var anchorsLost = 0
        public var newPostsHeld = 0
        /// Likes made while offline, queued for replay.
        public var actionsQueued = 0
        /// Queued likes sent again after reconnecting.
        public var actionsReplayed = 0
        public var restores = 0
        public var foregroundChecks = 0
        public var foregroundRefreshes = 0
    }

    /// A like made while offline, waiting for the network.
    struct QueuedLike: Equatable {
        var postID: PostID
        var liked: Bool
    }

    /// Likes waiting for the network, oldest first.
    var offlineQueue: [QueuedLike] = []
    /// Whether the last request failed for want of a network.
    public private(set) var believesOffline = false

    public private(set) var counters = Counters()

    /// Keeps the reader's place per the configured strategy.
    var keeper: any PositionKeeper

    public init(
        configuration: FeedEngineConfiguration,
        viewport: any FeedViewport,
        transport: any FeedTransport,
        imageTransport: any ImageTransport,
        scheduler: any EngineScheduler
    ) {
        var listConfiguration = configuration.list
        let keeper = configuration.positionStrategy.makePositionKeeper()
        if let space = keeper.coordinateSpace { listConfiguration.coordinateSpace = space }
        self.keeper = keeper
        self.configuration = configuration
        self.list = FeedList(configuration: listConfiguration)
        self.viewport = viewport
        self.transport = transport
        self.scheduler = scheduler
        self.viewModels = LRUCache(countLimit: configuration.viewModelCacheCount, costLimit: configuration.viewModelCacheCost)
        self.tuner = FeedTuner(options: configuration.tuner)
        self.images = ImagePipeline(configuration: configuration.images, transport: imageTransport, scheduler: scheduler)
        self.debouncer = Debouncer(interval: configuration.debounceInterval, scheduler: scheduler) { [unowned self] changes in
            self.applyPending(changes)
        }
        imageCompletion = { [unowned self] outcome in self.imageArrived(outcome) }
        list.onConfigure = { [unowned self] index in self.configureCell(at: index) }
        list.onEndDisplay = { [unowned self] id in self.images.cancel(for: FeedEngine.imageOwner(id)) }
    }

    /// The image pipeline's owner id for a post's cell.
    static func imageOwner(_ id: PostID) -> Int { Int(truncatingIfNeeded: id) }

    /// Work since the last call: the list's and the image pipeline's.
    public func drainWork() -> WorkCounters {
        var work = list.drainWork()
        work += images.drainWork()
        return work
    }

    /// Whether work is waiting to be charged to the next frame.
    public var hasPendingWork: Bool { !list.pendingWork.isZero || !images.pendingWork.isZero }

    /// Image requests served from memory or disk, over all requests.
    public var imageHitRate: Double { images.hitRate }

    /// View-model lookups served from the cache, over all lookups; 0 before any.
    public var viewModelHitRate: Double {
        let lookups = viewModels.hits + viewModels.misses
        return lookups == 0 ? 0 : Double(viewModels.hits) / Double(lookups)
    }

    /// Starts the feed: requests the first page.
    public func start() {
        requestPage(cursor: nil, replacing: true)
    }

    // MARK: Layout

    /// Lays out the cells in the viewport; the owner calls it whenever the
    /// scroll view moved or `list.needsLayout` is set. Height changes of
    /// cells measured above the reader are corrected per the strategy.
    @discardableResult
    public func layoutVisibleCells() -> Range<Int> {
        let visible = layOutAndCompensate()
        loadMoreIfNeeded(lastVisible: visible.upperBound - 1)
        updatePrefetching(visible: visible)
        return visible
    }

    /// Prefetches the images of the posts just past the viewport; only when
    /// the visible range changed.
    private func updatePrefetching(visible: Range<Int>) {
        guard visible != lastPrefetchVisible, configuration.images.prefetchWindow > 0 else { return }
        lastPrefetchVisible = visible
        prefetchTargets.removeAll(keepingCapacity: true)
        let range = images.prefetchRange(visible: visible, itemCount: list.items.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let post = list.items[index].post
            if let media = post.media { prefetchTargets.append(ImageRequest(postID: post.id, media: media, priority: .prefetch)) }
            index += 1
        }
        images.setPrefetchTargets(prefetchTargets)
    }

    /// An image arrived. If its size was not known at layout, its cell is
    /// measured again; above the reader that moves the content, which the
    /// strategy corrects like any height change.
    private func imageArrived(_ outcome: ImageLoadOutcome) {
        guard outcome.isDelivered else { return }
        // A cell showing a new image is a change on screen: the next frame renders.
        if outcome.source != .memory { list.setNeedsLayout() }
        guard let index = list.index(of: outcome.key.postID) else { return }
        var item = list.items[index]
        guard var media = item.post.media, !media.sizeKnownAtLayout else { return }
        media.sizeKnownAtLayout = true
        item.post.media = media
        if let position = posts.firstIndex(where: { $0.id == item.id }) { posts[position].media = media }
        knownPosts[item.id]?.media = media
        viewport.feedWillCommit(.imageSize)
        let anchor = captureAnchor()
        let delta = list.replaceItem(at: index, with: item)
        if let anchor, index < anchor.index, delta != 0 {
            apply(keeper.heightsChangedAbove(by: delta), from: viewport.contentOffset)
        }
        list.setNeedsLayout()
        viewport.feedDidCommit(.imageSize)
    }

    /// One layout pass; cells measured above the reader's reference move it,
    /// which every strategy but `none` undoes (in the virtual space the list
    /// grows upwards by itself). Returns the visible range and whether the
    /// offset was corrected.
    @discardableResult
    private func layOutAndCompensate() -> Range<Int> {
        let oldOffset = viewport.contentOffset
        let (visible, changeAbove) = list.updateVisibleRect(minY: oldOffset, height: viewport.viewportHeight)
        lastCompensation = 0
        if changeAbove != 0 {
            apply(keeper.heightsChangedAbove(by: changeAbove), from: oldOffset)
            lastCompensation = viewport.contentOffset - oldOffset
        }
        return visible
    }

    private var lastCompensation = 0.0

    /// Lays out the viewport after a commit, as UIKit does in the same
    /// transaction, around the item `anchorID`, until measuring stops
    /// moving it.
    func settleLayout(around anchorID: PostID?) {
        // The anchor is the reference even when it lies above the new rect:
        // only cells before it may move it.
        list.pinLayoutAnchor(anchorID.flatMap(list.index(of:)))
        for _ in 0..<FeedEngine.settlePasses {
            layOutAndCompensate()
            if lastCompensation == 0 { break }
        }
        list.pinLayoutAnchor(nil)
        list.setNeedsLayout()
    }

    /// Layout passes a commit may take to settle; each measures the cells a
    /// correction brought into view.
    static let settlePasses = 4

    /// The range of contentOffset the scroll view may rest in: the content
    /// under the insets.
    public var offsetRange: ClosedRange<Double> {
        let low = list.contentMinY - viewport.insetTop
        let high = max(low, list.contentMaxY + viewport.insetBottom - viewport.viewportHeight)
        return low...high
    }

    /// The readable part of the viewport (under the bars), in content coordinates.
    var readableRect: (minY: Double, maxY: Double) {
        let top = viewport.contentOffset + viewport.insetTop
        return (top, viewport.contentOffset + viewport.viewportHeight - viewport.insetBottom)
    }

    /// The first item at least 30% visible in the readable rect, with its
    /// place; `nil` when nothing is on screen.
    public func captureAnchor() -> ScrollAnchor? {
        let rect = readableRect
        let range = list.indices(intersecting: rect.minY, rect.maxY)
        var index = range.lowerBound
        while index < range.upperBound {
            let top = list.minY(of: index)
            let height = list.layout.height(of: index)
            let visible = min(top + height, rect.maxY) - max(top, rect.minY)
            if height > 0, visible / height >= AnchorRules.visibilityThreshold {
                return ScrollAnchor(
                    itemID: list.items[index].id, index: index, itemY: top,
                    offsetY: viewport.contentOffset, capturedAt: scheduler.now)
            }
            index += 1
        }
        return nil
    }

    // MARK: Scrolling

    /// The scroll view moved. During a pull past the top, the refresh anchor
    /// is captured once the pull passes 20 pt (Catbird), and dropped if the
    /// pull is abandoned. A pull that reaches the trigger distance starts the
    /// refresh with the finger still down, as UIRefreshControl does; the
    /// finger may hold the pull while the data lands.
    public func scrollViewDidScroll(isDragging: Bool) {
        let pulled = offsetRange.lowerBound - viewport.contentOffset
        if isDragging, pulled > AnchorRules.pullCaptureDistance, pullAnchor == nil, !isRefreshing {
            pullAnchor = captureAnchor()
        }
        if isDragging, pulled >= configuration.refreshTriggerDistance, !pullTriggeredRefresh {
            pullTriggeredRefresh = true
            refresh()
        }
        if !isDragging, pulled <= 0, !isRefreshing, pullAnchor != nil, !wasPulling {
            pullAnchor = nil
        }
        if !heldNewPosts.isEmpty, viewport.contentOffset <= offsetRange.lowerBound + 1 {
            showNewPosts()
        }
    }

    /// The finger lifted. A pull past the trigger distance that has not
    /// started its refresh yet starts it now; an abandoned pull drops its anchor.
    public func scrollViewDidEndDragging() {
        let pulled = offsetRange.lowerBound - viewport.contentOffset
        if pulled >= configuration.refreshTriggerDistance, !pullTriggeredRefresh {
            refresh()
        } else if !isRefreshing {
            pullAnchor = nil
        }
        pullTriggeredRefresh = false
    }

    /// Whether the pull in progress has started its refresh: one pull, one refresh.
    var pullTriggeredRefresh = false

    // MARK: Data

    /// Asks the server for the newest posts (pull-to-refresh or the app's own).
    public func refresh() {
        guard !isRefreshing else { return }
        isRefreshing = true
        wasPulling = pullAnchor != nil
        counters.refreshes += 1
        transport.fetchPage(cursor: nil, limit: pageLimit) { [unowned self] result in
            self.isRefreshing = false
            switch result {
            case let .success(page):
                self.debouncer.submit(.refresh(page))
            case .failure:
                self.counters.pageFailures += 1
                self.pullAnchor = nil
            }
        }
    }

    /// New posts pushed by the server while the feed is open.
    public func receiveNewPosts(_ newPosts: [Post]) {
        var present = Set(posts.map(\.id))
        for post in heldNewPosts { present.insert(post.id) }
        let fresh = newPosts.filter { !present.contains($0.id) }
        guard !fresh.isEmpty else { return }
        switch configuration.newPostsPolicy {
        case .insert:
            debouncer.submit(.newPosts(fresh))
        case .indicator:
            heldNewPosts = fresh + heldNewPosts
            counters.newPostsHeld += fresh.count
            if viewport.contentOffset <= offsetRange.lowerBound + 1 { revealNewPosts(byReader: false) }
        }
    }

    /// The reader tapped the "new posts" indicator, or scrolled to the top.
    public func showNewPosts() {
        revealNewPosts(byReader: true)
    }

    /// Puts the held new posts into the feed. When the reader asked for
    /// them, the change is theirs, not drift.
    private func revealNewPosts(byReader: Bool) {
        guard !heldNewPosts.isEmpty else { return }
        let shown = heldNewPosts
        heldNewPosts = []
        debouncer.submit(byReader ? .shownNewPosts(shown) : .newPosts(shown))
    }

    /// Posts whose content changed on the server (counts, edits).
    public func receiveContentUpdates(_ updated: [Post]) {
        debouncer.submit(.contentUpdate(updated))
    }

    /// Posts deleted on the server, pushed to the app.
    public func receiveRemovals(_ ids: [PostID]) {
        guard !ids.isEmpty else { return }
        debouncer.submit(.removal(ids))
    }

    /// The reader tapped like on the item at `index`: applied at once, sent
    /// to the server, rolled back if the server refuses.
    public func toggleLike(at index: Int) {
        guard index >= 0, index < list.items.count else { return }
        let id = list.items[index].id
        guard let position = posts.firstIndex(where: { $0.id == id }) else { return }
        let liked = !posts[position].isLikedByViewer
        setLike(liked, at: position)
        counters.likes += 1
        commitDisplayedChange(cause: .like)
        sendLike(QueuedLike(postID: id, liked: liked))
    }

    /// Sends a like; offline, it is queued (the optimistic state stays) and
    /// replayed on reconnect; any other failure rolls it back.
    private func sendLike(_ like: QueuedLike) {
        transport.setLike(postID: like.postID, liked: like.liked) { [unowned self] result in
            switch result {
            case .success:
                self.believesOffline = false
            case .failure(.offline):
                self.believesOffline = true
                self.offlineQueue.append(like)
                self.counters.actionsQueued += 1
            case .failure:
                guard let current = self.posts.firstIndex(where: { $0.id == like.postID }) else { return }
                self.setLike(!like.liked, at: current)
                self.counters.likeRollbacks += 1
                self.commitDisplayedChange(cause: .likeRollback)
            }
        }
    }

    /// The network is back: replay queued likes, oldest first.
    public func networkDidBecomeAvailable() {
        believesOffline = false
        let queued = offlineQueue
        offlineQueue = []
        for like in queued {
            counters.actionsReplayed += 1
            sendLike(like)
        }
    }

    // MARK: State restoration

    /// The state to persist now: the feed and the reader's anchor.
    public func snapshot() -> FeedSnapshot {
        let anchor = captureAnchor()
        var context: [Post] = []
        for post in posts {
            for id in [post.parentID, post.rootID].compactMap({ $0 }) {
                if let known = knownPosts[id] { context.append(known) }
            }
        }
        return FeedSnapshot(
            posts: posts, threadContext: context, nextCursor: cursor, anchorID: anchor?.itemID,
            anchorViewportY: anchor?.viewportY ?? 0, savedAt: scheduler.now)
    }

    /// Starts from persisted state instead of the network (a relaunch): the
    /// feed is shown at once and the anchor put back where it was.
    public func restore(from snapshot: FeedSnapshot) {
        counters.restores += 1
        posts = snapshot.posts
        for post in snapshot.threadContext { knownPosts[post.id] = post }
        for post in snapshot.posts { knownPosts[post.id] = post }
        cursor = snapshot.nextCursor
        reachedEnd = snapshot.nextCursor == nil && configuration.pageSize > 0
        let tuned = tuner.tuneWithStats(posts) { [knownPosts] id in knownPosts[id] }
        viewport.feedWillCommit(.restore)
        list.replaceAll(with: tuned.items)
        apply(
            keeper.afterRestore(anchorID: snapshot.anchorID, viewportY: snapshot.anchorViewportY, list: list, top: offsetRange.lowerBound),
            from: viewport.contentOffset)
        settleLayout(around: snapshot.anchorID)
        viewport.feedDidCommit(.restore)
    }

    /// The app returns after `away` ns in the background; acts per `policy`.
    public func didEnterForeground(after away: Int64, policy: ForegroundPolicy) {
        switch policy.action(after: away) {
        case .keep:
            break
        case .checkForNewPosts:
            counters.foregroundChecks += 1
            transport.fetchPage(cursor: nil, limit: pageLimit) { [unowned self] result in
                guard case let .success(page) = result else { return }
                let present = Set(self.posts.map(\.id))
                let fresh = page.posts.prefix { !present.contains($0.id) }
                guard !fresh.isEmpty else { return }
                self.heldNewPosts = Array(fresh) + self.heldNewPosts
                self.counters.newPostsHeld += fresh.count
            }
        case .fullRefresh:
            counters.foregroundRefreshes += 1
            transport.fetchPage(cursor: nil, limit: pageLimit) { [unowned self] result in
                guard case let .success(page) = result else { return }
                self.remember(page)
                self.posts = page.posts
                self.cursor = page.nextCursor
                self.reachedEnd = page.nextCursor == nil
                let tuned = self.tuner.tuneWithStats(self.posts) { [knownPosts = self.knownPosts] id in knownPosts[id] }
                self.viewport.feedWillCommit(.refresh)
                self.list.replaceAll(with: tuned.items)
                self.correctOffset(from: self.viewport.contentOffset, to: self.offsetRange.lowerBound)
                self.settleLayout(around: nil)
                self.viewport.feedDidCommit(.refresh)
            }
        }
    }

    private func setLike(_ liked: Bool, at position: Int) {
        guard posts[position].isLikedByViewer != liked else { return }
        posts[position].isLikedByViewer = liked
        posts[position].likeCount += liked ? 1 : -1
        knownPosts[posts[position].id] = posts[position]
    }

    /// The system is short of memory: trim the view model cache, keeping
    /// `fraction` of its cost (0 clears it).
    public func didReceiveMemoryWarning(keepingFraction fraction: Double) {
        if fraction <= 0 {
            viewModels.removeAll()
            images.didReceiveMemoryWarning(.clearAll)
        } else if fraction < 1 {
            viewModels.trim(toCost: Int(Double(viewModels.totalCost) * fraction))
            images.didReceiveMemoryWarning(.trimToFraction(fraction))
        }
    }

    /// Bytes held by the view model cache.
    public var viewModelCacheCost: Int { viewModels.totalCost }

    /// Bytes held in memory by the engine's caches: view models and decoded images.
    public var cacheMemoryBytes: Int { viewModels.totalCost + images.memoryCacheCost }

    // MARK: Geometry changes

    /// The viewport changed width (rotation, split view): every cell is
    /// measured again and the reader's place restored per the strategy.
    public func viewportDidResize(width: Double) {
        relayout(cause: .widthChange) { list.setWidth(width) }
    }

    /// The Dynamic Type size changed.
    public func textSizeDidChange(scale: Double) {
        relayout(cause: .textSizeChange) { list.setTypeScale(scale) }
    }

    /// Invalidates the layout with `change`, lays out the viewport at once
    /// (as UIKit does in the same run-loop turn) and corrects the offset.
    private func relayout(cause: ChangeCause, _ change: () -> Void) {
        viewport.feedWillCommit(cause)
        let anchor = captureAnchor()
        let oldOffset = viewport.contentOffset
        change()
        // The anchor is measured first, so its restored place uses its real height.
        if let anchor { list.measure(anchor.index) }
        list.updateVisibleRect(minY: oldOffset, height: viewport.viewportHeight)
        if let anchor {
            apply(keeper.afterRelayout(anchor: anchor, list: list), from: oldOffset)
        }
        settleLayout(around: anchor?.itemID)
        viewport.feedDidCommit(cause)
    }

    // MARK: Pages

    var pageLimit: Int { configuration.pageSize > 0 ? configuration.pageSize : Int.max }

    /// After a failed page request the engine waits this long before asking
    /// again, in nanoseconds, so a dead network is not polled every frame.
    public static let pageRetryDelay: Int64 = 2_000_000_000

    /// The earliest time the next page may be requested.
    var nextPageAttemptAt: Int64 = 0

    private func loadMoreIfNeeded(lastVisible: Int) {
        guard configuration.pageSize > 0, !reachedEnd, !isLoadingPage, !list.items.isEmpty,
              scheduler.now >= nextPageAttemptAt,
              lastVisible >= list.items.count - 1 - configuration.loadMoreThreshold
        else { return }
        requestPage(cursor: cursor, replacing: false)
    }

    private func requestPage(cursor: FeedCursor?, replacing: Bool) {
        isLoadingPage = true
        counters.pagesRequested += 1
        transport.fetchPage(cursor: cursor, limit: pageLimit) { [unowned self] result in
            switch result {
            case let .success(page):
                // Still loading until the page is applied: the cursor moves
                // only then, and asking again before would fetch it twice.
                if replacing && self.posts.isEmpty {
                    self.applyPending([.page(page, replacing: true)])
                } else {
                    self.debouncer.submit(.page(page, replacing: replacing))
                }
            case .failure:
                self.isLoadingPage = false
                self.counters.pageFailures += 1
                self.nextPageAttemptAt = self.scheduler.now + FeedEngine.pageRetryDelay
                if replacing && self.posts.isEmpty {
                    // Nothing to show yet: try the first page again.
                    self.scheduler.schedule(after: FeedEngine.pageRetryDelay) { [unowned self] in
                        if self.posts.isEmpty && !self.isLoadingPage { self.requestPage(cursor: nil, replacing: true) }
                    }
                }
            }
        }
    }

    // MARK: Applying changes

    /// Folds a debounced batch of changes into the posts and commits once.
    func applyPending(_ changes: [PendingChange]) {
        var cause = ChangeCause.append
        for change in changes {
            switch change {
            case let .page(page, replacing):
                isLoadingPage = false
                remember(page)
                if replacing {
                    posts = page.posts
                    cause = posts.isEmpty || list.items.isEmpty ? .initialLoad : .refresh
                } else {
                    append(page.posts)
                }
                cursor = page.nextCursor
                reachedEnd = page.nextCursor == nil
            case let .refresh(page):
                remember(page)
                mergeRefresh(page)
                cause = .refresh
            case let .newPosts(newPosts):
                for post in newPosts { knownPosts[post.id] = post }
                prepend(newPosts)
                if cause != .refresh { cause = .newPosts }
            case let .shownNewPosts(newPosts):
                for post in newPosts { knownPosts[post.id] = post }
                prepend(newPosts)
                if cause == .append || cause == .contentUpdate { cause = .newPostsShown }
            case let .contentUpdate(updated):
                for post in updated {
                    knownPosts[post.id] = post
                    if let position = posts.firstIndex(where: { $0.id == post.id }) { posts[position] = post }
                }
                if cause == .append { cause = .contentUpdate }
            case let .removal(ids):
                let gone = Set(ids)
                posts.removeAll { gone.contains($0.id) }
                heldNewPosts.removeAll { gone.contains($0.id) }
                if cause == .append || cause == .contentUpdate { cause = .removal }
            }
        }
        commitDisplayedChange(cause: cause)
    }

    func remember(_ page: FeedPage) {
        for post in page.threadContext { knownPosts[post.id] = post }
        for post in page.posts { knownPosts[post.id] = post }
    }

    private func append(_ page: [Post]) {
        let present = Set(posts.map(\.id))
        posts += page.filter { !present.contains($0.id) }
    }

    private func prepend(_ newPosts: [Post]) {
        let present = Set(posts.map(\.id))
        posts = newPosts.filter { !present.contains($0.id) } + posts
    }

    /// A refresh page either overlaps the feed or, when more posts arrived
    /// than a page holds, replaces it: the gap cannot be bridged. On overlap
    /// the page is the truth for the span it covers (new posts go on top,
    /// changed ones are updated, ones the server no longer has are removed)
    /// and the feed below that span is kept.
    private func mergeRefresh(_ page: FeedPage) {
        guard let oldest = page.posts.last, let overlapEnd = posts.firstIndex(where: { $0.id == oldest.id }) else {
            posts = page.posts
            cursor = page.nextCursor
            reachedEnd = page.nextCursor == nil
            return
        }
        posts = page.posts + posts[(overlapEnd + 1)...]
    }

    /// Rebuilds the display rows from the posts and commits the difference.
    func commitDisplayedChange(cause: ChangeCause) {
        let tuned = tuner.tuneWithStats(posts) { [knownPosts] id in knownPosts[id] }
        var work = WorkCounters()
        work.diffElements = tuned.postsExamined
        list.addWork(work)
        commit(tuned.items, cause: cause)
    }

    /// Applies `newItems` as one batch update and restores the reader's
    /// place per the strategy, telling the viewport before and after.
    func commit(_ newItems: [FeedItem], cause: ChangeCause) {
        counters.commits += 1
        viewport.feedWillCommit(cause)
        let anchor = anchorForCommit(cause: cause)
        let oldOffset = viewport.contentOffset
        if list.items.isEmpty || cause == .initialLoad {
            // A first load is a reloadData, not an animated batch of inserts.
            list.replaceAll(with: newItems)
            viewport.feedDidCommit(cause)
            return
        }
        let changes = configuration.diffAlgorithm.diff(from: list.items, to: newItems)
        let batch = PlaceBatch(anchor: anchor, changes: changes, offset: oldOffset)
        keeper.batchWillApply(batch, list: list)
        if configuration.diffAlgorithm == .reloadAll {
            // reloadData: every cached height and configured cell is lost.
            list.replaceAll(with: newItems)
            var work = WorkCounters()
            work.diffElements = changes.elementsCompared
            list.addWork(work)
        } else {
            list.apply(changes, newItems: newItems, anchorIndex: anchor?.index)
        }
        let outcome = keeper.batchDidApply(batch, list: list)
        if outcome.anchorLost { counters.anchorsLost += 1 }
        apply(outcome.correction, from: oldOffset)
        let survivor = anchor.flatMap { list.index(of: $0.itemID) != nil ? $0.itemID : nil }
        settleLayout(around: outcome.settleAround ?? survivor)
        viewport.feedDidCommit(cause)
    }

    /// Carries out a keeper's correction, from the content offset `oldOffset`.
    private func apply(_ correction: PlaceCorrection, from oldOffset: Double) {
        switch correction {
        case .keepOffset:
            break
        case let .moveOffset(target):
            correctOffset(from: oldOffset, to: target)
        case let .adjustOffset(delta):
            viewport.adjustContentOffset(by: delta)
        case let .shiftOrigin(delta):
            list.shiftOrigin(by: delta)
        }
    }

    /// Moves the content from `oldOffset` to `target` clamped to the content
    /// (Catbird clamps restored offsets). A correction never takes the
    /// content further past an edge than it already was, and never pulls in
    /// an overscroll the reader is holding: a held pull keeps its stretch.
    func correctOffset(from oldOffset: Double, to target: Double) {
        guard target != oldOffset else { return }
        let range = offsetRange
        let clamped = min(max(target, min(range.lowerBound, oldOffset)), max(range.upperBound, oldOffset))
        if clamped != oldOffset { viewport.adjustContentOffset(by: clamped - oldOffset) }
    }

    /// The anchor a commit restores: for a refresh, the one captured during
    /// the pull unless it is stale; otherwise one captured now.
    private func anchorForCommit(cause: ChangeCause) -> ScrollAnchor? {
        defer {
            if cause == .refresh {
                pullAnchor = nil
                wasPulling = false
            }
        }
        // Only a keeper that uses the pull-time anchor gets it; others take
        // theirs when the data changes.
        if cause == .refresh, keeper.usesPullAnchor, let pulled = pullAnchor {
            if scheduler.now - pulled.capturedAt <= AnchorRules.maximumAge,
               pulled.index < list.items.count, list.items[pulled.index].id == pulled.itemID {
                return pulled
            }
            counters.anchorsStale += 1
        }
        return captureAnchor()
    }

    // MARK: Cells

    private func configureCell(at index: Int) {
        let item = list.items[index]
        requestImage(for: item)
        if let cached = viewModels.value(forKey: item.id),
           cached.contentVersion == PostViewModel.contentVersion(of: item.post) {
            return
        }
        let model = PostViewModel(item: item)
        viewModels.insert(model, forKey: item.id, cost: model.cost)
        var work = WorkCounters()
        work.viewModelsCreated = 1
        list.addWork(work)
    }

    private func requestImage(for item: FeedItem) {
        guard let media = item.post.media else { return }
        images.request(
            ImageRequest(postID: item.id, media: media, priority: .visible),
            for: FeedEngine.imageOwner(item.id), completion: imageCompletion)
    }
}
