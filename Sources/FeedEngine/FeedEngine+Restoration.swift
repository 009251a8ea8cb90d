extension FeedEngine {
    /// The state to persist now: the feed and the reader's anchor.
    package func snapshot() -> FeedSnapshot {
        let anchor = captureAnchor()
        return FeedSnapshot(
            posts: store.posts, threadContext: store.threadContext(), nextCursor: store.cursor,
            anchorID: anchor?.itemID,
            anchorViewportY: anchor?.viewportY ?? 0, savedAt: scheduler.now)
    }

    /// Starts from persisted state instead of the network (a relaunch): the
    /// feed is shown at once and the anchor put back where it was.
    package func restore(from snapshot: FeedSnapshot) {
        counters.restores += 1
        store.restore(snapshot, pagesBySize: configuration.pageSize > 0)
        let tuned = tuner.tuneWithStats(store.posts) { [store] id in store.post(id) }
        viewport.feedWillCommit(.restore)
        list.replaceAll(with: tuned.items)
        // The anchor is measured first, as a relayout measures it, so its
        // restored place uses its real height and the content's end is not
        // estimated below it: a move clamped at an end estimated short
        // lands below the anchor, whose rows then measure the end shorter
        // still, and the anchor taller than the screen is put back lower.
        if let anchorID = snapshot.anchorID, let index = list.index(of: anchorID) { list.measure(index) }
        place(
            keeper.afterRestore(
                anchorID: snapshot.anchorID, viewportY: snapshot.anchorViewportY, list: keeperListView,
                top: offsetRange.lowerBound),
            from: viewport.contentOffset, settlingAround: snapshot.anchorID)
        viewport.feedDidCommit(.restore)
        _checkInvariants()
    }

    /// The app returns after `away` ns in the background; acts per `policy`.
    /// Whatever happens, the screen is drawn again.
    package func didEnterForeground(after away: Int64, policy: ForegroundPolicy) {
        defer { list.setNeedsLayout() }
        switch policy.action(after: away) {
        case .keep:
            break
        case .checkForNewPosts:
            counters.foregroundChecks += 1
            transport.fetchPage(cursor: nil, limit: pageLimit) { result in
                guard case let .success(page) = result else { return }
                let present = Set(self.store.posts.map(\.id))
                let fresh = page.posts.prefix { !present.contains($0.id) }
                guard !fresh.isEmpty else { return }
                self.heldNewPosts = Array(fresh) + self.heldNewPosts
                self.counters.newPostsHeld += fresh.count
            }
        case .fullRefresh:
            counters.foregroundRefreshes += 1
            transport.fetchPage(cursor: nil, limit: pageLimit) { result in
                guard case let .success(page) = result else { return }
                self.store.replace(with: page)
                let tuned = self.tuner.tuneWithStats(self.store.posts) { [store = self.store] id in store.post(id) }
                self.viewport.feedWillCommit(.refresh)
                self.list.replaceAll(with: tuned.items)
                self.rowViews.keepOnly(rowsIn: tuned.items)
                self.correctOffset(from: self.viewport.contentOffset, to: self.offsetRange.lowerBound)
                self.settleLayout(around: nil)
                self.viewport.feedDidCommit(.refresh)
                self._checkInvariants()
            }
        }
    }
}
