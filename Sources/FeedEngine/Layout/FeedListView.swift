/// A read-only look at the engine's rows and their layout: what a position
/// strategy reads (``PositionKeeper``), and what drives or measures the
/// engine (the simulator's drift meter, a test) reads.
///
/// A strategy's lookups are the engine's work, charged to the frame as the
/// engine's own are (an offset or range query in the height index); a look
/// from outside the engine is charged nothing.
public struct FeedListView {
    private let list: FeedList
    /// Whether lookups are the engine's work (a strategy's), charged as such.
    private let chargesLookups: Bool

    init(_ list: FeedList, chargingLookups: Bool = false) {
        self.list = list
        self.chargesLookups = chargingLookups
    }

    /// The rows, in display order.
    public var items: [FeedItem] { list.items }
    /// Changes whenever `items` does: two equal revisions of one list
    /// (`listIdentity`) mean the same rows.
    public var itemsRevision: UInt32 { list.itemsRevision }
    /// Which list this is a view of (an engine's, until a relaunch makes another).
    public var listIdentity: ObjectIdentifier { ObjectIdentifier(list) }
    /// The rows whose cells are on screen, as a range of indices.
    public var displayedRange: Range<Int> { list.displayedRange }
    /// The top of the content (item 0's top), in content coordinates.
    public var contentMinY: Double { list.contentMinY }
    /// The bottom of the content, in content coordinates.
    public var contentMaxY: Double { list.contentMaxY }
    /// Whether the cells on screen must be laid out again.
    public var needsLayout: Bool { list.needsLayout }
    /// Whether the last layout pass measured cells above the reader's reference.
    public var measuredAboveAnchorInLastPass: Bool { list.measuredAboveAnchorInLastPass }

    /// The index of the row with id `id`, if it is in the list.
    /// - Complexity: O(n)
    public func index(of id: PostID) -> Int? { list.index(of: id) }

    /// Row `index`'s top, in content coordinates.
    /// - Complexity: O(log n)
    public func minY(of index: Int) -> Double {
        chargesLookups ? list.minY(of: index) : list.originY + list.layout.minY(of: index)
    }

    /// Row `index`'s height.
    /// - Complexity: O(1)
    public func height(of index: Int) -> Double { list.layout.height(of: index) }

    /// Whether item `index` has been measured (laid out), not estimated.
    public func isMeasured(_ index: Int) -> Bool { list.layout.isMeasured(index) }

    /// The rows intersecting `[minY, maxY)` in content coordinates.
    /// - Complexity: O(log n)
    public func indices(intersecting minY: Double, _ maxY: Double) -> Range<Int> {
        chargesLookups
            ? list.indices(intersecting: minY, maxY)
            : list.layout.indices(intersecting: minY - list.originY, maxY - list.originY)
    }

    /// The first row at least `fraction` visible in `[minY, maxY)` in
    /// content coordinates, with its top.
    /// - Complexity: O(log n + k) for k rows examined.
    public func firstItem(
        visibleAtLeast fraction: Double, in minY: Double, _ maxY: Double
    ) -> (index: Int, top: Double)? {
        chargesLookups
            ? list.firstItem(visibleAtLeast: fraction, in: minY, maxY)
            : list.anchorSearch(visibleAtLeast: fraction, in: minY, maxY).found
    }
}
