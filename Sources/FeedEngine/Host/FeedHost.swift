/// The view that hosts the feed: UIKit's collection view, or one of the
/// SwiftUI containers teams move feeds to. A host decides which position
/// strategies can exist in it (a SwiftUI feed cannot set `contentOffset` in
/// the middle of a batch update, so UIKit's strategies are not available
/// there) and the defaults a scenario gets when it names the host but not a
/// strategy or a page prefetch policy. What each SwiftUI behaviour modelled
/// rests on is in docs/swiftui-hosts.md, with its source.
public enum FeedHost: String, Sendable, CaseIterable {
    /// `UICollectionView` with batch updates, self-sizing cells and a
    /// settable `contentOffset`: every strategy before the SwiftUI hosts.
    case collectionView = "collection_view"
    /// A `ScrollView` with a `LazyVStack` and `ForEach`.
    case lazyVStack = "lazy_vstack"
    /// SwiftUI's `List`.
    case list

    /// Whether the host is one of SwiftUI's.
    public var isSwiftUI: Bool { self != .collectionView }

    /// Whether rows not yet loaded are estimated at the mean height of the
    /// rows placed so far (`FeedListConfiguration.estimatesFromMeasured`):
    /// a lazy stack does (WWDC26 session 321, 2:42–3:42). A list does not:
    /// on iOS 16 and later it is a collection view with self-sizing cells
    /// and one estimate (reported by developers; Apple does not say).
    public var estimatesFromPlacedRows: Bool { self == .lazyVStack }

    /// Whether row views that leave the screen are kept (`RowRetention`)
    /// rather than their cells reused: a lazy stack's are (WWDC26 session
    /// 321, 16:59–17:13). A list, built on a collection view, reuses cells.
    public var keepsRowViews: Bool { self == .lazyVStack }

    /// Whether an update of the rows costs only the rows on screen
    /// (`FeedListConfiguration.updatesVisibleRowsOnly`): a lazy stack lays
    /// out until the visible rect is filled and checks only the visible
    /// views instead of diffing its whole content (WWDC26 session 321,
    /// 2:09–2:17 and 13:03–13:10). A list gathers every row's id on each
    /// update (WWDC23 session 10160, 14:18), as a collection view's diff
    /// compares every row.
    public var updatesVisibleRowsOnly: Bool { self == .lazyVStack }

    /// Whether an animated scroll to a row re-estimates where the row is
    /// at every frame, and so lands on it, as the rows it passes are laid
    /// out: a lazy stack's does (WWDC26 session 321, 18:10–18:19). A
    /// collection view's `setContentOffset(_:animated:)` goes to the offset
    /// computed at the start; that `List` does the same, being built on
    /// one, is an assumption.
    public var reEstimatesScrollTargets: Bool { self == .lazyVStack }
}
