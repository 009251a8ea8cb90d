import FeedEngine

/// A scenario file, schema version 1: a device, a feed, an engine
/// configuration and a script of user actions over a stretch of simulated time.
package struct Scenario: Sendable, Equatable {
    /// The schema version this decoder reads.
    package static let schemaVersion = 1
    /// The seed of a file that gives none.
    package static let defaultSeed: UInt64 = 1

    package var name: String
    package var description: String
    /// The device profile's name, resolved to `devices/<name>.json`.
    package var device: String
    /// Display refresh rates to run at; each is its own run. Empty means the
    /// device's own rate.
    package var refreshRatesHz: [Int]
    package var seed: UInt64
    /// Simulated time the run covers, in nanoseconds.
    package var durationNs: Int64
    package var feed: FeedSettings
    package var server: ServerSettings
    package var engine: EngineSettings
    /// Engine variants to compare; each is its own run. Empty means one run
    /// with `engine` as it is, named `default`.
    package var variants: [EngineVariant]
    /// The user's actions as written, in time order of their first
    /// occurrence: a step with `repeat` is one step (`expandedScript` has
    /// every occurrence).
    package var script: [ScriptStep]
    package var limits: RunLimits
    package var memory: MemorySettings = .defaults
    package var lifecycle: LifecycleSettings = .defaults
    package var network: NetworkSettings = .defaults

    package init(
        name: String, description: String, device: String, refreshRatesHz: [Int] = [], seed: UInt64 = 1,
        durationNs: Int64, feed: FeedSettings, server: ServerSettings = .defaults, engine: EngineSettings = .defaults,
        variants: [EngineVariant] = [], script: [ScriptStep] = [], limits: RunLimits = .defaults
    ) {
        self.name = name
        self.description = description
        self.device = device
        self.refreshRatesHz = refreshRatesHz
        self.seed = seed
        self.durationNs = durationNs
        self.feed = feed
        self.server = server
        self.engine = engine
        self.variants = variants
        self.script = script
        self.limits = limits
    }
}

/// The synthetic feed a scenario starts with.
package struct FeedSettings: Sendable, Equatable {
    /// Posts in the feed at launch.
    package var postCount: Int
    /// Body text length range, in characters.
    package var textLength: ClosedRange<Int>
    /// Fraction of posts with media, 0...1.
    package var mediaFraction: Double
    /// Fraction of posts that are replies in a thread, 0...1.
    package var replyFraction: Double
    /// Fraction of posts that are reposts, 0...1.
    package var repostFraction: Double
    /// Posts per page; 0 loads the whole feed in one response.
    package var pageSize: Int
    /// Load the next page when the last visible post is this many from the end.
    package var loadMoreThreshold: Int
    /// Fraction of media whose pixel size the feed's data gives; the rest
    /// are laid out as squares until the image arrives.
    package var mediaSizeKnownFraction: Double = 1
    /// How tall each post's cell measures.
    package var itemHeight: ItemHeight = .content
    /// Fraction of posts that quote another post, 0...1; the quoted text's
    /// length is drawn from `textLength`.
    package var quoteFraction: Double = 0
    /// Fraction of posts that share a link as an external card, with a
    /// 1.91:1 thumbnail in place of other media, 0...1.
    package var externalCardFraction: Double = 0
    /// The imported feed served instead of synthetic posts (`from`), if any.
    package var imported: ImportedFeedSource?

    package init(
        postCount: Int, textLength: ClosedRange<Int> = defaultTextLength, mediaFraction: Double = defaultMediaFraction,
        replyFraction: Double = 0, repostFraction: Double = 0, pageSize: Int = 0,
        loadMoreThreshold: Int = FeedEngineConfiguration.defaultLoadMoreThreshold
    ) {
        self.postCount = postCount
        self.textLength = textLength
        self.mediaFraction = mediaFraction
        self.replyFraction = replyFraction
        self.repostFraction = repostFraction
        self.pageSize = pageSize
        self.loadMoreThreshold = loadMoreThreshold
    }

    /// What a file that leaves an optional field of `feed` out gets
    /// (`post_count` is required; 0 here).
    package static let defaults = FeedSettings(postCount: 0)
}

