/// `content_anchor`: `anchor`, holding a post whose content is stable (the
/// Catbird analysis's "content-aware anchoring: prefer text/image content
/// over UI elements"). Just before a batch update it takes the reader's post
/// if its height is final, or else the first post below it on screen whose
/// height is final: measured, and text only or with media whose size the
/// layout knows. After the update that post is put back where it sat on
/// screen. A post whose media size is still unknown will change height
/// when its image arrives, so a team may expect an anchor that does not
/// wait on it to be the steadier one.
///
/// In this model it cannot be: every row is a post, drift is judged at the
/// top of the post the reader looks at, and a post's own change of height
/// never moves its own top. Holding another post holds the reader's post
/// only while nothing between the two changes height in the update, and in
/// a batch update something often does: the reader's post is measured for
/// the first time (it is still estimated when an update lands before the
/// frame after a jump lays it out; that is when it is not final), its own
/// text changes, or the thread tuner draws it or a post below it as a
/// thread. Putting the held post back then passes the change on to the
/// reader's post. `feedsim explore` found it moving readers by up to
/// 129 pt on appends (seed 1), so it claims only the changes that are not
/// batch updates, which it holds as `anchor` does; `ContentAnchorTests`
/// shows both sides, and the README the population.
///
/// If the held post is gone it is `anchor` (the reader's post, or the first
/// survivor below it). Heights measured above the reader, width and text
/// size changes (every height changes, so none is final) and restores are
/// `anchor`'s.
public struct ContentAnchorKeeper: PositionKeeper {
    public static let name = "content_anchor"
    /// What `anchor` holds outside batch updates: heights measured or
    /// resized above the reader, width and text size changes, and restores.
    public static let heldCauses: Set<ChangeCause> = [
        .heightChange, .imageSize, .widthChange, .textSizeChange, .restore,
    ]
    public init() {}

    public var usesPullAnchor: Bool { true }

    /// The post held through the batch, when it is not the reader's, and
    /// where its top sat on screen.
    private var held: (id: PostID, viewportY: Double)?
    /// The reader's post and the survivors below it, when the held post is gone.
    private var anchor = AnchorKeeper()

    /// Whether the row at `index` has its final height: measured, and text
    /// only or with media whose size the layout knows.
    public static func hasFinalHeight(_ index: Int, in list: FeedListView) -> Bool {
        guard list.isMeasured(index) else { return false }
        return list.items[index].post.media?.sizeKnownAtLayout ?? true
    }

    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
        anchor.batchWillApply(batch, list: list)
        held = nil
        guard let reader = batch.anchor, reader.index < list.items.count,
            list.items[reader.index].id == reader.itemID,
            !ContentAnchorKeeper.hasFinalHeight(reader.index, in: list)
        else { return }
        // Posts below the reader's that are on screen; their screen y is
        // taken relative to the reader's post as it was captured (for a
        // refresh, where the pull left it).
        let readerY = list.minY(of: reader.index)
        let onScreen = list.displayedRange
        let below = max(reader.index + 1, onScreen.lowerBound)
        for index in below..<max(below, onScreen.upperBound)
        where ContentAnchorKeeper.hasFinalHeight(index, in: list) {
            held = (list.items[index].id, reader.viewportY + list.minY(of: index) - readerY)
            return
        }
    }

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        guard let held, let index = list.index(of: held.id) else { return anchor.batchDidApply(batch, list: list) }
        let readerLost = batch.anchor.map { list.index(of: $0.itemID) == nil } ?? false
        return PlaceOutcome(
            .moveOffset(to: list.minY(of: index) - held.viewportY), settleAround: held.id, anchorLost: readerLost)
    }

    public func afterRelayout(anchor captured: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        anchor.afterRelayout(anchor: captured, list: list)
    }
}
