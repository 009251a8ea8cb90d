/// `none`: contentOffset stays as it is, so whatever is inserted, removed or
/// re-measured above the reader moves the content under them. The control
/// case every other strategy is compared with.
public struct OffsetKeepingKeeper: PositionKeeper {
    public static let name = "none"
    public init() {}

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome { PlaceOutcome(.keepOffset) }

    public func heightsChangedAbove(by delta: Double) -> PlaceCorrection { .keepOffset }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection { .keepOffset }
}
