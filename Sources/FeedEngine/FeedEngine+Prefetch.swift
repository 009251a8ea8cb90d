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
