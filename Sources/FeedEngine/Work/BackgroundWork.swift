/// Work the engine hands to a background queue: a row's height, computed
/// ahead of its first layout, or a cell's contents, drawn behind a
/// placeholder.
package struct BackgroundJob: Equatable, Hashable, Sendable {
    /// What the job computes; the raw values key the cost model's jitter
    /// draws, after `CellWork.Kind`'s.
    package enum Kind: UInt64, Hashable, Sendable, Codable {
        /// A row's height: a cell measured off the main thread.
        case height = 3
        /// A cell's contents: the content-aware part of configuring it (its
        /// text laid out and rendered, its images drawn).
        case display = 4
    }

    package var kind: Kind
    /// The cell the job lays out or draws, with what it shows.
    package var cell: CellWork

    package init(kind: Kind, cell: CellWork) {
        self.kind = kind
        self.cell = cell
    }
}

/// Where the engine sends work off the main thread. The engine never times
/// itself: whoever runs it (the simulator's model of the device's cores)
/// decides when each job runs and ends, and hands the result back on the
/// main thread by running `completion` through the engine's scheduler, so
/// that a result arrives as any other event does.
package protocol BackgroundQueue: AnyObject {
    /// Queues `job`; `completion` runs on the main thread once it is done.
    func submit(_ job: BackgroundJob, completion: @escaping () -> Void)
}

/// What a precomputed height or prepared contents were computed from: the
/// row's content as the layout reads it, at a width and text size. A result
/// whose key is no longer the row's is stale and is dropped.
struct LayoutKey: Equatable, Sendable {
    var textLength: Int
    var media: Media?
    var isRepost: Bool
    var role: ThreadRole
    var isThreadIncomplete: Bool
    var hasExternalCard: Bool
    var fixedHeight: Double?
    // 16 bits (a post's text lengths are), placed in the padding after
    // `fixedHeight`, so that a key stays 72 bytes.
    var quotedTextLength: UInt16?
    var width: Double
    var typeScale: Double

    /// The key of `item` laid out as `configuration` lays it out.
    init(_ item: FeedItem, in configuration: FeedListConfiguration) {
        textLength = item.post.textLength
        media = item.post.media
        isRepost = item.post.repostedBy != nil
        role = item.role
        isThreadIncomplete = item.isThreadIncomplete
        fixedHeight = item.post.fixedHeightPt
        quotedTextLength = item.post.quotedTextLength.map { UInt16($0) }
        hasExternalCard = item.post.hasExternalCard
        width = configuration.width
        typeScale = configuration.typeScale
    }
}

/// What the engine did off the main thread, for reports and checks.
package struct OffMainCounters: Equatable, Sendable {
    /// Precomputed heights that came back stale (the row changed, the width
    /// or text size changed, or the row was measured on the main thread
    /// first) and were dropped.
    package var heightsDropped = 0
    /// Contents that came back for a row still in the display range.
    package var contentsApplied = 0
    /// What became of the precomputed heights the list applied.
    package var precomputed = PrecomputedHeights.Tally()

    /// Precomputed heights that replaced an estimate.
    package var heightsApplied: Int { precomputed.applied }
    /// Precomputed heights applied that differ from the main thread's
    /// measure of the same content at the same width and text size: a
    /// broken strategy (the `precomputed_height` property).
    package var heightMismatches: Int { precomputed.mismatches }
    /// The first such mismatch, described.
    package var firstMismatch: String? { precomputed.firstMismatch }

    package init() {}
}

/// The engine's work off the main thread: its layout strategy, the queue
/// it sends jobs to, the jobs in flight and the contents prepared, each
/// with the key it was computed for.
final class OffMainLayout {
    let policy: any LayoutPolicy
    let queue: any BackgroundQueue
    /// Whether the strategy computes heights ahead, read once.
    let precomputesHeights: Bool
    /// Whether the strategy draws contents off the main thread, read once.
    let displaysAsynchronously: Bool
    @exclusivity(unchecked) var state = OffMainState()
    /// Heights come back and wait here for the next layout pass.
    let heights = PrecomputedHeights()

    /// The work of `policy` on `queue`; `nil` when there is no queue or
    /// the strategy sends nothing off the main thread. Checked before an
    /// object is made: a failable initialiser of a class allocates first.
    static func make(policy: any LayoutPolicy, queue: (any BackgroundQueue)?) -> OffMainLayout? {
        guard let queue, policy.precomputesHeights || policy.displaysAsynchronously else { return nil }
        return OffMainLayout(policy: policy, queue: queue)
    }

    private init(policy: any LayoutPolicy, queue: any BackgroundQueue) {
        self.policy = policy
        self.queue = queue
        precomputesHeights = policy.precomputesHeights
        displaysAsynchronously = policy.displaysAsynchronously
    }
}

/// Jobs in flight and contents prepared off the main thread.
struct OffMainState {
    /// Heights in flight, by row.
    var heightJobs: [PostID: LayoutKey] = [:]
    /// Contents in flight, by row.
    var contentJobs: [PostID: LayoutKey] = [:]
    /// Contents prepared, by row: only rows in `displayRange` keep theirs.
    var contents: [PostID: LayoutKey] = [:]
    /// The rows whose contents are kept, as of the last layout pass.
    var displayRange: Range<Int> = 0..<0
    /// The list as the last search for heights to compute found it.
    var heightsScan: ListScan?
    /// The list as the display range's rows were last given their jobs.
    var contentsScan: ListScan?
    var counters = OffMainCounters()
}

/// What a search of the list for work to send off the main thread depends
/// on: the rows, the width and the text size. While they stay the same, a
/// search finds nothing new to send.
struct ListScan: Equatable {
    var revision: UInt32
    var width: Double
    var typeScale: Double

    init(_ list: FeedList) {
        revision = list.itemsRevision
        width = list.configuration.width
        typeScale = list.configuration.typeScale
    }
}

/// Heights computed off the main thread waiting for the next layout pass,
/// in the order they arrived, and what became of those applied. The engine
/// keeps it and hands it to the list's layout passes: the list keeps no
/// room of its own for them.
package final class PrecomputedHeights {
    /// A height computed for the row `id`, found near `hint`, from `key`.
    struct Waiting {
        var id: PostID
        var height: Double
        var hint: Int
        var key: LayoutKey
    }

    /// Precomputed heights applied, and those that differ from the list's
    /// own measure of the same row.
    package struct Tally: Equatable, Sendable {
        package var applied = 0
        package var mismatches = 0
        package var firstMismatch: String?

        package init() {}
    }

    var waiting: [Waiting] = []
    var tally = Tally()
}
