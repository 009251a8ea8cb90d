extension FeedEngine {
    /// What the prefetch policies see now, with `visible` on screen.
    func prefetchMoment(visible: Range<Int>) -> PrefetchMoment {
        let count = list.items.count
        return PrefetchMoment(
            visible: visible, itemCount: count, velocity: scrollVelocity,
            rowHeight: count > 0 ? list.contentHeight / Double(count) : configuration.list.estimatedItemHeight,
            window: configuration.images.prefetchWindow, loadMoreThreshold: configuration.loadMoreThreshold)
    }

    /// The reader's speed since the last layout pass: how far contentOffset
    /// moved over the time between the passes. Corrections the engine made
    /// in between count too; over a frame or two they are small beside a
    /// scroll, and a policy only needs the speed's size and sign.
    func measureScrollVelocity() {
        let offset = viewport.contentOffset
        let now = scheduler.now
        if lastLayoutOffset.isFinite, now > lastLayoutTime {
            scrollVelocity = (offset - lastLayoutOffset) / (Double(now - lastLayoutTime) / 1e9)
        }
        lastLayoutOffset = offset
        lastLayoutTime = now
    }
}

extension FeedEngine {
    /// Rows laid out ahead in a frame's spare time. A lazy stack does it
    /// (WWDC26 session 321, 13:27–14:57): while the reader scrolls towards
    /// the rows past the screen, it checks at each frame whether time is
    /// left before the deadline and, if so, lays out the next rows it has
    /// not placed, in the direction of the scroll. A collection view with
    /// prefetching on asks for cells before they are displayed, "spreading
    /// the rendering over multiple layout passes" (UIKit's
    /// `isPrefetchingEnabled`); that it sizes them then too is an
    /// assumption. Rows below the screen only: FeedSim does not yet
    /// prefetch above it (the reader scrolling back up). `affordable` is
    /// asked with each row's measure, in order, and says whether the
    /// frame's spare time still covers it. Returns how many rows were laid
    /// out.
    package func prefetchRowsInSpareTime(after visible: Range<Int>, affordable: (CellWork) -> Bool) -> Int {
        let limit = configuration.spareTimePrefetchRows
        guard limit > 0, !visible.isEmpty else { return 0 }
        var laidOut = 0
        var index = visible.upperBound
        while index < list.items.count, index < visible.upperBound + limit {
            if !list.layout.isMeasured(index) {
                guard affordable(CellWork(.measure, list.items[index])) else { break }
                list.measureInSpareTime(index)
                laidOut += 1
            }
            index += 1
        }
        return laidOut
    }
}
