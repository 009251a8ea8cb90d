/// How a `FeedList` lays out its cells.
package struct FeedListConfiguration: Hashable, Sendable {
    /// The height assumed for a post before its cell is measured, in points
    /// (UICollectionViewFlowLayout's `estimatedItemSize`).
    package var estimatedItemHeight: Double
    /// The width cells are laid out at, in points.
    package var width: Double
    /// Dynamic Type scale; 1 is the default text size.
    package var typeScale: Double
    package var metrics: CellLayoutMetrics
    package var coordinateSpace: CoordinateSpace
    /// Whether rows not yet measured are estimated at the mean height of the
    /// rows measured so far (a SwiftUI lazy stack) instead of at
    /// `estimatedItemHeight`, which is then only the first estimate.
    package var estimatesFromMeasured = false
    /// Whether an update of the rows costs only the rows on screen (a
    /// SwiftUI lazy stack) instead of laying out and comparing every row
    /// (a collection view).
    package var updatesVisibleRowsOnly = false
    /// Whether cells' contents are drawn off the main thread: configuring a
    /// cell on the main thread then costs only the cell itself, not its
    /// text and media (the layout strategy's `displaysAsynchronously`).
    package var displaysAsynchronously = false
    /// Whether a precomputed height is dropped when its row's content, the
    /// width or the text size changed since it was computed. Always, but
    /// for the tests that show the `precomputed_height` property catching a
    /// strategy that applies stale heights.
    package var dropsStalePrecomputedHeights = true

    package init(
        estimatedItemHeight: Double,
        width: Double,
        typeScale: Double = 1,
        metrics: CellLayoutMetrics = CellLayoutMetrics(),
        coordinateSpace: CoordinateSpace = .ordinary
    ) {
        self.estimatedItemHeight = estimatedItemHeight
        self.width = width
        self.typeScale = typeScale
        self.metrics = metrics
        self.coordinateSpace = coordinateSpace
    }
}

/// Where the list's content sits in the scroll view's coordinates.
public enum CoordinateSpace: Hashable, Sendable {
    /// Item 0's top is at y = 0; items inserted above push the rest down.
    case ordinary
    /// TiledView's virtual content space: a content size of `size` points
    /// with the first item initially at `anchorY`. Items inserted above, and
    /// height changes above the first visible item, grow the content upwards,
    /// so the items on screen keep their y and contentOffset never has to change.
    case virtual(size: Double, anchorY: Double)

    /// TiledView's numbers: 100,000,000 pt with the anchor at 50,000,000.
    public static let tiledView = CoordinateSpace.virtual(size: 100_000_000, anchorY: 50_000_000)

    /// Where item 0's top starts.
    public var initialOriginY: Double {
        switch self {
        case .ordinary: 0
        case let .virtual(_, anchorY): anchorY
        }
    }

    public var isVirtual: Bool {
        if case .virtual = self { return true }
        return false
    }
}

