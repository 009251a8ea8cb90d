/// How a `FeedList` lays out its cells.
public struct FeedListConfiguration: Hashable, Sendable {
    /// The height assumed for a post before its cell is measured, in points
    /// (UICollectionViewFlowLayout's `estimatedItemSize`).
    public var estimatedItemHeight: Double
    /// The width cells are laid out at, in points.
    public var width: Double
    /// Dynamic Type scale; 1 is the default text size.
    public var typeScale: Double
    public var metrics: CellLayoutMetrics

    public init(
        estimatedItemHeight: Double,
        width: Double,
        typeScale: Double = 1,
        metrics: CellLayoutMetrics = CellLayoutMetrics()
    ) {
        self.estimatedItemHeight = estimatedItemHeight
        self.width = width
        self.typeScale = typeScale
        self.metrics = metrics
    }
}

/// The list part of the feed engine: the posts, their layout and the cells
/// on screen. It is driven the way UICollectionView drives its data source
/// and layout: the owner of the scroll view reports the visible rect each
/// frame, and the list materialises cells that come into it (configure, and
/// measure the first time) and ends the display of cells that leave it.
///
/// Every call records the work it did in `pendingWork`; the owner drains it.
public final class FeedList {
    public private(set) var configuration: FeedListConfiguration
    public private(set) var posts: [Post] = []
    public private(set) var layout: ListLayout
    /// The cells currently displayed, as a range of item indices.
    public private(set) var displayedRange: Range<Int> = 0..<0
    /// Work done since the last `drainWork()`.
    public private(set) var pendingWork = WorkCounters()
    /// Whether the data or geometry changed since the last visible-rect
    /// update, so the cells on screen must be laid out again even if the
    /// rect did not move (UIView's `setNeedsLayout`).
    public private(set) var needsLayout = false

    /// Upper bound on layout passes per viewport update: self-sizing can pull
    /// more cells into the rect, which are then measured in turn.
    static let maximumLayoutPasses = 16

    public init(configuration: FeedListConfiguration) {
        self.configuration = configuration
        self.layout = ListLayout(count: 0, estimatedHeight: configuration.estimatedItemHeight)
    }

    /// The height of all content, in points.
    /// - Complexity: O(log n)
    public var contentHeight: Double { layout.contentHeight }

    /// Returns the work done since the last call and resets it.
    public func drainWork() -> WorkCounters {
        defer { pendingWork = WorkCounters() }
        return pendingWork
    }

    /// Replaces the whole feed (first load, or reload): every item starts at
    /// the estimated height and every cell is redisplayed.
    /// - Complexity: O(n)
    public func replaceAll(with newPosts: [Post]) {
        posts = newPosts
        layout = ListLayout(count: newPosts.count, estimatedHeight: configuration.estimatedItemHeight)
        displayedRange = 0..<0
        needsLayout = true
        pendingWork.itemsLaidOut += newPosts.count
    }

    /// The measured height of `post` at the current width and type size.
    public func measuredHeight(of post: Post) -> Double {
        configuration.metrics.height(of: post, width: configuration.width, typeScale: configuration.typeScale)
    }

    /// The top edge of item `index`, in content coordinates.
    /// - Complexity: O(log n)
    public func minY(of index: Int) -> Double {
        pendingWork.offsetQueries += 1
        return layout.minY(of: index)
    }

    /// The index of the item at content coordinate `y`, if any.
    /// - Complexity: O(log n)
    public func index(at y: Double) -> Int? {
        pendingWork.offsetQueries += 1
        let range = layout.indices(intersecting: y, y + HeightIndex.quantum)
        return range.isEmpty ? nil : range.lowerBound
    }

    /// Brings the displayed cells in line with the visible rect
    /// `[minY, minY + height)` in content coordinates and returns the
    /// displayed range. Cells entering the rect are configured, and measured
    /// if they still have an estimated height; cells leaving it end display.
    /// - Complexity: O(k log n) for k cells entering the rect.
    @discardableResult
    public func updateVisibleRect(minY: Double, height: Double) -> Range<Int> {
        var pass = 0
        var visible = layout.indices(intersecting: minY, minY + height)
        pendingWork.offsetQueries += 2
        while pass < FeedList.maximumLayoutPasses {
            pass += 1
            let metrics = configuration.metrics, width = configuration.width, typeScale = configuration.typeScale
            let measuredNow = layout.measureUnmeasured(in: visible) { index in
                metrics.height(of: posts[index], width: width, typeScale: typeScale)
            }
            guard measuredNow > 0 else { break }
            pendingWork.cellsMeasured += measuredNow
            pendingWork.heightUpdates += measuredNow
            visible = layout.indices(intersecting: minY, minY + height)
            pendingWork.offsetQueries += 2
        }
        for index in visible where !displayedRange.contains(index) {
            pendingWork.cellsConfigured += 1
        }
        displayedRange = visible
        needsLayout = false
        return visible
    }

    /// Changes the layout width (rotation, split view): every cell will be
    /// measured again when next displayed.
    public func setWidth(_ width: Double) {
        guard width != configuration.width else { return }
        configuration.width = width
        invalidateMeasurements()
    }

    /// Changes the Dynamic Type scale: every cell will be measured again.
    public func setTypeScale(_ typeScale: Double) {
        guard typeScale != configuration.typeScale else { return }
        configuration.typeScale = typeScale
        invalidateMeasurements()
    }

    private func invalidateMeasurements() {
        layout.invalidateMeasurements()
        displayedRange = 0..<0
        needsLayout = true
        pendingWork.itemsLaidOut += layout.count
    }
}
