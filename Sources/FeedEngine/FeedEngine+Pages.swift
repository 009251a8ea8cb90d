extension FeedEngine {
    /// Posts asked for per request; the whole feed when pages are off.
    var pageLimit: Int { configuration.pageSize > 0 ? configuration.pageSize : Int.max }

    /// After a failed page request the engine waits this long before asking
    /// again, in nanoseconds, so a dead network is not polled every frame.
    package static let pageRetryDelay: Int64 = 2_000_000_000

    /// Asks for the next page when the page prefetch policy says so.
    func loadMoreIfNeeded(visible: Range<Int>) {
        guard configuration.pageSize > 0, !store.reachedEnd, !store.isLoadingPage, !list.items.isEmpty,
            scheduler.now >= store.nextPageAttemptAt,
            pagePrefetchPolicy.shouldLoadNextPage(at: prefetchMoment(visible: visible))
        else { return }
        requestPage(cursor: store.cursor, replacing: false)
    }

    func requestPage(cursor: FeedCursor?, replacing: Bool) {
        store.isLoadingPage = true
        counters.pagesRequested += 1
        transport.fetchPage(cursor: cursor, limit: pageLimit) { result in
            switch result {
            case let .success(page):
                // Still loading until the page is applied: the cursor moves
                // only then, and asking again before would fetch it twice.
                if replacing && self.store.posts.isEmpty {
                    self.applyPending([.page(page, replacing: true)])
                } else {
                    self.debouncer.submit(.page(page, replacing: replacing))
                }
            case .failure:
                self.store.isLoadingPage = false
                self.counters.pageFailures += 1
                self.store.nextPageAttemptAt = self.scheduler.now + FeedEngine.pageRetryDelay
                if replacing && self.store.posts.isEmpty {
                    // Nothing to show yet: try the first page again.
                    self.scheduler.schedule(after: FeedEngine.pageRetryDelay) {
                        if self.store.posts.isEmpty && !self.store.isLoadingPage {
                            self.requestPage(cursor: nil, replacing: true)
                        }
                    }
                }
            }
        }
    }
}