/// How tall a post's cell measures once laid out.
package enum ItemHeight: Sendable, Equatable {
    /// From the post's content: text lines at the width and type size,
    /// media at its aspect ratio, header, action bar and insets.
    case content
    /// Every cell this many points, at any width and type size.
    case fixed(Double)
    /// Each cell a height drawn uniformly from this range, in points, fixed
    /// for the post's life.
    case uniform(ClosedRange<Double>)
}

/// The feed's server, until the network model replaces its fixed latency.
package struct ServerSettings: Sendable, Equatable {
    /// Time from request to response, in nanoseconds.
    package var latencyNs: Int64
    /// Probability that a like request fails, 0...1.
    package var likeFailureRate: Double

    package init(latencyNs: Int64 = 0, likeFailureRate: Double = 0) {
        self.latencyNs = latencyNs
        self.likeFailureRate = likeFailureRate
    }

    package static let defaults = ServerSettings()
}

/// A named engine configuration to run and compare.
package struct EngineVariant: Sendable, Equatable {
    package var name: String
    package var engine: EngineSettings
    /// A network replacing the scenario's for this variant, to compare links.
    package var network: NetworkSettings?

    package init(name: String, engine: EngineSettings, network: NetworkSettings? = nil) {
        self.name = name
        self.engine = engine
        self.network = network
    }
}

/// The engine configuration under test, as a scenario writes it. Its
/// defaults are the engine's own (`FeedEngineConfiguration.default…`,
/// `ImagePipeline.Configuration.default…`), not a second copy of them.
package struct EngineSettings: Sendable, Equatable {
    /// The height a cell is assumed to have before it is measured, in points.
    package var estimatedItemHeightPt: Double = FeedEngineConfiguration.defaultEstimatedItemHeight
    /// The view that hosts the feed: `collection_view` (UIKit) or one of
    /// SwiftUI's (docs/swiftui-hosts.md).
    package var host: FeedHost = .collectionView
    package var positionStrategy: PositionStrategy = .none
    package var diffAlgorithm: DiffAlgorithm = .heckel
    /// Debounce interval for data changes, in nanoseconds.
    package var debounceNs: Int64 = FeedEngineConfiguration.defaultDebounceInterval
    package var viewModelCacheCount: Int = FeedEngineConfiguration.defaultViewModelCacheCount
    package var viewModelCacheCostBytes: Int = FeedEngineConfiguration.defaultViewModelCacheCost
    package var newPostsPolicy: NewPostsPolicy = .insert
    package var hideReplies = false
    package var hideReposts = false
    /// How far past the top a pull must go to refresh, in points.
    package var refreshTriggerPt: Double = FeedEngineConfiguration.defaultRefreshTriggerDistance
    /// How the engine trims its caches on a memory warning.
    package var memoryWarningPolicy: MemoryWarningPolicy = .clearAll
    /// Where images are decoded.
    package var imageDecode: ImageDecodeSetting = .background
    /// Cost limit of the decoded-image memory cache, in bytes.
    package var imageMemoryCacheBytes: Int = ImagePipeline.Configuration.defaultMemoryCacheCostLimit
    /// Size limit of the encoded-image disk cache, in bytes.
    package var imageDiskCacheBytes: Int = ImagePipeline.Configuration.defaultDiskCacheSizeLimit
    /// Posts past the viewport whose images are prefetched: the window the
    /// image prefetch policy works with.
    package var imagePrefetchWindow: Int = ImagePipeline.Configuration.defaultPrefetchWindow
    /// Which images load before their cells ask.
    package var imagePrefetch: ImagePrefetch = .window
    /// When the next page is asked for.
    package var pagePrefetch: PagePrefetch = .threshold
    /// The page threshold, in posts from the end; `nil` for the feed's
    /// (`feed.load_more_threshold`, where older files set it).
    package var loadMoreThreshold: Int?
    /// What a lazy stack does with row views that leave the screen (only
    /// `lazy_vstack` keeps any: docs/swiftui-hosts.md).
    package var rowRetention: RowRetention = .released
    /// Updates (layout passes) a released row view is kept off screen.
    package var rowKeptUpdates: Int = EngineSettings.defaultRowKeptUpdates
    /// Memory one kept row view holds, in bytes.
    package var rowViewBytes: Int = EngineSettings.defaultRowViewBytes
    /// Rows past the screen the host lays out in a frame's spare time while
    /// the reader scrolls down; 0, the default, turns it off
    /// (docs/swiftui-hosts.md).
    package var spareTimePrefetchRows: Int = 0
    /// Which row bodies a SwiftUI host runs again when the feed changes
    /// (docs/swiftui-hosts.md); a collection view ignores it.
    package var rowObservation: RowObservation = .perRow
    /// Where cells are measured and drawn: `self_sizing` on the main thread
    /// as they show, `precomputed` heights on a background queue,
    /// `async_display` contents drawn off the main thread too
    /// (docs/main-thread.md).
    package var layoutStrategy: LayoutStrategy = .selfSizing

    /// Session 321 says only "a number of updates": an assumption.
    package static let defaultRowKeptUpdates = 30
    /// No source gives a kept row view's size: an assumption, 16 KiB.
    package static let defaultRowViewBytes = 16 << 10

    /// The row view settings the engine gets: `nil` in a host that reuses
    /// its cells.
    package var rowViews: RowViewSettings? {
        host.keepsRowViews
            ? RowViewSettings(policy: rowRetention, keptUpdates: rowKeptUpdates, rowViewBytes: rowViewBytes) : nil
    }

    package init(estimatedItemHeightPt: Double = FeedEngineConfiguration.defaultEstimatedItemHeight) {
        self.estimatedItemHeightPt = estimatedItemHeightPt
    }

    /// These settings under `strategy`, in a host it can exist in: this
    /// host if it can, else the strategy's first (a SwiftUI strategy moves
    /// a collection view's settings to `lazy_vstack`).
    package func with(strategy: PositionStrategy) -> EngineSettings {
        var settings = self
        settings.positionStrategy = strategy
        if !strategy.hosts.contains(host), let first = strategy.hosts.first { settings.host = first }
        return settings
    }
}

