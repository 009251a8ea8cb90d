/// `virtual_space`: TiledView's virtual content space. The list lays out in
/// 100,000,000 pt with the first item at 50,000,000; prepends and height
/// changes above the reader grow the content upwards, so contentOffset is
/// never changed by an update and the items on screen keep their y.
public struct VirtualSpaceKeeper: PositionKeeper {
    public static let name = "virtual_space"
    /// Every change: the items on screen keep their y whatever happens above.
    public static let heldCauses: Set<ChangeCause> = [
        .refresh, .newPosts, .append, .contentUpdate, .removal, .heightChange, .imageSize,
        .widthChange, .textSizeChange, .likeRollback, .restore,
    ]
    public init() {}

    public var coordinateSpace: CoordinateSpace? { .tiledView }

    /// The list keeps the anchor's y through a batch update by itself; a
    /// reloadData (the `reload_all` diff) starts the content over at the
    /// space's origin, so the origin moves back to where the anchor was.
    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        guard let anchor = batch.anchor, let index = list.index(of: anchor.itemID) else {
            return PlaceOutcome(.keepOffset)
        }
        let moved = anchor.itemY - list.minY(of: index)
        return PlaceOutcome(moved == 0 ? .keepOffset : .shiftOrigin(by: moved))
    }

    public func heightsChangedAbove(by delta: Double) -> PlaceCorrection { .shiftOrigin(by: -delta) }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        guard let index = list.index(of: anchor.itemID) else { return .keepOffset }
        return .shiftOrigin(by: anchor.itemY - list.minY(of: index))
    }
}
