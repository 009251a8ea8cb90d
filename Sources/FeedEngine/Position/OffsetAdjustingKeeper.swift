/// `offset_adjust`: contentOffset moves by the height inserted above the
/// first visible post less the height deleted above it, and by the height
/// change of cells measured above it.
public struct OffsetAdjustingKeeper: PositionKeeper {
    public static let name = "offset_adjust"
    /// Heights inserted, removed and measured above the first visible post
    /// are added to the offset; a relayout or a relaunch puts that post back.
    public static let heldCauses: Set<ChangeCause> = [
        .refresh, .newPosts, .append, .contentUpdate, .removal, .heightChange, .imageSize,
        .widthChange, .textSizeChange, .likeRollback, .restore,
    ]
    public init() {}

    /// The height leaving above the first visible item, in the old layout.
    private var removedAbove = 0.0

    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedList) {
        removedAbove = 0
        guard let anchor = batch.anchor else { return }
        for index in batch.changes.deletes where index < anchor.index { removedAbove += list.layout.height(of: index) }
    }

    public func batchDidApply(_ batch: PlaceBatch, list: FeedList) -> PlaceOutcome {
        guard let anchor = batch.anchor, let newIndex = list.index(of: anchor.itemID) else { return PlaceOutcome(.keepOffset) }
        var inserted = 0.0
        for index in batch.changes.inserts where index < newIndex { inserted += list.layout.height(of: index) }
        return PlaceOutcome(.moveOffset(to: batch.offset + inserted - removedAbove))
    }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedList) -> PlaceCorrection {
        guard let index = list.index(of: anchor.itemID) else { return .keepOffset }
        return .moveOffset(to: list.minY(of: index) - anchor.viewportY)
    }
}
