extension FeedEngine {
    /// Folds a debounced batch of changes into the posts and commits once,
    /// named after the change in it that disturbs the feed most. A content
    /// update, which keeps every post at its index, names a batch only when
    /// nothing else is in it: a page folded in with it moves posts too, as
    /// the thread tuner shows a reply the page brings in its thread's slice,
    /// where the thread first appears, above the reader as often as not.
    func applyPending(_ changes: [PendingChange]) {
        // `nil` until a change names the batch.
        var cause: ChangeCause?
        for change in changes {
            switch change {
            case let .page(page, replacing):
                store.isLoadingPage = false
                if replacing {
                    store.replace(with: page)
                    cause = store.posts.isEmpty || list.items.isEmpty ? .initialLoad : .refresh
                } else {
                    store.append(page)
                    if cause == nil || cause == .contentUpdate { cause = .append }
                }
            case let .refresh(page):
                store.mergeRefresh(page)
                cause = .refresh
            case let .newPosts(newPosts):
                store.prepend(newPosts)
                if cause != .refresh { cause = .newPosts }
            case let .shownNewPosts(newPosts):
                store.prepend(newPosts)
                if cause == nil || cause == .append || cause == .contentUpdate { cause = .newPostsShown }
            case let .contentUpdate(updated):
                store.update(updated)
                if cause == nil { cause = .contentUpdate }
            case let .removal(ids):
                let gone = Set(ids)
                store.remove(gone)
                heldNewPosts.removeAll { gone.contains($0.id) }
                if cause == nil || cause == .append || cause == .contentUpdate { cause = .removal }
            }
        }
        commitDisplayedChange(cause: cause ?? .append)
    }

    /// Rebuilds the display rows from the posts and commits the difference.
    func commitDisplayedChange(cause: ChangeCause) {
        let tuned = tuner.tuneWithStats(store.posts) { [store] id in store.post(id) }
        var work = WorkCounters()
        work.diffElements = tuned.postsExamined
        list.addWork(work)
        commit(tuned.items, cause: cause)
    }

    /// Applies `newItems` as one batch update and restores the reader's
    /// place per the strategy, telling the viewport before and after.
    func commit(_ newItems: [FeedItem], cause: ChangeCause) {
        counters.commits += 1
        viewport.feedWillCommit(cause)
        let anchor = anchorForCommit(cause: cause)
        let oldOffset = viewport.contentOffset
        heldOverscroll = overscroll(at: oldOffset)
        defer { heldOverscroll = (0, 0) }
        if list.items.isEmpty || cause == .initialLoad {
            // A first load is a reloadData, not an animated batch of inserts.
            list.replaceAll(with: newItems)
            viewport.feedDidCommit(cause)
            return
        }
        let changes = configuration.diffAlgorithm.diff(from: list.items, to: newItems)
        let batch = PlaceBatch(anchor: anchor, changes: changes, offset: oldOffset)
        keeper.batchWillApply(batch, list: keeperListView)
        if configuration.diffAlgorithm == .reloadAll {
            // reloadData: every cached height and configured cell is lost.
            list.replaceAll(with: newItems)
            var work = WorkCounters()
            work.diffElements = changes.elementsCompared
            list.addWork(work)
        } else {
            runBodiesObservingTheFeed(except: changes)
            list.apply(changes, newItems: newItems, anchorIndex: anchor?.index)
        }
        if configuration.diffAlgorithm == .reloadAll || !changes.deletes.isEmpty { rowViews.keepOnly(rowsIn: newItems) }
        let outcome = keeper.batchDidApply(batch, list: keeperListView)
        if outcome.anchorLost { counters.anchorsLost += 1 }
        let survivor = anchor.flatMap { list.index(of: $0.itemID) != nil ? $0.itemID : nil }
        place(outcome.correction, from: oldOffset, settlingAround: outcome.settleAround ?? survivor)
        viewport.feedDidCommit(cause)
        _checkInvariants()
    }

    /// The feed changed: in a SwiftUI host whose rows read the whole feed
    /// (`RowObservation.wholeFeed`), the body of every row on screen runs
    /// again, charged as configuring its cell; the rows `changes` updates
    /// or deletes are left to the update itself. Rows off screen are not
    /// updated (docs/swiftui-hosts.md, "Body runs for observed state").
    func runBodiesObservingTheFeed(except changes: Changeset) {
        guard configuration.rowObservation == .wholeFeed else { return }
        for index in list.displayedRange where !changes.updates.contains(index) && !changes.deletes.contains(index) {
            list.recordBodyUpdate(at: index)
        }
    }

