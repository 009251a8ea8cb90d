extension FeedEngine {
    /// Lays out the cells in the viewport; the owner calls it whenever the
    /// scroll view moved or `list.needsLayout` is set. Height changes of
    /// cells measured above the reader are corrected per the strategy.
    @discardableResult
    package func layoutVisibleCells() -> Range<Int> {
        // A retargeted fling that ended (came to rest, caught by a finger)
        // carries nothing any more.
        if flightAnchorID != nil, !viewport.isDecelerating { flightAnchorID = nil }
        layoutPassAnchor = captureAnchor()
        defer { layoutPassAnchor = nil }
        let visible = layOutAndCompensate()
        measureScrollVelocity()
        loadMoreIfNeeded(visible: visible)
        updatePrefetching(visible: visible)
        if let offMain { scheduleOffMainWork(visible: visible, offMain) }
        rowViews.endUpdate()
        return visible
    }

    /// One layout pass; cells measured above the reader's reference move it,
    /// which every strategy but `none` undoes (in the virtual space the list
    /// grows upwards by itself). Returns the visible range and whether the
    /// offset was corrected.
    @discardableResult
    func layOutAndCompensate() -> Range<Int> {
        let viewport = self.viewport
        let precomputedCompensation = offMain.map { applyPrecomputedHeights($0.heights) } ?? 0
        let oldOffset = viewport.contentOffset
        let (visible, changeAbove) = list.updateVisibleRect(minY: oldOffset, height: viewport.viewportHeight)
        lastCompensation = precomputedCompensation
        if changeAbove != 0 {
            apply(keeper.heightsChangedAbove(by: changeAbove), from: oldOffset)
            lastCompensation += viewport.contentOffset - oldOffset
        }
        return visible
    }

    /// Applies the heights computed off the main thread that came back, and
    /// corrects their change above the reader as the strategy does a cell
    /// measured above them, before the layout pass lays out the rect: the
    /// pass then lays out the rows the reader sees after the correction.
    /// Returns how far the correction moved the content.
    private func applyPrecomputedHeights(_ heights: PrecomputedHeights) -> Double {
        let offset = viewport.contentOffset
        let above = list.applyPrecomputedHeights(heights, minY: offset, height: viewport.viewportHeight)
        guard above != 0 else { return 0 }
        apply(keeper.heightsChangedAbove(by: above), from: offset)
        return viewport.contentOffset - offset
    }

    /// Lays out the viewport after a commit, as UIKit does in the same
    /// transaction, around the item `anchorID`, until measuring stops
    /// moving it.
    func settleLayout(around anchorID: PostID?) {
        // The anchor is the reference even when it lies above the new rect:
        // only cells before it may move it.
        list.pinLayoutAnchor(anchorID.flatMap(list.index(of:)))
        settlingAnchorID = anchorID
        defer { settlingAnchorID = nil }
        for _ in 0..<FeedEngine.settlePasses {
            layOutAndCompensate()
            if lastCompensation == 0 { break }
        }
        list.pinLayoutAnchor(nil)
        list.setNeedsLayout()
    }

    /// Layout passes a commit may take to settle; each measures the cells a
    /// correction brought into view.
    static let settlePasses = 4

    /// The range of contentOffset the scroll view may rest in: the content
    /// under the insets.
    package var offsetRange: ClosedRange<Double> {
        // One strong load of the unowned viewport, not three.
        let viewport = self.viewport
        let low = list.contentMinY - viewport.insetTop
        let high = max(low, list.contentMaxY + viewport.insetBottom - viewport.viewportHeight)
        return low...high
    }

    /// How far past the edges of `offsetRange` the content is at `offset`.
    func overscroll(at offset: Double) -> (top: Double, bottom: Double) {
        let range = offsetRange
        return (max(0, range.lowerBound - offset), max(0, offset - range.upperBound))
    }

    /// The readable part of the viewport (under the bars), in content coordinates.
    var readableRect: (minY: Double, maxY: Double) {
        let viewport = self.viewport
        let top = viewport.contentOffset + viewport.insetTop
        return (top, viewport.contentOffset + viewport.viewportHeight - viewport.insetBottom)
    }

    /// The first item at least 30% visible in the readable rect, with its
    /// place; `nil` when nothing is on screen.
    package func captureAnchor() -> ScrollAnchor? {
        let rect = readableRect
        guard
            let (index, top) = list.firstItem(visibleAtLeast: AnchorRules.visibilityThreshold, in: rect.minY, rect.maxY)
        else {
            return nil
        }
        return ScrollAnchor(
            itemID: list.items[index].id, index: index, itemY: top, offsetY: viewport.contentOffset,
            capturedAt: scheduler.now)
    }

    /// The viewport changed width (rotation, split view): every cell is
    /// measured again and the reader's place restored per the strategy.
    package func viewportDidResize(width: Double) {
        relayout(cause: .widthChange) { list.setWidth(width) }
    }

    /// The Dynamic Type size changed.
    package func textSizeDidChange(scale: Double) {
        // The text size is an environment value: the bodies of rows a lazy
        // stack pins off screen run again (their cells are not on screen,
        // so nothing is measured).
        for index in rowViews.rowsUpdatedByEnvironment(in: list.items) { list.recordBodyUpdate(at: index) }
        relayout(cause: .textSizeChange) { list.setTypeScale(scale) }
    }

    /// Invalidates the layout with `change`, lays out the viewport at once
    /// (as UIKit does in the same run-loop turn) and corrects the offset.
    private func relayout(cause: ChangeCause, _ change: () -> Void) {
        viewport.feedWillCommit(cause)
        let anchor = captureAnchor()
        let oldOffset = viewport.contentOffset
        heldOverscroll = overscroll(at: oldOffset)
        defer { heldOverscroll = (0, 0) }
        change()
        // The anchor is measured first, so its restored place uses its real height.
        if let anchor { list.measure(anchor.index) }
        list.updateVisibleRect(minY: oldOffset, height: viewport.viewportHeight)
        let correction = anchor.map { keeper.afterRelayout(anchor: $0, list: keeperListView) } ?? .keepOffset
        place(correction, from: oldOffset, settlingAround: anchor?.itemID)
        viewport.feedDidCommit(cause)
    }

    /// Carries out a keeper's correction, from the content offset `oldOffset`.
    /// Applies a keeper's correction. Returns how far a move fell short of
    /// its target because the content, as laid out now, ended first.
    @discardableResult
    func apply(_ correction: PlaceCorrection, from oldOffset: Double) -> Double {
        switch correction {
        case .keepOffset:
            return 0
        case let .moveOffset(target):
            return correctOffset(from: oldOffset, to: target)
        case let .adjustOffset(delta):
            viewport.adjustContentOffset(by: delta)
            return 0
        case let .shiftOrigin(delta):
            list.shiftOrigin(by: delta)
            return 0
        case let .retargetingFling(inner):
            let delta: Double
            switch inner {
            case .keepOffset: return 0
            // Where the move would take the content, clamped as it would
            // be clamped: the fling goes on from there. The viewport moves
            // a resting point only to one between the content's edges, and
            // otherwise the correction is applied as it is.
            case let .moveOffset(target): delta = clampedTarget(from: oldOffset, to: target) - oldOffset
            case let .adjustOffset(by): delta = by
            case .shiftOrigin, .retargetingFling: return apply(inner, from: oldOffset)
            }
            if delta != 0, viewport.retargetDeceleration(by: delta) {
                retargetedFlings += 1
                return 0
            }
            return apply(inner, from: oldOffset)
        }
    }

    /// Moves the content from `oldOffset` to `target` clamped to the content
    /// (Catbird clamps restored offsets). A correction never takes the
    /// content further past an edge than it already was, and never pulls in
    /// an overscroll the reader is holding: a held pull keeps its stretch,
    /// past the edge as the change left it as far as past the edge before
    /// (`heldOverscroll`), as holding the reader's post keeps everything
    /// below it where it was.
    /// Returns how far the move fell short of `target`.
    @discardableResult
    func correctOffset(from oldOffset: Double, to target: Double) -> Double {
        let clamped = clampedTarget(from: oldOffset, to: target)
        // From where the content is now, not from `oldOffset`: laying out
        // between the capture and the correction can itself move the
        // content (a cell configured from the memory cache delivers an
        // image size, and the rows above are compensated), and a move
        // computed from the stale offset would add that twice.
        let current = viewport.contentOffset
        if clamped != current { viewport.adjustContentOffset(by: clamped - current) }
        return target - clamped
    }

    /// Where `correctOffset(from:to:)` moves the content: `target`, clamped
    /// to the content, no further past an edge than `oldOffset` or a held
    /// overscroll.
    func clampedTarget(from oldOffset: Double, to target: Double) -> Double {
        let range = offsetRange
        let low = min(range.lowerBound - heldOverscroll.top, oldOffset)
        let high = max(range.upperBound + heldOverscroll.bottom, oldOffset)
        return min(max(target, low), high)
    }

}
