/// `offset_adjust`: contentOffset moves by the height that arrives above the
/// first visible post less the height that leaves from above it, and by the
/// height change of cells measured above it. A post moved across the reader
/// (the thread tuner pulling a parent above its new reply) counts as a
/// deletion where it was and an insertion where it lands, as UIKit's batch
/// updates treat a move.
public struct OffsetAdjustingKeeper: PositionKeeper {
    public static let name = "offset_adjust"
    /// Heights inserted, removed and measured above the first visible post
    /// are added to the offset; a relayout or a relaunch puts that post back.
    public static let heldCauses: Set<ChangeCause> = [
        .refresh, .newPosts, .append, .contentUpdate, .removal, .heightChange, .imageSize,
        .widthChange, .textSizeChange, .likeRollback, .restore,
    ]
    public init() {}

    /// The height leaving from above the first visible item by deletion, in
    /// the old layout.
    private var deletedAbove = 0.0
    /// The old index and height of every moved item, by its new index.
    private var movedFrom: [Int: (index: Int, height: Double)] = [:]

    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedList) {
        deletedAbove = 0
        movedFrom.removeAll(keepingCapacity: true)
        guard let anchor = batch.anchor else { return }
        for index in batch.changes.deletes where index < anchor.index { deletedAbove += list.layout.height(of: index) }
        for move in batch.changes.moves { movedFrom[move.to] = (move.from, list.layout.height(of: move.from)) }
    }

    public func batchDidApply(_ batch: PlaceBatch, list: FeedList) -> PlaceOutcome {
        guard let anchor = batch.anchor, let newIndex = list.index(of: anchor.itemID) else { return PlaceOutcome(.keepOffset) }
        var arrived = 0.0
        var left = deletedAbove
        for index in batch.changes.inserts where index < newIndex { arrived += list.layout.height(of: index) }
        for move in batch.changes.moves {
            guard let old = movedFrom[move.to] else { continue }
            let wasAbove = old.index < anchor.index
            let isAbove = move.to < newIndex
            if isAbove && !wasAbove { arrived += list.layout.height(of: move.to) }
            if wasAbove && !isAbove { left += old.height }
        }
        return PlaceOutcome(.moveOffset(to: batch.offset + arrived - left))
    }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedList) -> PlaceCorrection {
        guard let index = list.index(of: anchor.itemID) else { return .keepOffset }
        return .moveOffset(to: list.minY(of: index) - anchor.viewportY)
    }
}
