/// `offset_adjust`: contentOffset moves by the height that arrives above the
/// first visible post less the height that leaves from above it, and by the
/// height change of cells measured above it. A post moved across the reader
/// (the thread tuner pulling a parent above its new reply) counts as a
/// deletion where it was and an insertion where it lands, as UIKit's batch
/// updates treat a move.
public struct OffsetAdjustingKeeper: PositionKeeper {
    public static let name = "offset_adjust"
    /// Only the changes that keep every row where it is: cells measured
    /// above, a relayout, content updated in place. Through inserts and
    /// removals (new posts, refreshes, pages, deletions, a restore) it adds
    /// heights as the commit lays them out, and rows still at their
    /// estimate, rows the thread tuner re-roles (a root drawn tighter once
    /// it has a reply) and images whose size arrives late change that sum
    /// after the fact: `feedsim explore` finds sessions where the reader
    /// moves by hundreds of points. It never looks at the reader's post, so
    /// it cannot promise more.
    public static let heldCauses: Set<ChangeCause> = [
        .contentUpdate, .heightChange, .widthChange, .textSizeChange, .likeRollback,
    ]
    public init() {}

    /// The height leaving from above the first visible item by deletion, in
    /// the old layout.
    private var deletedAbove = 0.0
    /// The old index and height of every moved item, by its new index.
    private var movedFrom: MovedItems = [:]
    typealias MovedItems = [Int: (index: Int, height: Double)]

    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
        deletedAbove = 0
        movedFrom.removeAll(keepingCapacity: true)
        guard let anchor = batch.anchor else { return }
        for index in batch.changes.deletes where index < anchor.index { deletedAbove += list.height(of: index) }
        for move in batch.changes.moves { movedFrom[move.to] = (move.from, list.height(of: move.from)) }
    }

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        guard let anchor = batch.anchor, let newIndex = list.index(of: anchor.itemID) else {
            return PlaceOutcome(.keepOffset)
        }
        var arrived = 0.0
        var left = deletedAbove
        for index in batch.changes.inserts where index < newIndex { arrived += list.height(of: index) }
        for move in batch.changes.moves {
            guard let old = movedFrom[move.to] else { continue }
            let wasAbove = old.index < anchor.index
            let isAbove = move.to < newIndex
            if isAbove && !wasAbove { arrived += list.height(of: move.to) }
            if wasAbove && !isAbove { left += old.height }
        }
        return PlaceOutcome(.moveOffset(to: batch.offset + arrived - left))
    }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        guard let index = list.index(of: anchor.itemID) else { return .keepOffset }
        return .moveOffset(to: list.minY(of: index) - anchor.viewportY)
    }
}

extension OffsetAdjustingKeeper {
    /// Makes the Swift runtime instantiate the metadata of the table of
    /// moved items: its `(index: Int, height: Double)` values and its
    /// storage, which the runtime allocates once per process, the first
    /// time the table holds an item. A batch with moves is rare (the thread
    /// tuner pulling a parent above its new reply), and the warm-up's tour
    /// makes none, so the first run in a worker to move posts under
    /// `offset_adjust` counted those allocations (4, 560 bytes, in a random
    /// session) and a later run did not: `--jobs` changed the counts. The
    /// warm-up calls this (`FeedEngine.instantiateRuntimeMetadata()`).
    ///
    /// - Complexity: O(1): a few entries in a throwaway table.
    static func instantiateRuntimeMetadata() {
        var moved = MovedItems()
        for index in 0..<8 { moved[index] = (index, Double(index)) }
        _ = moved[3]
        moved.removeAll(keepingCapacity: true)
    }
}
