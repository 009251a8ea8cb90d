/// `index_restore`: the old first-visible index goes back to its screen
/// position (a reloadData followed by scrolling to the saved index path).
/// After inserts or deletions above, that index holds another post.
public struct IndexRestoringKeeper: PositionKeeper {
    public static let name = "index_restore"
    /// Changes that keep every post at its index: heights measured above,
    /// a relayout, content updated in place, a relaunch.
    public static let heldCauses: Set<ChangeCause> = [
        .contentUpdate, .heightChange, .imageSize, .widthChange, .textSizeChange, .likeRollback, .restore,
    ]
    public init() {}

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        guard let anchor = batch.anchor, !list.items.isEmpty else { return PlaceOutcome(.keepOffset) }
        return PlaceOutcome(.moveOffset(to: IndexRestoringKeeper.offset(restoring: anchor, in: list)))
    }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        .moveOffset(to: IndexRestoringKeeper.offset(restoring: anchor, in: list))
    }

    /// The offset that puts `anchor`'s index (or the last item) at its old
    /// viewport position.
    static func offset(restoring anchor: ScrollAnchor, in list: FeedListView) -> Double {
        list.minY(of: min(anchor.index, list.items.count - 1)) - anchor.viewportY
    }
}
