/// The vertical geometry of a list whose item heights start as estimates and
/// become measured when a cell is first materialised (self-sizing).
package struct ListLayout: Sendable, Equatable {
    /// The height assumed for an item that has not been measured yet.
    package var estimatedHeight: Double
    private(set) var heights: HeightIndex
    private(set) var measured: [Bool]
    /// How many rows the estimate is the mean height of, when it follows
    /// the rows measured so far (`estimatesFromMeasured`): the rows placed
    /// since the layout was last invalidated, as a SwiftUI lazy stack
    /// estimates the rows it has not loaded ("Dive into lazy stacks and
    /// scrolling with SwiftUI", WWDC26 session 321, 2:42–3:42). Items
    /// inserted later start at that mean; items already estimated keep their
    /// estimate until they are measured. −1 when the estimate is fixed (one
    /// for every row, as UIKit's self-sizing has): 4 bytes, so that a list
    /// takes no more memory than before it could estimate either way.
    private(set) var meanSamples: Int32 = -1

    /// Whether the estimate is the running mean of the rows measured.
    package var estimatesFromMeasured: Bool {
        get { meanSamples >= 0 }
        set { meanSamples = newValue ? max(0, meanSamples) : -1 }
    }

    /// Creates a layout of `count` items, all at the estimated height.
    /// - Complexity: O(n)
    package init(count: Int, estimatedHeight: Double) {
        self.estimatedHeight = HeightIndex.snap(estimatedHeight)
        self.heights = HeightIndex(repeating: self.estimatedHeight, count: count)
        self.measured = [Bool](repeating: false, count: count)
    }

    /// The number of items.
    package var count: Int { measured.count }

    /// The sum of every item's current height.
    /// - Complexity: O(1)
    package var contentHeight: Double { heights.totalHeight }

    /// The top edge of item `index`; `minY(of: count)` is the content height.
    /// - Complexity: O(log n)
    package func minY(of index: Int) -> Double { heights.offset(of: index) }

    /// The current height of item `index`.
    /// - Complexity: O(1)
    package func height(of index: Int) -> Double { heights[index] }

    /// Whether item `index` has been measured.
    package func isMeasured(_ index: Int) -> Bool { measured[index] }

    /// The number of measured items.
    package var measuredCount: Int {
        var total = 0
        for flag in measured where flag { total += 1 }
        return total
    }

    /// The items intersecting `[minY, maxY)`: the first found by binary
    /// search, the last by walking down from it (a screen holds a handful
    /// of items), or by a second search when more than `walkLimit` fit.
    /// - Complexity: O(log n)
    package func indices(intersecting minY: Double, _ maxY: Double) -> Range<Int> {
        span(intersecting: minY, maxY).indices
    }

    /// `indices(intersecting: minY, maxY)` and the first one's top.
    private func span(intersecting minY: Double, _ maxY: Double) -> (indices: Range<Int>, firstTop: Double) {
        guard count > 0, maxY > minY, maxY > 0, minY < contentHeight else { return (0..<0, 0) }
        let (first, firstTop) = heights.item(containing: max(0, minY))
        // The last item whose top is at most `maxY`, as
        // `heights.item(containing: maxY)` finds it: every sum of heights is
        // exact, so walking adds up to the same tops as the tree's search.
        var last = first
        var top = firstTop
        var walked = 0
        while last + 1 < count, top + heights[last] <= maxY {
            if walked == ListLayout.walkLimit {
                (last, top) = heights.item(containing: maxY)
                break
            }
            top += heights[last]
            last += 1
            walked += 1
        }
        if top >= maxY, last > first { last -= 1 }
        return (first..<(last + 1), firstTop)
    }

    /// Items walked before a range query searches the tree instead.
    static let walkLimit = 32

    /// The first item intersecting `[minY, maxY)` that is at least
    /// `fraction` visible in it (and not of zero height), with its top; the
    /// rect is in coordinates where item 0's top is `origin`. When none is
    /// (an item taller than the rect fills it: a long post in a landscape
    /// viewport), the item that fills the most of the rect, the first of
    /// equals: the one the reader is reading. `examined` counts the items
    /// looked at, found or not.
    /// - Complexity: O(log n + k) for k items examined.
    package func firstItem(
        visibleAtLeast fraction: Double, in minY: Double, _ maxY: Double, origin: Double
    ) -> (found: (index: Int, top: Double)?, examined: Int) {
        let (range, firstOffset) = span(intersecting: minY - origin, maxY - origin)
        var offset = firstOffset
        var fullest: (index: Int, top: Double, visible: Double)?
        for index in range {
            let height = heights[index]
            // As `origin + minY(of: index)`: the offset is exact.
            let top = origin + offset
            let visible = min(top + height, maxY) - max(top, minY)
            if height > 0, visible / height >= fraction { return ((index, top), index - range.lowerBound + 1) }
            if visible > 0, visible > fullest?.visible ?? 0 { fullest = (index, top, visible) }
            offset += height
        }
        return (fullest.map { ($0.index, $0.top) }, range.count)
    }

    /// Records a measured height for item `index` and returns the change in
    /// height.
    /// - Complexity: O(log n)
    @discardableResult
    package mutating func setMeasuredHeight(_ height: Double, at index: Int) -> Double {
        measured[index] = true
        let delta = heights.setHeight(height, at: index)
        noteMeasured(index)
        return delta
    }

    /// Adds item `index`'s measured height to the mean the estimate follows.
    /// The running mean moves by the new row's share, snapped to the layout
    /// unit: the same arithmetic, in the same order, on every platform.
    private mutating func noteMeasured(_ index: Int) {
        guard meanSamples >= 0, meanSamples < Int32.max else { return }
        meanSamples += 1
        estimatedHeight = HeightIndex.snap(estimatedHeight + (heights[index] - estimatedHeight) / Double(meanSamples))
    }

    /// Measures every item of `range` that still has an estimated height,
    /// with `measure` giving an item's height, and returns how many it measured.
    /// - Complexity: O(k log n) for k unmeasured items.
    package mutating func measureUnmeasured(
        in range: Range<Int>, measure: (Int) -> Double, onChange: (Int, Double) -> Void = { _, _ in }
    ) -> Int {
        var count = 0
        var index = range.lowerBound
        while index < range.upperBound {
            if !measured[index] {
                measured[index] = true
                let delta = heights.setHeight(measure(index), at: index)
                noteMeasured(index)
                if delta != 0 { onChange(index, delta) }
                count += 1
            }
            index += 1
        }
        return count
    }

    /// Marks every item unmeasured and back at the estimated height (a width
    /// or type-size change invalidates every cached size).
    /// - Complexity: O(n)
    package mutating func resetToEstimates() {
        self = emptied(count: count)
    }

    /// A layout of `count` items at the estimated height, estimating as
    /// this one does: a mean the measured rows made stays the estimate, and
    /// the rows measured from now on make the next.
    /// - Complexity: O(n)
    package func emptied(count: Int) -> ListLayout {
        var layout = ListLayout(count: count, estimatedHeight: estimatedHeight)
        layout.estimatesFromMeasured = estimatesFromMeasured
        return layout
    }

    /// Inserts `count` estimated items at `index`.
    /// - Complexity: O(n)
    package mutating func insertEstimated(count: Int, at index: Int) {
        heights.insert(contentsOf: [Double](repeating: estimatedHeight, count: count), at: index)
        measured.insert(contentsOf: [Bool](repeating: false, count: count), at: index)
    }

    /// Inserts items at `index` with known heights and measured flags.
    /// - Complexity: O(n)
    package mutating func insert(heights newHeights: [Double], measured newMeasured: [Bool], at index: Int) {
        precondition(newHeights.count == newMeasured.count)
        heights.insert(contentsOf: newHeights, at: index)
        measured.insert(contentsOf: newMeasured, at: index)
    }

    /// Removes the items in `range`.
    /// - Complexity: O(n)
    package mutating func removeSubrange(_ range: Range<Int>) {
        heights.removeSubrange(range)
        measured.removeSubrange(range)
    }

    /// Replaces every item's height and measured flag at once.
    /// - Complexity: O(n)
    package mutating func replaceAll(heights newHeights: [Double], measured newMeasured: [Bool]) {
        precondition(newHeights.count == newMeasured.count)
        heights.replaceAll(with: newHeights)
        measured = newMeasured
    }

    /// Every item's current height, in order.
    package var allHeights: [Double] { heights.allHeights }
    /// Every item's measured flag, in order.
    package var allMeasured: [Bool] { measured }
}
