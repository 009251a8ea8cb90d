/// Layout work off the main thread, as the layout strategy asks for it:
/// heights computed on a background queue when posts arrive, and cell
/// contents drawn behind a placeholder while their rows are in the display
/// range. Results come back on the main thread through the scheduler; a
/// precomputed height replaces its row's estimate at the next layout pass,
/// where a change above the reader is corrected by the position strategy
/// as a cell measured above it is.
extension FeedEngine {
    /// What the engine did off the main thread so far.
    package var offMainCounters: OffMainCounters {
        guard let offMain else { return OffMainCounters() }
        var counters = offMain.state.counters
        counters.precomputed = offMain.heights.tally
        return counters
    }

    /// Hands the layout strategy's work to the background queue after a
    /// layout pass: heights of rows not yet measured when the rows, the
    /// width or the text size changed, and contents of the display range.
    func scheduleOffMainWork(visible: Range<Int>, _ offMain: OffMainLayout) {
        let moment = prefetchMoment(visible: visible)
        if offMain.precomputesHeights { precomputeHeights(at: moment, offMain) }
        if offMain.displaysAsynchronously { prepareContents(at: moment, offMain) }
    }

    /// Rows whose height is still an estimate get a height job, once per
    /// change of the rows or the geometry, in the order the strategy asks.
    private func precomputeHeights(at moment: PrefetchMoment, _ offMain: OffMainLayout) {
        let scan = ListScan(list)
        guard offMain.state.heightsScan != scan else { return }
        offMain.state.heightsScan = scan
        let configuration = list.configuration
        var rows: [Int] = []
        for index in list.items.indices where !list.layout.isMeasured(index) {
            let item = list.items[index]
            if offMain.state.heightJobs[item.id] != LayoutKey(item, in: configuration) { rows.append(index) }
        }
        for index in offMain.policy.precomputeOrder(of: rows, at: moment) where list.items.indices.contains(index) {
            submitHeight(of: list.items[index], offMain)
        }
    }

    /// Queues the height of `item` as the list would measure it now.
    private func submitHeight(of item: FeedItem, _ offMain: OffMainLayout) {
        let key = LayoutKey(item, in: list.configuration)
        let height = list.measuredHeight(of: item)
        let id = item.id
        offMain.state.heightJobs[id] = key
        offMain.queue.submit(BackgroundJob(kind: .height, cell: CellWork(.measure, item))) { [unowned self] in
            self.heightComputed(id, key: key, height: height, offMain)
        }
    }

    /// A height came back: it replaces the row's estimate at the next layout
    /// pass if it is still the row's height to compute.
    func heightComputed(_ id: PostID, key: LayoutKey, height: Double, _ offMain: OffMainLayout) {
        addResultHandedBack()
        if offMain.state.heightJobs[id] == key { offMain.state.heightJobs[id] = nil }
        guard let index = list.rowAwaitingPrecomputedHeight(id, key: key, near: list.displayedRange.lowerBound) else {
            offMain.state.counters.heightsDropped += 1
            return
        }
        list.addPrecomputedHeight(height, for: id, near: index, key: key, to: offMain.heights)
    }

    /// Contents of the rows in the display range: rows that left it let
    /// theirs go, rows in it without theirs get a display job, the rows
    /// on screen first. While the range, the rows, the width and the text
    /// size stay the same, every row in it has its contents or a job on
    /// its way, and nothing is searched.
    private func prepareContents(at moment: PrefetchMoment, _ offMain: OffMainLayout) {
        let range = offMain.policy.displayRange(at: moment).clamped(to: list.items.indices)
        let scan = ListScan(list)
        let rowsChanged = range != offMain.state.displayRange || offMain.state.contentsScan?.revision != scan.revision
        guard rowsChanged || offMain.state.contentsScan != scan else { return }
        offMain.state.contentsScan = scan
        if rowsChanged {
            var kept: [PostID: LayoutKey] = [:]
            for index in range {
                let id = list.items[index].id
                if let key = offMain.state.contents[id] { kept[id] = key }
            }
            offMain.state.contents = kept
            offMain.state.displayRange = range
        }
        let visible = moment.visible.clamped(to: range)
        for index in visible { submitContentsIfNeeded(of: list.items[index], offMain) }
        for index in range where !visible.contains(index) { submitContentsIfNeeded(of: list.items[index], offMain) }
    }

    /// Queues `item`'s contents unless they are prepared or on their way.
    private func submitContentsIfNeeded(of item: FeedItem, _ offMain: OffMainLayout) {
        let key = LayoutKey(item, in: list.configuration)
        let id = item.id
        guard offMain.state.contents[id] != key, offMain.state.contentJobs[id] != key else { return }
        offMain.state.contentJobs[id] = key
        offMain.queue.submit(BackgroundJob(kind: .display, cell: CellWork(.configure, item))) { [unowned self] in
            self.contentsPrepared(id, key: key, offMain)
        }
    }

    /// Contents came back: the row shows them from the next frame if it is
    /// still in the display range with the same content.
    func contentsPrepared(_ id: PostID, key: LayoutKey, _ offMain: OffMainLayout) {
        addResultHandedBack()
        if offMain.state.contentJobs[id] == key { offMain.state.contentJobs[id] = nil }
        guard let index = list.index(of: id, near: list.displayedRange.lowerBound),
            offMain.state.displayRange.contains(index), LayoutKey(list.items[index], in: list.configuration) == key
        else { return }
        offMain.state.contents[id] = key
        offMain.state.counters.contentsApplied += 1
        list.setNeedsLayout()
    }

    /// Rows in `visible` showing a placeholder: their contents are not
    /// prepared (always 0 unless contents are drawn off the main thread).
    /// - Complexity: O(k) for k rows.
    package func placeholderCount(in visible: Range<Int>) -> Int {
        guard let offMain, offMain.displaysAsynchronously else { return 0 }
        var count = 0
        for index in visible.clamped(to: list.items.indices) {
            let item = list.items[index]
            if offMain.state.contents[item.id] != LayoutKey(item, in: list.configuration) { count += 1 }
        }
        return count
    }

    /// A result handed back to the main thread: work the next frame is charged for.
    private func addResultHandedBack() {
        var work = WorkCounters()
        work.backgroundResults = 1
        list.addWork(work)
    }
}