    /// Carries out a keeper's correction after the items changed, then lays
    /// out around `anchorID` as UIKit does in the same transaction. A move
    /// clamped to the content's end as estimated then gets what the cells
    /// measured since have added: the end it stopped at has moved.
    func place(_ correction: PlaceCorrection, from oldOffset: Double, settlingAround anchorID: PostID?) {
        let retargeted = retargetedFlings
        let shortfall = apply(correction, from: oldOffset)
        if retargetedFlings != retargeted, let anchorID {
            flightAnchorID = anchorID
            measureFlightPath(to: anchorID)
        } else {
            flightAnchorID = nil
        }
        settleLayout(around: anchorID)
        if shortfall != 0 {
            // What the content's estimated end kept the correction from is
            // tried again now that the rows are measured, allowed as far past
            // an edge as the content was before the change (a finger holding
            // it there), not only as far as the first move left it.
            let offset = viewport.contentOffset
            if correctOffset(from: oldOffset, to: offset + shortfall) != shortfall {
                settleLayout(around: anchorID)
            }
        }
    }

    /// A fling whose resting point moved carries the content over the rows
    /// between the top of the screen and the reader's post, which it left
    /// in place: they are measured now, as a layout pass would measure them
    /// on the way. Going down, to a post below the top of the screen, what
    /// that moves the post by moves the resting point too, so that the post
    /// lands where it is held. Going up, to a post above the screen, the
    /// post stays and the rows on screen move: the content is moved to keep
    /// them still and the resting point is kept where it was.
    func measureFlightPath(to anchorID: PostID) {
        guard let anchorIndex = list.index(of: anchorID) else { return }
        let top = list.indices(intersecting: viewport.contentOffset, viewport.contentOffset + 1).lowerBound
        if top < anchorIndex {
            let before = list.minY(of: anchorIndex)
            for index in top..<anchorIndex { list.measure(index) }
            let moved = list.minY(of: anchorIndex) - before
            if moved != 0, !viewport.retargetDeceleration(by: moved) { viewport.adjustContentOffset(by: moved) }
        } else if anchorIndex < top, top < list.items.count {
            let before = list.minY(of: top)
            for index in anchorIndex..<top { list.measure(index) }
            let moved = list.minY(of: top) - before
            keepFlightTarget(whileAdjustingBy: moved)
        }
    }

    /// Moves the content by `delta` to keep the rows on screen still, when
    /// heights changed between them and the post a retargeted fling is
    /// carrying up to: that post did not move, so its resting point stays.
    /// Returns `false`, and moves nothing, if the fling can no longer be
    /// retargeted.
    @discardableResult
    func keepFlightTarget(whileAdjustingBy delta: Double) -> Bool {
        guard delta != 0 else { return true }
        guard viewport.retargetDeceleration(by: -delta) else { return false }
        viewport.adjustContentOffset(by: delta)
        return true
    }

    /// The anchor a commit restores: for a refresh that lands while the
    /// reader is still at the pull, the one captured during the pull unless
    /// it is stale; otherwise one captured now. A reader who has scrolled
    /// away from the top since the pull reads another post: putting the
    /// pull's post back where it was would carry them back to the top.
    func anchorForCommit(cause: ChangeCause) -> ScrollAnchor? {
        defer {
            if cause == .refresh {
                pullAnchor = nil
                wasPulling = false
            }
        }
        // Only a keeper that uses the pull-time anchor gets it; others take
        // theirs when the data changes.
        if cause == .refresh, keeper.usesPullAnchor, let pulled = pullAnchor, isAtPull {
            if scheduler.now - pulled.capturedAt <= AnchorRules.maximumAge,
                pulled.index < list.items.count, list.items[pulled.index].id == pulled.itemID
            {
                return pulled
            }
            counters.anchorsStale += 1
        }
        return captureAnchor()
    }

    /// Whether the content is at the top or past it, where a pull leaves the
    /// reader (within `AnchorRules.pullPlaceTolerance`).
    package var isAtPull: Bool {
        viewport.contentOffset <= offsetRange.lowerBound + AnchorRules.pullPlaceTolerance
    }

}
