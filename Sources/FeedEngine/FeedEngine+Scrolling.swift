extension FeedEngine {
    /// The scroll view moved. During a pull past the top, the refresh anchor
    /// is captured once the pull passes 20 pt (Catbird), and dropped if the
    /// pull is abandoned. A pull that reaches the trigger distance starts the
    /// refresh with the finger still down, as UIRefreshControl does; the
    /// finger may hold the pull while the data lands.
    package func scrollViewDidScroll(isDragging: Bool) {
        let pulled = offsetRange.lowerBound - viewport.contentOffset
        if isDragging, pulled > AnchorRules.pullCaptureDistance, pullAnchor == nil, !isRefreshing {
            pullAnchor = captureAnchor()
        }
        if isDragging, pulled >= configuration.refreshTriggerDistance, !pullTriggeredRefresh {
            pullTriggeredRefresh = true
            refresh()
        }
        if !isDragging, pulled <= 0, !isRefreshing, pullAnchor != nil, !wasPulling {
            pullAnchor = nil
        }
        if !heldNewPosts.isEmpty, viewport.contentOffset <= offsetRange.lowerBound + 1 {
            showNewPosts()
        }
    }

    /// A finger touched the content (a drag, a pull, a flick): it takes the
    /// content over, so a fling the engine retargeted to carry a post is
    /// over, and the fling that may follow carries nothing of it
    /// (UIKit's `scrollViewWillBeginDragging(_:)`).
    package func scrollViewWillBeginDragging() {
        flightAnchorID = nil
    }

    /// The finger lifted. A pull past the trigger distance that has not
    /// started its refresh yet starts it now; an abandoned pull drops its anchor.
    package func scrollViewDidEndDragging() {
        let pulled = offsetRange.lowerBound - viewport.contentOffset
        if pulled >= configuration.refreshTriggerDistance, !pullTriggeredRefresh {
            refresh()
        } else if !isRefreshing {
            pullAnchor = nil
        }
        pullTriggeredRefresh = false
    }

    /// Asks the server for the newest posts (pull-to-refresh or the app's own).
    package func refresh() {
        guard !isRefreshing else { return }
        isRefreshing = true
        wasPulling = pullAnchor != nil
        counters.refreshes += 1
        transport.fetchPage(cursor: nil, limit: pageLimit) { result in
            self.isRefreshing = false
            switch result {
            case let .success(page):
                self.debouncer.submit(.refresh(page))
            case .failure:
                self.counters.pageFailures += 1
                self.pullAnchor = nil
            }
        }
    }

    /// New posts pushed by the server while the feed is open.
    package func receiveNewPosts(_ newPosts: [Post]) {
        var present = Set(store.posts.map(\.id))
        for post in heldNewPosts { present.insert(post.id) }
        let fresh = newPosts.filter { !present.contains($0.id) }
        guard !fresh.isEmpty else { return }
        switch configuration.newPostsPolicy {
        case .insert:
            debouncer.submit(.newPosts(fresh))
        case .indicator:
            heldNewPosts = fresh + heldNewPosts
            counters.newPostsHeld += fresh.count
            if viewport.contentOffset <= offsetRange.lowerBound + 1 { revealNewPosts(byReader: false) }
        }
    }

    /// The reader tapped the "new posts" indicator, or scrolled to the top.
    package func showNewPosts() {
        revealNewPosts(byReader: true)
    }

    /// Puts the held new posts into the feed. When the reader asked for
    /// them, the change is theirs, not drift.
    private func revealNewPosts(byReader: Bool) {
        guard !heldNewPosts.isEmpty else { return }
        let shown = heldNewPosts
        heldNewPosts = []
        debouncer.submit(byReader ? .shownNewPosts(shown) : .newPosts(shown))
    }

    /// Posts whose content changed on the server (counts, edits).
    package func receiveContentUpdates(_ updated: [Post]) {
        debouncer.submit(.contentUpdate(updated))
    }

    /// Posts deleted on the server, pushed to the app.
    package func receiveRemovals(_ ids: [PostID]) {
        guard !ids.isEmpty else { return }
        debouncer.submit(.removal(ids))
    }

}