/// UIScrollView's deceleration rates, per millisecond.
package enum DecelerationRate: String, Sendable, CaseIterable {
    /// `UIScrollView.DecelerationRate.normal`: 0.998 per ms.
    case normal
    /// `UIScrollView.DecelerationRate.fast`: 0.99 per ms.
    case fast

    /// The velocity kept per millisecond.
    package var perMillisecond: Double {
        switch self {
        case .normal: 0.998
        case .fast: 0.99
        }
    }
}

/// One point of a finger trajectory, relative to the touch-down.
package struct TrajectoryPoint: Sendable, Equatable {
    /// Time since touch-down, in nanoseconds.
    package var timeNs: Int64
    /// Content displacement so far, in points; positive scrolls towards
    /// later posts (the finger moves up).
    package var displacementPt: Double

    package init(timeNs: Int64, displacementPt: Double) {
        self.timeNs = timeNs
        self.displacementPt = displacementPt
    }
}

/// What happens when a drag's finger lifts.
package enum DragRelease: String, Sendable, CaseIterable {
    /// The scroll view decelerates from the finger's last velocity.
    case fling
    /// The finger stops before lifting: no deceleration.
    case stop
}

/// A user action at a point in simulated time.
package struct ScriptStep: Sendable, Equatable {
    package var atNs: Int64
    package var action: ScriptAction
    /// How many times the step happens (1 unless the file has `repeat`).
    package var repeatCount: Int
    /// Time between repetitions, in nanoseconds.
    package var repeatEveryNs: Int64

    package init(atNs: Int64, action: ScriptAction, repeatCount: Int = 1, repeatEveryNs: Int64 = 0) {
        self.atNs = atNs
        self.action = action
        self.repeatCount = repeatCount
        self.repeatEveryNs = repeatEveryNs
    }

    /// The time of the last repetition.
    package var lastNs: Int64 { atNs + Int64(repeatCount - 1) * repeatEveryNs }

    /// The step as single, unrepeated steps.
    package var expanded: [ScriptStep] {
        (0..<repeatCount).map { ScriptStep(atNs: atNs + Int64($0) * repeatEveryNs, action: action) }
    }
}

