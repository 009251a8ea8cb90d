import FeedEngine
import FeedScenario

/// The engine of each launch, made from the scenario's settings, and the
/// scroll view it starts in.
extension Simulation {
    /// A disk cache read of an image on an iPhone's flash storage, in
    /// nanoseconds: a few hundred kilobytes at ~1 GB/s plus file-system overhead.
    static let diskReadLatency: SimTime = 2_000_000

    /// A new engine, for a launch or a relaunch. Engines of earlier
    /// launches are let go: their callbacks hold them weakly, and actions
    /// they scheduled are skipped (see `launchGeneration`).
    func newEngine() -> FeedEngine {
        FeedEngine(
            configuration: Simulation.engineConfiguration(
                request.engine, feed: scenario.feed, width: input.width,
                decodePerMegapixel: request.loaded.device.costs.decodePerMegapixel.value),
            viewport: self, transport: transport, imageTransport: transport, scheduler: schedulerLink,
            backgroundQueue: backgroundCores)
    }

    /// The scroll view at the top of the current engine's content.
    func resetScrollView() {
        scrollView = ScrollView(
            viewportHeight: scrollView.viewportHeight, insetTop: scrollView.insetTop,
            insetBottom: scrollView.insetBottom,
            contentHeight: 0, contentMinY: engine.listView.contentMinY)
        frame.lastRenderedOffset = .nan
    }

    static func engineConfiguration(
        _ settings: EngineSettings, feed: FeedSettings, width: Double, decodePerMegapixel: Double
    ) -> FeedEngineConfiguration {
        let decode: ImageDecodeMode =
            settings.imageDecode == .main
            ? .mainThread : .background(nanosecondsPerMegapixel: Int64(decodePerMegapixel.rounded()))
        var list = FeedListConfiguration(
            estimatedItemHeight: settings.estimatedItemHeightPt, width: width, coordinateSpace: .ordinary)
        list.estimatesFromMeasured = settings.host.estimatesFromPlacedRows
        list.updatesVisibleRowsOnly = settings.host.updatesVisibleRowsOnly
        return FeedEngineConfiguration(
            list: list,
            positionStrategy: settings.positionStrategy,
            diffAlgorithm: settings.diffAlgorithm,
            debounceInterval: settings.debounceNs,
            viewModelCacheCount: settings.viewModelCacheCount,
            viewModelCacheCost: settings.viewModelCacheCostBytes,
            pageSize: feed.pageSize,
            loadMoreThreshold: settings.loadMoreThreshold ?? feed.loadMoreThreshold,
            refreshTriggerDistance: settings.refreshTriggerPt,
            newPostsPolicy: settings.newPostsPolicy,
            tuner: FeedTuner.Options(hideReplies: settings.hideReplies, hideReposts: settings.hideReposts),
            images: ImagePipeline.Configuration(
                decodeMode: decode, diskReadLatency: diskReadLatency,
                memoryCacheCostLimit: settings.imageMemoryCacheBytes, diskCacheSizeLimit: settings.imageDiskCacheBytes,
                prefetchWindow: settings.imagePrefetchWindow),
            imagePrefetch: settings.imagePrefetch,
            pagePrefetch: settings.pagePrefetch,
            rowViews: settings.rowViews,
            spareTimePrefetchRows: settings.spareTimePrefetchRows,
            rowObservation: settings.host.isSwiftUI ? settings.rowObservation : nil,
            layoutStrategy: settings.layoutStrategy)
    }
}
