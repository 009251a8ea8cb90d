/// `velocity_prefetch`: prefetching that looks as far ahead as the reader
/// is moving, in the direction they move (the Catbird analysis's
/// "predictive prefetching": load content based on scroll velocity).
///
/// - Images: the configured window, plus the rows the reader crosses in
///   `imageLookahead` seconds at their current speed (at most
///   `maxImageRows` in all), past the screen in the direction of travel:
///   scrolling back up prefetches above the screen, not below it. At rest,
///   the plain window ahead.
/// - Pages: the next page once the rows left below the screen are no more
///   than the threshold plus the rows the reader crosses in `pageLookahead`
///   seconds (a page's round trip on a slow link), so a fast reader asks
///   early enough not to hit the end.
public struct VelocityPrefetch: ImagePrefetchPolicy, PagePrefetchPolicy {
    public static let name = "velocity_prefetch"
    public init() {}

    /// How far ahead images are fetched, in seconds of scrolling: about the
    /// time an image takes on a good link.
    public static let imageLookahead = 0.5
    /// The most rows prefetched at once, so a fling does not queue the
    /// whole feed.
    public static let maxImageRows = 40
    /// How far ahead a page is asked for, in seconds of scrolling.
    public static let pageLookahead = 1.5

    public func imagePrefetchRows(at moment: PrefetchMoment) -> Range<Int> {
        let ahead = min(
            VelocityPrefetch.maxImageRows, moment.window + moment.rowsCrossed(in: VelocityPrefetch.imageLookahead))
        return moment.rows(ahead, towardsEnd: moment.velocity >= 0)
    }

    public func shouldLoadNextPage(at moment: PrefetchMoment) -> Bool {
        let reach = moment.velocity > 0 ? moment.rowsCrossed(in: VelocityPrefetch.pageLookahead) : 0
        return moment.lastVisible >= moment.itemCount - 1 - moment.loadMoreThreshold - reach
    }
}
