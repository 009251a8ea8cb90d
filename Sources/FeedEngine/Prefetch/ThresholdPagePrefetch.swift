/// `threshold`: the next page once the last row on screen is
/// `load_more_threshold` rows from the end of the feed, at any speed.
public struct ThresholdPagePrefetch: PagePrefetchPolicy {
    public static let name = "threshold"
    public init() {}

    public func shouldLoadNextPage(at moment: PrefetchMoment) -> Bool {
        moment.lastVisible >= moment.itemCount - 1 - moment.loadMoreThreshold
    }
}