/// The list part of the feed engine: the items, their layout and the cells
/// on screen. It is driven the way UICollectionView drives its data source
/// and layout: the owner of the scroll view reports the visible rect each
/// frame, and the list materialises cells that come into it (configure, and
/// measure the first time) and ends the display of cells that leave it.
///
/// Every call records the work it did in `pendingWork`; the owner drains it.
package final class FeedList {
    @exclusivity(unchecked) package private(set) var configuration: FeedListConfiguration
    @exclusivity(unchecked) package private(set) var items: [FeedItem] = [] {
        didSet { itemsRevision &+= 1 }
    }
    @exclusivity(unchecked) package private(set) var layout: ListLayout {
        // Any change of the geometry, even a pass that measured nothing,
        // forgets the anchor search it answered.
        didSet { lastAnchorSearch = nil }
    }
    /// The last anchor search (`firstItem(visibleAtLeast:in:_:)`) and its
    /// answer. A frame asks the same of an unchanged layout twice, the
    /// drift meter's capture and then the engine's at the start of its
    /// layout pass: about 3% of a session's time.
    @exclusivity(unchecked) private var lastAnchorSearch: AnchorSearch?
    /// The y of item 0's top in content coordinates.
    @exclusivity(unchecked) package private(set) var originY: Double
    /// The cells currently displayed, as a range of item indices.
    @exclusivity(unchecked) package private(set) var displayedRange: Range<Int> = 0..<0
    /// Per item: whether its cell is on screen and configured. Survives a
    /// batch update for items that were neither inserted nor updated, so
    /// their cells are not configured again (as UICollectionView keeps them).
    @exclusivity(unchecked) private var isDisplayed: [Bool] = []
    /// Work done since the last `drainWork()`.
    @exclusivity(unchecked) package private(set) var pendingWork = WorkCounters()
    /// The item whose position measuring must not move: the first item
    /// displayed, carried across updates by id. Height changes of items
    /// before it are "above" the reader.
    package private(set) var layoutAnchor: Int? {
        get { layoutAnchorIndex == FeedList.noLayoutAnchor ? nil : layoutAnchorIndex }
        set { layoutAnchorIndex = newValue ?? FeedList.noLayoutAnchor }
    }
    /// `layoutAnchor`, with `noLayoutAnchor` for none: a plain integer, not
    /// an optional, whose tag byte padded to a word made the list 8 bytes
    /// larger.
    @exclusivity(unchecked) private var layoutAnchorIndex = FeedList.noLayoutAnchor
    private static let noLayoutAnchor = Int.min
    @exclusivity(unchecked) private var pinnedLayoutAnchor: Int?
    /// Whether the last visible-rect update measured an item above
    /// `layoutAnchor` whose height changed.
    @exclusivity(unchecked) package private(set) var measuredAboveAnchorInLastPass = false
    /// Whether the data or geometry changed since the last visible-rect
    /// update, so the cells on screen must be laid out again even if the
    /// rect did not move (UIView's `setNeedsLayout`).
    @exclusivity(unchecked) package private(set) var needsLayout = false
    /// Whether precomputed heights applied since the last visible-rect
    /// update changed rows above the reader (in the flags' word: no room).
    @exclusivity(unchecked) private var precomputedMovedAbove = false
    /// Changes whenever `items` does: a reader that kept a revision knows,
    /// by comparing it, whether the rows it read are still the rows. 32 bits
    /// (wrapping), in the padding after the two flags above, so that the
    /// list takes no more memory than before it had one. (The flags sit
    /// together for the same reason: the layout's estimator took the 8
    /// bytes `needsLayout` had on its own.)
    @exclusivity(unchecked) package private(set) var itemsRevision: UInt32 = 0
    /// Called for each cell that becomes visible, after it is measured: the
    /// place to configure it (view models, image requests).
    @exclusivity(unchecked) package var onConfigure: ((Int) -> Void)?
    /// Called for each cell that leaves the screen.
    @exclusivity(unchecked) package var onEndDisplay: ((PostID) -> Void)?

    /// Upper bound on layout passes per viewport update: self-sizing can pull
    /// more cells into the rect, which are then measured in turn.
    static let maximumLayoutPasses = 16

    package init(configuration: FeedListConfiguration) {
        self.configuration = configuration
        self.layout = ListLayout(count: 0, estimatedHeight: configuration.estimatedItemHeight)
        self.layout.estimatesFromMeasured = configuration.estimatesFromMeasured
        self.originY = configuration.coordinateSpace.initialOriginY
        cellWork.reserveCapacity(FeedList.cellWorkCapacity)
    }

    /// The top of the content, in content coordinates.
    package var contentMinY: Double { originY }
    /// The bottom of the content, in content coordinates.
    /// - Complexity: O(log n)
    package var contentMaxY: Double { originY + layout.contentHeight }
    /// The height of all content, in points.
    /// - Complexity: O(log n)
    package var contentHeight: Double { layout.contentHeight }

    /// Returns the work done since the last call and resets it.
    /// Each cell configured or measured since the last call is handed to
    /// `visitCell`, in the order the work was done.
    /// - Complexity: O(k) for k cells; allocates nothing once warmed up.
    package func drainWork(visitingCells visitCell: (CellWork) -> Void = { _ in }) -> WorkCounters {
        for cell in cellWork { visitCell(cell) }
        cellWork.removeAll(keepingCapacity: true)
        defer { pendingWork = WorkCounters() }
        return pendingWork
    }

    /// Cells configured or measured since the last `drainWork`.
    @exclusivity(unchecked) private var cellWork: [CellWork] = []

    /// Keeps `height`, computed off the main thread for the row `id`, in
    /// `heights`: the next layout pass given them applies it if the row is
    /// still estimated then.
    func addPrecomputedHeight(
        _ height: Double, for id: PostID, near hint: Int, key: LayoutKey, to heights: PrecomputedHeights
    ) {
        heights.waiting.append(PrecomputedHeights.Waiting(id: id, height: height, hint: hint, key: key))
        needsLayout = true
    }

    /// The index of row `id`, found near `hint`, if a height computed from
    /// `key` may still replace its estimate: the row is there, still
    /// estimated, and its content, the width and the text size are still
    /// `key`'s (unless `dropsStalePrecomputedHeights` is off). Asked when a
    /// height comes back and again when it is applied.
    func rowAwaitingPrecomputedHeight(_ id: PostID, key: LayoutKey, near hint: Int) -> Int? {
        guard let index = index(of: id, near: hint), !layout.isMeasured(index) else { return nil }
        if configuration.dropsStalePrecomputedHeights, LayoutKey(items[index], in: configuration) != key { return nil }
        return index
    }

    /// The reader's reference for a pass over `visible`: the remembered
    /// anchor if it is still in view, else the first displayed cell that
    /// stays displayed. A rect that shares nothing with what was on screen
    /// has no reference, and its measurements move nothing the reader saw.
    private func referenceAnchor(in visible: Range<Int>) -> Int {
        if let pinned = pinnedLayoutAnchor {
            pinned
        } else if let remembered = layoutAnchor, visible.contains(remembered) {
            remembered
        } else if displayedRange.overlaps(visible) {
            max(displayedRange.lowerBound, visible.lowerBound)
        } else {
            Int.min
        }
    }

    /// Applies the heights computed off the main thread that arrived, each
    /// to its row if it is still estimated, before the layout pass of the
    /// rect from `minY`: returns their change above the reader's reference,
    /// which the owner corrects before laying out the rect, so that the
    /// pass lays out the rows the reader will see. In the virtual space the
    /// content grows upwards instead, and nothing is returned.
    package func applyPrecomputedHeights(_ precomputed: PrecomputedHeights, minY: Double, height: Double) -> Double {
        guard !precomputed.waiting.isEmpty else { return 0 }
        let anchor = referenceAnchor(in: indices(intersecting: minY, minY + height))
        var above = 0.0
        applyWaitingHeights(precomputed) { index, delta in if index < anchor { above += delta } }
        guard above != 0 else { return 0 }
        precomputedMovedAbove = true
        guard !configuration.coordinateSpace.isVirtual else {
            originY -= above
            return 0
        }
        return above
    }

    /// Applies the precomputed heights that arrived, each to its row if it
    /// is still estimated and its content and geometry are still the ones
    /// it was computed for; `onChange` hears each row's change in height.
    private func applyWaitingHeights(_ precomputed: PrecomputedHeights, onChange: (Int, Double) -> Void) {
        for pending in precomputed.waiting {
            guard let index = rowAwaitingPrecomputedHeight(pending.id, key: pending.key, near: pending.hint) else {
                continue
            }
            let measured = measuredHeight(of: items[index])
            if measured != pending.height {
                precomputed.tally.mismatches += 1
                if precomputed.tally.firstMismatch == nil {
                    precomputed.tally.firstMismatch =
                        """
                        row \(pending.id) got a precomputed height of \(pending.height) pt where measuring it \
                        gives \(measured) pt
                        """
                }
            }
            let delta = layout.setMeasuredHeight(pending.height, at: index)
            precomputed.tally.applied += 1
            pendingWork.heightUpdates += 1
            if delta != 0 { onChange(index, delta) }
        }
        precomputed.waiting.removeAll(keepingCapacity: true)
    }

    /// Cells a frame may configure or measure before the log grows: a
    /// screen holds about a dozen cells, and a relayout measures the ones
    /// around the anchor too.
    static let cellWorkCapacity = 64

    /// Records that item `index`'s cell was configured or measured.
    private func record(_ kind: CellWork.Kind, _ index: Int) {
        var cell = CellWork(kind, items[index])
        if kind == .configure, configuration.displaysAsynchronously {
            cell.textCharacters = 0
            cell.mediaItems = 0
            cell.cards = []
        }
        cellWork.append(cell)
        switch kind {
        case .configure:
            pendingWork.cellsConfigured += 1
            pendingWork.configuredTextCharacters += cell.textCharacters
            pendingWork.configuredMediaItems += Int32(cell.mediaItems)
            if cell.cards.contains(.quote) { pendingWork.configuredQuotes += 1 }
            if cell.cards.contains(.externalCard) { pendingWork.configuredExternalCards += 1 }
        case .measure:
            pendingWork.cellsMeasured += 1
            pendingWork.heightUpdates += 1
            pendingWork.measuredTextCharacters += cell.textCharacters
            pendingWork.measuredMediaItems += Int32(cell.mediaItems)
            if cell.isThreadRow { pendingWork.measuredThreadRows += 1 }
            if cell.cards.contains(.quote) { pendingWork.measuredQuotes += 1 }
            if cell.cards.contains(.externalCard) { pendingWork.measuredExternalCards += 1 }
        }
    }

    /// Records that the body of item `index`'s row ran again outside an
    /// update of its item (a lazy stack's kept row on an environment
    /// change, or a row on screen that reads the whole feed): the work of
    /// configuring its cell, which a cost model charges as one.
    package func recordBodyUpdate(at index: Int) {
        record(.configure, index)
    }

    /// Records work done on the list's behalf by its owner.
    package func addWork(_ work: WorkCounters) {
        pendingWork += work
    }

    /// Replaces the whole feed (first load, or reload): every item starts at
    /// the estimated height and every cell is redisplayed.
    /// - Complexity: O(n)
    package func replaceAll(with newItems: [FeedItem]) {
        endDisplayOfAll()
        items = newItems
        isDisplayed = [Bool](repeating: false, count: newItems.count)
        layout = layout.emptied(count: newItems.count)
        originY = configuration.coordinateSpace.initialOriginY
        layoutAnchor = nil
        needsLayout = true
        // A lazy stack places no row until it lays out the screen.
        if !configuration.updatesVisibleRowsOnly { pendingWork.itemsLaidOut += newItems.count }
    }

    /// The measured height of `item` at the current width and type size.
    package func measuredHeight(of item: FeedItem) -> Double {
        configuration.metrics.height(of: item, width: configuration.width, typeScale: configuration.typeScale)
    }

    /// The top edge of item `index`, in content coordinates.
    /// - Complexity: O(log n)
    package func minY(of index: Int) -> Double {
        pendingWork.offsetQueries += 1
        return originY + layout.minY(of: index)
    }

    /// The index of the item with id `id`, if it is in the list.
    /// - Complexity: O(n)
    package func index(of id: PostID) -> Int? {
        var index = 0
        while index < items.count {
            if items[index].id == id { return index }
            index += 1
        }
        return nil
    }

    /// The index of the item with id `id`, searched outward from `hint`:
    /// ids are unique in the list, so it is the index `index(of:)` finds,
    /// found in a few steps when the item is near the hint (an image for a
    /// row on screen).
    /// - Complexity: O(d) for an item d rows from `hint`; O(n) when absent.
    package func index(of id: PostID, near hint: Int) -> Int? {
        items.withUnsafeBufferPointer { items in
            let start = min(max(hint, 0), items.count)
            var below = start
            var above = start - 1
            while below < items.count || above >= 0 {
                if below < items.count {
                    if items[below].id == id { return below }
                    below += 1
                }
                if above >= 0 {
                    if items[above].id == id { return above }
                    above -= 1
                }
            }
            return nil
        }
    }

    /// The items intersecting `[minY, maxY)` in content coordinates.
    /// - Complexity: O(log n)
    package func indices(intersecting minY: Double, _ maxY: Double) -> Range<Int> {
        pendingWork.offsetQueries += 2
        return layout.indices(intersecting: minY - originY, maxY - originY)
    }

    /// The first item at least `fraction` visible in `[minY, maxY)` in
    /// content coordinates, with its top. Charged as the range query and a
    /// top for each item examined, the lookups a layout answers it with.
    /// - Complexity: O(log n + k) for k items examined.
    package func firstItem(
        visibleAtLeast fraction: Double, in minY: Double, _ maxY: Double
    ) -> (index: Int, top: Double)? {
        let search = anchorSearch(visibleAtLeast: fraction, in: minY, maxY)
        pendingWork.offsetQueries += 2 + search.examined
        return search.found
    }

    /// A search for the first item at least `fraction` visible in
    /// `[minY, maxY)`, and what it found.
    private struct AnchorSearch {
        var fraction: Double
        var minY: Double
        var maxY: Double
        var originY: Double
        var found: (index: Int, top: Double)?
        var examined: Int

        func asks(_ fraction: Double, _ minY: Double, _ maxY: Double, _ originY: Double) -> Bool {
            self.fraction == fraction && self.minY == minY && self.maxY == maxY && self.originY == originY
        }
    }

    /// `layout.firstItem(visibleAtLeast:in:_:origin:)`, answered from the
    /// last search when nothing it depends on has changed since. Charges
    /// nothing: the engine's callers charge what the search would have
    /// cost, found again or not, so the work counted is the same.
    /// - Complexity: O(1) when asked again; else O(log n + k) for k items examined.
    func anchorSearch(
        visibleAtLeast fraction: Double, in minY: Double, _ maxY: Double
    ) -> (found: (index: Int, top: Double)?, examined: Int) {
        if let last = lastAnchorSearch, last.asks(fraction, minY, maxY, originY) { return (last.found, last.examined) }
        let (found, examined) = layout.firstItem(visibleAtLeast: fraction, in: minY, maxY, origin: originY)
        lastAnchorSearch = AnchorSearch(
            fraction: fraction, minY: minY, maxY: maxY, originY: originY, found: found, examined: examined)
        return (found, examined)
    }

    /// Brings the displayed cells in line with the visible rect
    /// `[minY, minY + height)` in content coordinates and returns the
    /// displayed range. Cells entering the rect are measured if they still
    /// have an estimated height, then configured; cells leaving it end display.
    ///
    /// Measuring can change the height of items above `layoutAnchor` (a cell
    /// scrolled into view at the top). In the virtual content space those
    /// changes grow the content upwards; the sum of them is returned so the
    /// owner can correct the offset in the ordinary space.
    /// - Complexity: O(k log n) for k cells entering the rect.
    @discardableResult
    package func updateVisibleRect(minY: Double, height: Double) -> (visible: Range<Int>, heightChangeAbove: Double) {
        var visible = indices(intersecting: minY, minY + height)
        var changeAbove = 0.0
        var pass = 0
        // Precomputed heights applied above the reader just before count as
        // measured in this pass.
        measuredAboveAnchorInLastPass = precomputedMovedAbove
        precomputedMovedAbove = false
        let anchor = referenceAnchor(in: visible)
        while pass < FeedList.maximumLayoutPasses {
            pass += 1
            let metrics = configuration.metrics, width = configuration.width, typeScale = configuration.typeScale
            let items = self.items
            var aboveThisPass = 0.0
            let measuredNow = layout.measureUnmeasured(in: visible) { index in
                record(.measure, index)
                return metrics.height(of: items[index], width: width, typeScale: typeScale)
            } onChange: { index, delta in
                if index < anchor { aboveThisPass += delta }
            }
            if aboveThisPass != 0 { measuredAboveAnchorInLastPass = true }
            guard measuredNow > 0 else { break }
            if configuration.coordinateSpace.isVirtual {
                originY -= aboveThisPass
            } else {
                changeAbove += aboveThisPass
            }
            visible = indices(intersecting: minY, minY + height)
        }
        var index = displayedRange.lowerBound
        while index < displayedRange.upperBound {
            if !visible.contains(index), isDisplayed[index] {
                isDisplayed[index] = false
                onEndDisplay?(items[index].id)
            }
            index += 1
        }
        index = visible.lowerBound
        while index < visible.upperBound {
            if !isDisplayed[index] {
                isDisplayed[index] = true
                record(.configure, index)
                onConfigure?(index)
            }
            index += 1
        }
        displayedRange = visible
        layoutAnchor = visible.isEmpty ? nil : visible.lowerBound
        needsLayout = false
        return (visible, changeAbove)
    }

    /// Applies a change of the whole item list as a batch update: `changes`
    /// turns `items` into `newItems`. Surviving items keep their measured
    /// heights; inserted items start estimated; updated items keep their
    /// height until re-measured (a content change may change it).
    ///
    /// In the virtual content space the origin moves so that the item at
    /// `anchorIndex` (an index into the old items) keeps its y.
    /// - Complexity: O(n)
    package func apply(_ changes: Changeset, newItems: [FeedItem], anchorIndex: Int?) {
        let oldItems = items
        let oldLayout = layout
        let anchorID = anchorIndex.flatMap { $0 < oldItems.count ? oldItems[$0].id : nil }
        let anchorOldY = anchorIndex.flatMap { $0 < oldItems.count ? originY + oldLayout.minY(of: $0) : nil }
        let oldDisplayed = isDisplayed
        let oldDisplayedRange = displayedRange

        // Old index for each new index that survived (same id, moved or not).
        var survivorOldIndex = [Int](repeating: -1, count: newItems.count)
        var deleted = [Bool](repeating: false, count: oldItems.count)
        for index in changes.deletes { deleted[index] = true }
        var inserted = [Bool](repeating: false, count: newItems.count)
        for index in changes.inserts { inserted[index] = true }
        for move in changes.moves {
            deleted[move.from] = true
            inserted[move.to] = true
            survivorOldIndex[move.to] = move.from
        }
        var oldIndex = 0
        var new = 0
        while new < newItems.count {
            if inserted[new] {
                new += 1
                continue
            }
            while oldIndex < oldItems.count && deleted[oldIndex] { oldIndex += 1 }
            if oldIndex < oldItems.count {
                survivorOldIndex[new] = oldIndex
                oldIndex += 1
            }
            new += 1
        }
        var updated = [Bool](repeating: false, count: oldItems.count)
        for index in changes.updates { updated[index] = true }

        var heights = [Double](repeating: layout.estimatedHeight, count: newItems.count)
        var measured = [Bool](repeating: false, count: newItems.count)
        var displayed = [Bool](repeating: false, count: newItems.count)
        var displayedLow = Int.max
        var displayedHigh = Int.min
        for index in 0..<newItems.count {
            let from = survivorOldIndex[index]
            guard from >= 0 else { continue }
            heights[index] = oldLayout.height(of: from)
            measured[index] = oldLayout.isMeasured(from) && !updated[from]
            if oldDisplayed[from] && !updated[from] {
                displayed[index] = true
                displayedLow = min(displayedLow, index)
                displayedHigh = max(displayedHigh, index)
            }
        }
        // Cells of deleted and updated items leave the screen (updated ones
        // are configured again when laid out).
        var old = oldDisplayedRange.lowerBound
        while old < oldDisplayedRange.upperBound {
            if oldDisplayed[old] && (deleted[old] || updated[old]) && !changes.moves.contains(where: { $0.from == old })
            {
                onEndDisplay?(oldItems[old].id)
            }
            old += 1
        }
        isDisplayed = displayed
        displayedRange = displayedLow <= displayedHigh ? displayedLow..<(displayedHigh + 1) : 0..<0
        items = newItems
        layout.replaceAll(heights: heights, measured: measured)
        if configuration.updatesVisibleRowsOnly {
            // A lazy stack checks the rows on screen and lays out nothing
            // else (WWDC26 session 321, 2:09, 13:03).
            pendingWork.diffElements += min(changes.elementsCompared, displayedRange.count)
        } else {
            pendingWork.itemsLaidOut += newItems.count
            pendingWork.diffElements += changes.elementsCompared
        }
        pendingWork.changesApplied += changes.changeCount

        let oldLayoutAnchorID = layoutAnchor.flatMap { $0 < oldItems.count ? oldItems[$0].id : nil }
        layoutAnchor = oldLayoutAnchorID.flatMap(index(of:))
        if configuration.coordinateSpace.isVirtual, let anchorID, let anchorOldY,
            let newIndex = index(of: anchorID)
        {
            originY = anchorOldY - layout.minY(of: newIndex)
        }
        needsLayout = true
    }

    /// Changes the layout width (rotation, split view): every item goes back
    /// to the estimated height and is measured again when next displayed, as
    /// UICollectionView does when its layout is invalidated for new bounds.
    package func setWidth(_ width: Double) {
        guard width != configuration.width else { return }
        configuration.width = width
        invalidateMeasurements()
    }

    /// Changes the Dynamic Type scale: every item is measured again.
    package func setTypeScale(_ typeScale: Double) {
        guard typeScale != configuration.typeScale else { return }
        configuration.typeScale = typeScale
        invalidateMeasurements()
    }

    /// Replaces item `index`'s content without a batch update and measures
    /// it again at once if it was measured; returns the change in height.
    /// - Complexity: O(log n)
    @discardableResult
    package func replaceItem(at index: Int, with item: FeedItem) -> Double {
        items[index] = item
        guard layout.isMeasured(index) else { return 0 }
        record(.measure, index)
        return layout.setMeasuredHeight(measuredHeight(of: item), at: index)
    }

    /// Marks the displayed cells as changed: the next frame must render.
    package func setNeedsLayout() {
        needsLayout = true
    }

    /// While set, item `index` is the reference whose position measuring
    /// must not move, visible or not (an update restoring the reader's place
    /// around it); `nil` returns to following the displayed cells.
    package func pinLayoutAnchor(_ index: Int?) {
        pinnedLayoutAnchor = index
        if let index { layoutAnchor = index }
    }

    /// Measures item `index` now if it still has an estimated height.
    /// - Complexity: O(log n)
    package func measure(_ index: Int) {
        // The same measuring as in spare time, charged to the next frame.
        if measureInSpareTime(index) { record(.measure, index) }
    }

    /// Measures item `index` in time a frame had to spare (the host's
    /// prefetch): its work is not charged to a frame, since it delays
    /// nothing. Returns whether it measured anything.
    /// - Complexity: O(log n)
    @discardableResult
    package func measureInSpareTime(_ index: Int) -> Bool {
        guard index >= 0, index < items.count, !layout.isMeasured(index) else { return false }
        layout.setMeasuredHeight(measuredHeight(of: items[index]), at: index)
        return true
    }

    /// Moves the virtual content's origin (used to keep an anchor item's y
    /// when heights above it change); no effect in the ordinary space.
    package func shiftOrigin(by delta: Double) {
        guard configuration.coordinateSpace.isVirtual else { return }
        originY += delta
    }

    private func invalidateMeasurements() {
        endDisplayOfAll()
        isDisplayed = [Bool](repeating: false, count: items.count)
        layout.resetToEstimates()
        needsLayout = true
        pendingWork.itemsLaidOut += layout.count
    }

    private func endDisplayOfAll() {
        var index = displayedRange.lowerBound
        while index < displayedRange.upperBound {
            if index < isDisplayed.count, isDisplayed[index] {
                isDisplayed[index] = false
                onEndDisplay?(items[index].id)
            }
            index += 1
        }
        displayedRange = 0..<0
    }
}
