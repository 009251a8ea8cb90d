/// Item heights with logarithmic-time updates and prefix-offset queries: a
/// Fenwick (binary indexed) tree over the heights.
///
/// Heights are snapped to 1/64 pt (`HeightIndex.quantum`). Every such value,
/// and every sum of them below 2^47 pt, is exact in a `Double`, so offsets
/// never pick up rounding error however many updates a run makes, and the
/// same updates in any order give the same offsets.
package struct HeightIndex: Sendable, Equatable {
    /// The layout unit heights are snapped to, in points.
    package static let quantum: Double = 1.0 / 64.0

    /// Rounds `height` to the nearest layout unit, never below zero.
    package static func snap(_ height: Double) -> Double {
        max(0, (height / quantum).rounded(.toNearestOrAwayFromZero) * quantum)
    }

    private var heights: [Double]
    /// 1-based Fenwick tree: `tree[i]` sums `heights[i - lowbit(i) ..< i]`.
    /// `tree[0]`, which no node uses, holds the sum of all heights: every sum
    /// of heights is exact, so it equals the tree's prefix sum of every item.
    /// (Kept there, not in a property of its own, so that an index takes no
    /// more memory than before.)
    private var tree: [Double]

    // The initialisers and bulk edits take concrete arrays and loop by hand:
    // unspecialised generic algorithms allocate per element in debug builds,
    // and the engine's allocation counts must not depend on that.

    /// Creates an index over `heights`, snapping each.
    /// - Complexity: O(n)
    package init(heights: [Double]) {
        var snapped = heights
        for i in snapped.indices { snapped[i] = HeightIndex.snap(snapped[i]) }
        self.heights = snapped
        self.tree = []
        rebuild()
    }

    /// Creates an index of `count` items of the same height.
    /// - Complexity: O(n)
    package init(repeating height: Double, count: Int) {
        self.heights = [Double](repeating: HeightIndex.snap(height), count: count)
        self.tree = []
        rebuild()
    }

    /// Creates an empty index.
    package init() {
        self.init(heights: [])
    }

    /// The number of items.
    package var count: Int { heights.count }

    /// The sum of all heights.
    /// - Complexity: O(1)
    package var totalHeight: Double { tree[0] }

    /// The height of item `index`.
    /// - Complexity: O(1)
    package subscript(index: Int) -> Double { heights[index] }

    /// Sets the height of item `index` (snapped) and returns the change.
    /// - Complexity: O(log n)
    @discardableResult
    package mutating func setHeight(_ height: Double, at index: Int) -> Double {
        let snapped = HeightIndex.snap(height)
        let delta = snapped - heights[index]
        guard delta != 0 else { return 0 }
        heights[index] = snapped
        tree[0] += delta
        var i = index + 1
        while i < tree.count {
            tree[i] += delta
            i += i & -i
        }
        return delta
    }

    /// The y of item `index`'s top edge: the sum of the heights before it.
    /// `offset(of: count)` is the total height.
    /// - Complexity: O(log n)
    package func offset(of index: Int) -> Double {
        precondition(index >= 0 && index <= heights.count, "index \(index) outside 0...\(heights.count)")
        var sum = 0.0
        var i = index
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    /// The index of the item whose span `[top, top + height)` contains `y`;
    /// 0 for `y` above the content and `count - 1` for `y` at or below its end.
    /// Zero-height items are never returned unless all are zero.
    /// - Complexity: O(log n), a binary search down the tree.
    package func index(containing y: Double) -> Int {
        item(containing: y).index
    }

    /// The index of the item whose span contains `y`, as `index(containing:)`
    /// finds it, and that item's top edge, `offset(of: index)`, found on the
    /// same way down the tree.
    /// - Complexity: O(log n), one binary search down the tree.
    package func item(containing y: Double) -> (index: Int, top: Double) {
        guard !heights.isEmpty else { return (0, 0) }
        var position = 0
        var remaining = y
        // The heights passed on the way down: exactly the prefix sum before
        // `position`, as each is exact.
        var top = 0.0
        // The largest power of two below `tree.count`.
        var step = 1 << (Int.bitWidth - 1 - (tree.count - 1).leadingZeroBitCount)
        tree.withUnsafeBufferPointer { tree in
            while step > 0 {
                let next = position + step
                if next < tree.count && tree[next] <= remaining {
                    position = next
                    remaining -= tree[next]
                    top += tree[next]
                }
                step /= 2
            }
        }
        guard position < heights.count else { return (heights.count - 1, tree[0] - heights[heights.count - 1]) }
        return (position, top)
    }

    /// Inserts items at `index` with the given heights.
    /// - Complexity: O(n)
    package mutating func insert(contentsOf newHeights: [Double], at index: Int) {
        var snapped = newHeights
        for i in snapped.indices { snapped[i] = HeightIndex.snap(snapped[i]) }
        heights.insert(contentsOf: snapped, at: index)
        rebuild()
    }

    /// Removes the items in `range`.
    /// - Complexity: O(n)
    package mutating func removeSubrange(_ range: Range<Int>) {
        heights.removeSubrange(range)
        rebuild()
    }

    /// Replaces every height.
    /// - Complexity: O(n)
    package mutating func replaceAll(with newHeights: [Double]) {
        self = HeightIndex(heights: newHeights)
    }

    /// All heights, in item order.
    package var allHeights: [Double] { heights }

    /// Builds the tree from `heights` in linear time.
    private mutating func rebuild() {
        tree = [Double](repeating: 0, count: heights.count + 1)
        guard tree.count > 1 else { return }
        for i in 1..<tree.count {
            tree[i] += heights[i - 1]
            let parent = i + (i & -i)
            if parent < tree.count { tree[parent] += tree[i] }
        }
        tree[0] = offset(of: heights.count)
    }

    /// Checks every prefix sum against a direct sum of the heights.
    package func _checkInvariants() {
        var sum = 0.0
        for i in 0...heights.count {
            precondition(offset(of: i) == sum, "prefix \(i): \(offset(of: i)) != \(sum)")
            if i < heights.count { sum += heights[i] }
        }
        precondition(tree[0] == sum, "total \(tree[0]) != \(sum)")
    }
}