extension Scenario {
    /// Every occurrence of every step, unrepeated, in time order, ties in
    /// the order written: what a run performs. Repetitions interleave with
    /// the steps after them.
    package var expandedScript: [ScriptStep] {
        guard script.contains(where: { $0.repeatCount > 1 }) else { return script }
        return script.enumerated()
            .flatMap { index, step in step.expanded.map { (index, $0) } }
            .sorted { ($0.1.atNs, $0.0) < ($1.1.atNs, $1.0) }
            .map(\.1)
    }
}

/// Where a `scroll_to` puts the content.
package enum ScrollTarget: Sendable, Equatable {
    /// This many points below the top of the content (0 is the top).
    case offset(Double)
    /// The post at this index (0 is the first) at the top of the readable area.
    case post(index: Int)
    /// The post at this index with the top of the readable area this many
    /// points below its top (negative: above it): where a reader was within
    /// a post.
    case intoPost(index: Int, pointsIn: Double)
}

/// Which posts a `remove_posts` deletes, among those the app shows.
package enum RemovalPlace: String, Sendable, CaseIterable {
    /// The first posts of the feed.
    case top
    /// The posts around the reader's anchor, the anchor among them.
    case aroundReader = "around_reader"
    /// The last posts loaded.
    case bottom
}

/// Limits that stop a run loudly instead of letting it run away.
package struct RunLimits: Sendable, Equatable {
    /// Events the simulation may process.
    package var maxEvents: Int
    /// Simulated time no event may be scheduled beyond, in nanoseconds.
    package var maxSimulatedNs: Int64

    package init(maxEvents: Int, maxSimulatedNs: Int64) {
        self.maxEvents = maxEvents
        self.maxSimulatedNs = maxSimulatedNs
    }

    /// Enough for an hour at 120 Hz (432,000 vsyncs) and all it sets off;
    /// a run that needs more says so by raising it.
    package static let defaultMaxEvents = 2_000_000
    package static let defaultMaxSimulatedSeconds = 3_600.0
}

/// How the engine trims its caches on a memory warning.
package enum MemoryWarningPolicy: String, Sendable, CaseIterable {
    /// Drop every cached view model and decoded image.
    case clearAll = "clear_all"
    /// Keep half of each cache's cost.
    case trimHalf = "trim_half"
    /// Ignore warnings (the control case).
    case ignore = "none"

    /// The share of each cache kept.
    package var keptFraction: Double {
        switch self {
        case .clearAll: 0
        case .trimHalf: 0.5
        case .ignore: 1
        }
    }
}

/// The app's modelled memory: what it costs and where the system steps in.
package struct MemorySettings: Sendable, Equatable {
    /// Above this footprint the app is killed (jetsam), in bytes.
    package var limitBytes: Int64
    /// The app's footprint with nothing loaded (code, frameworks, UI), in bytes.
    package var baselineBytes: Int64
    /// Model objects per post held by the feed, in bytes.
    package var bytesPerPost: Int64
    /// Fraction of the limit at which a memory warning is sent.
    package var warningFraction: Double
    /// Fraction of the limit at which a second, critical warning is sent.
    package var criticalFraction: Double

    package init(
        limitBytes: Int64 = MemorySettings.defaultLimitBytes, baselineBytes: Int64 = 150 << 20,
        bytesPerPost: Int64 = 4 << 10,
        warningFraction: Double = 0.8, criticalFraction: Double = 0.9
    ) {
        self.limitBytes = limitBytes
        self.baselineBytes = baselineBytes
        self.bytesPerPost = bytesPerPost
        self.warningFraction = warningFraction
        self.criticalFraction = criticalFraction
    }

    /// About half the RAM of a 4 GB iPhone: the foreground jetsam limit
    /// `os_proc_available_memory` reports on such devices is near 2 GB.
    package static let defaultLimitBytes: Int64 = 2048 << 20
    package static let defaults = MemorySettings()
}

