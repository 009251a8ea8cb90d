extension FeedEngine {
    /// What must hold between the engine's parts, checked in any build and
    /// reported rather than trapped on, for a caller that searches for
    /// sessions that break the engine (`feedsim explore`): every row shows a
    /// post the engine knows, no post shows twice, the layout has one finite,
    /// positive height per row, and the displayed rows exist.
    ///
    /// Returns one sentence per broken invariant; empty when all hold.
    /// - Complexity: O(n) for n rows.
    package func invariantViolations() -> [String] {
        var problems: [String] = []
        let items = list.items
        if list.layout.count != items.count {
            problems.append("the layout has \(list.layout.count) heights for \(items.count) rows")
        }
        var seen = Set<PostID>(minimumCapacity: items.count)
        for (row, item) in items.enumerated() {
            if !seen.insert(item.id).inserted { problems.append("post \(item.id) is shown twice (row \(row))") }
            if !store.knows(item.id) {
                problems.append("row \(row) shows post \(item.id), which the engine does not know")
            }
            if row < list.layout.count {
                let height = list.layout.height(of: row)
                if !height.isFinite || height <= 0 { problems.append("row \(row) has height \(height)") }
            }
        }
        let height = list.contentHeight
        if !height.isFinite || height < 0 { problems.append("the content height is \(height)") }
        if !list.originY.isFinite { problems.append("the content's origin is \(list.originY)") }
        let displayed = list.displayedRange
        if displayed.upperBound > items.count {
            problems.append(
                "rows \(displayed.lowerBound)..<\(displayed.upperBound) are displayed but the list has \(items.count)")
        }
        return problems
    }
}
