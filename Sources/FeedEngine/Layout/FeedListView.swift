/// A read-only look at the engine's rows and their layout, for whoever
/// drives or measures the engine (the simulator's drift meter, a test).
/// Reading through it is not engine work: nothing here is charged to a frame.
public struct FeedListView {
    private let list: FeedList

    init(_ list: FeedList) { self.list = list }

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
    public func minY(of index: Int) -> Double { list.originY + list.layout.minY(of: index) }

    /// Row `index`'s height.
    /// - Complexity: O(1)
    public func height(of index: Int) -> Double { list.layout.height(of: index) }

    /// Whether item `index` has been measured (laid out), not estimated.
    public func isMeasured(_ index: Int) -> Bool { list.layout.isMeasured(index) }

    /// The rows intersecting `[minY, maxY)` in content coordinates.
    /// - Complexity: O(log n)
    public func indices(intersecting minY: Double, _ maxY: Double) -> Range<Int> {
        list.layout.indices(intersecting: minY - list.originY, maxY - list.originY)
    }

    /// The first row at least `fraction` visible in `[minY, maxY)` in
    /// content coordinates, with its top.
    /// - Complexity: O(log n + k) for k rows examined.
    public func firstItem(visibleAtLeast fraction: Double, in minY: Double, _ maxY: Double) -> (index: Int, top: Double)? {
        list.anchorSearch(visibleAtLeast: fraction, in: minY, maxY).found
    }
}