/// Backgrounding, relaunching and restoring state.
package struct LifecycleSettings: Sendable, Equatable {
    /// When the app returns from the background (Catbird's thresholds by default).
    package var keepUnderNs: Int64
    package var checkUnderNs: Int64
    /// Persisted state older than this is ignored at relaunch, in nanoseconds.
    package var restoreMaxAgeNs: Int64
    /// Time from the reader's tap to the first frame of a relaunch, in nanoseconds.
    package var coldStartNs: Int64

    package init(
        keepUnderNs: Int64 = 600_000_000_000, checkUnderNs: Int64 = 1_800_000_000_000,
        restoreMaxAgeNs: Int64 = 3_600_000_000_000, coldStartNs: Int64 = 1_200_000_000
    ) {
        self.keepUnderNs = keepUnderNs
        self.checkUnderNs = checkUnderNs
        self.restoreMaxAgeNs = restoreMaxAgeNs
        self.coldStartNs = coldStartNs
    }

    package static let defaults = LifecycleSettings()
}

/// The network between the app and its servers: a named link profile in the
/// spirit of Network Link Conditioner, any of whose fields can be
/// overridden, with retries and offline windows.
///
/// Kept apart from `LinkProfile` on purpose: a scenario names a profile and
/// overrides only some of its fields (each optional here, `nil` meaning
/// "the profile's"), while a `LinkProfile` is a whole link with every field
/// set; `linkProfile()` is the one place that applies the one to the other.
package struct NetworkSettings: Sendable, Equatable {
    /// The names of the link profiles a scenario can choose.
    package static var profileNames: [String] { LinkProfile.allNames }

    package var profile: String
    package var latency: LatencyDistribution?
    package var jitterMs: Double?
    package var downlinkKbps: Int?
    package var uplinkKbps: Int?
    package var lossRate: Double?
    package var timeoutMs: Double?
    package var maxRetries: Int
    package var backoffBaseMs: Double
    package var backoffMultiplier: Double
    /// Times with no network at all, in nanoseconds from launch.
    package var offlineWindows: [Range<Int64>]
    /// `network.from`: a NETWORK.json `feedsim import har` wrote, as the
    /// scenario names it (relative to the scenario file).
    package var from: String?
    /// The file `from` names, read when the scenario is loaded: feed requests
    /// draw from its `feed` class, image loads from its `image` class.
    package var imported: ImportedNetwork?

    package init(
        profile: String = "wifi", latency: LatencyDistribution? = nil, jitterMs: Double? = nil,
        downlinkKbps: Int? = nil,
        uplinkKbps: Int? = nil, lossRate: Double? = nil, timeoutMs: Double? = nil, maxRetries: Int = 2,
        backoffBaseMs: Double = 500, backoffMultiplier: Double = 2, offlineWindows: [Range<Int64>] = [],
        from: String? = nil, imported: ImportedNetwork? = nil
    ) {
        self.from = from
        self.imported = imported
        self.profile = profile
        self.latency = latency
        self.jitterMs = jitterMs
        self.downlinkKbps = downlinkKbps
        self.uplinkKbps = uplinkKbps
        self.lossRate = lossRate
        self.timeoutMs = timeoutMs
        self.maxRetries = maxRetries
        self.backoffBaseMs = backoffBaseMs
        self.backoffMultiplier = backoffMultiplier
        self.offlineWindows = offlineWindows
    }

    package static let defaults = NetworkSettings()
}

/// Where an engine decodes images, as a scenario says it.
///
/// Kept apart from the engine's `ImageDecodeMode` on purpose: the engine's
/// background mode carries the decode time per megapixel, which comes from
/// the device profile, not the scenario; `Simulation.engineConfiguration`
/// joins the two.
package enum ImageDecodeSetting: String, Sendable, CaseIterable {
    /// On the main thread: costs frame time per megapixel.
    case main
    /// On a background queue: costs latency before the image shows.
    case background
}
