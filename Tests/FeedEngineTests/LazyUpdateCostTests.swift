import Testing

@testable import FeedEngine

/// What an update of the rows costs in each host: a collection view (and
/// `List`) lays out and compares every row, a lazy stack only the rows on
/// screen (WWDC26 session 321: it lays out until the visible rect is
/// filled, 2:09–2:17, and does "a minimal check of the visible views"
/// instead of diffing its whole content, 13:03–13:10).
@Suite("The cost of an update in a lazy stack")
struct LazyUpdateCostTests {
    static func item(_ id: Int) -> FeedItem {
        FeedItem(post: Post(id: PostID(id), authorID: 1, textLength: 40 + id % 200))
    }

    /// The work of a batch that inserts 3 rows at the top of 2,000, with
    /// about a screenful on screen.
    static func batchWork(lazy: Bool) -> (work: WorkCounters, onScreen: Int) {
        var configuration = FeedListConfiguration(estimatedItemHeight: 180, width: 390)
        configuration.updatesVisibleRowsOnly = lazy
        let list = FeedList(configuration: configuration)
        let before = (1...2_000).map(Self.item)
        list.replaceAll(with: before)
        list.updateVisibleRect(minY: 9_000, height: 800)
        _ = list.drainWork()
        let after = (5_001...5_003).map(Self.item) + before
        list.apply(heckelDiff(from: before, to: after), newItems: after, anchorIndex: nil)
        return (list.drainWork(), list.displayedRange.count)
    }

    @Test("a batch update: a collection view lays out and compares every row, a lazy stack the rows on screen")
    func batchUpdate() {
        let collection = Self.batchWork(lazy: false)
        let lazy = Self.batchWork(lazy: true)
        #expect(collection.work.itemsLaidOut == 2_003)
        #expect(collection.work.diffElements >= 2_000)
        #expect(lazy.work.itemsLaidOut == 0)
        #expect(lazy.work.diffElements == lazy.onScreen && lazy.onScreen > 0 && lazy.onScreen < 20, "\(lazy)")
        #expect(lazy.work.changesApplied == collection.work.changesApplied)
    }

    @Test("a reload: a collection view places every row, a lazy stack none until it lays out the screen")
    func reload() {
        for lazy in [false, true] {
            var configuration = FeedListConfiguration(estimatedItemHeight: 180, width: 390)
            configuration.updatesVisibleRowsOnly = lazy
            let list = FeedList(configuration: configuration)
            list.replaceAll(with: (1...2_000).map(Self.item))
            #expect(list.drainWork().itemsLaidOut == (lazy ? 0 : 2_000))
        }
    }
}
