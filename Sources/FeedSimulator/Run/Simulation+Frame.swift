import FeedEngine

/// The post the last drift record left on a resting screen, and where: the
/// `held` property's watch. A record written on a resting screen, its post
/// still there and not missed (the drift property judges those), starts a
/// watch; at each later frame with the screen at rest and no change in
/// progress, a post more than 1 pt from where the watch began is a slip,
/// unless the content rests at an edge (an edge moved it). The next record
/// replaces the watch; the reader's gestures and scrolls, and the app
/// leaving, end it (the simulation drops it then).
struct HoldWatch: Equatable {
    var cause: String
    var since: SimTime
    var anchorID: PostID
    /// Its screen y when the watch began.
    var y: Double

    /// What a frame shows of the scroll view.
    struct Screen {
        var isResting: Bool
        /// A change measured but not yet shown, or a flight not yet landed.
        var changeInProgress: Bool
        /// The content rests at its top or bottom edge.
        var atEdge: Bool
    }

    /// The watch after a frame, and the slip it found, if any. `y` gives a
    /// post's screen y, nil when it is gone.
    static func frame(
        _ watch: HoldWatch?, newRecord: DriftRecord?, screen: Screen, at time: SimTime, y: (PostID) -> Double?
    ) -> (HoldWatch?, HoldSlip?) {
        if let record = newRecord {
            guard record.afterY != nil, !record.isMissedHold, record.excuse == nil, screen.isResting,
                let start = y(record.anchorID)
            else { return (nil, nil) }
            return (HoldWatch(cause: record.cause, since: record.time, anchorID: record.anchorID, y: start), nil)
        }
        guard let watch, screen.isResting, !screen.changeInProgress else { return (watch, nil) }
        guard let now = y(watch.anchorID) else { return (nil, nil) }
        guard abs(now - watch.y) > DriftMeter.eventThreshold, !screen.atEdge else { return (watch, nil) }
        return (
            nil,
            HoldSlip(
                time: time, cause: watch.cause, heldSince: watch.since, anchorID: watch.anchorID, heldY: watch.y, y: now
            )
        )
    }
}

/// A frame: the scroll view moves, the engine lays out, the frame is
/// accounted and drift judged; invariants checked after it.
extension Simulation {
    /// What a vsync with the main thread free found.
    enum FrameOutcome {
        /// A frame rendered, or something is in motion: the next vsync may render.
        case busy
        /// Nothing rendered and nothing moves: no vsync renders until another
        /// event changes the world.
        case idle
    }

    /// The main-thread work a frame drained from the engine, in nanoseconds
    /// of the device's cost model.
    struct FrameWork {
        /// The engine's counters for the frame's commit.
        var counters: WorkCounters
        /// Σ of every cell's configure and measure time.
        var cellTime = 0.0
        /// The configure and measure parts of `cellTime`, for a timeline's
        /// commit slices: two additions a cell, `cellTime` summed exactly
        /// as before they were kept apart.
        var configureTime = 0.0
        var measureTime = 0.0
    }

    /// One vsync with the main thread free: move the scroll view, lay out the
    /// visible cells and account the frame, if anything rendered.
    @discardableResult
    func renderFrame(vsync index: Int64) -> FrameOutcome {
        guard app.state == .foreground else { return .idle }
        scrollView.advance(to: now)
        // Read once: each read of the lazy property is a check and a retain.
        let engine = self.engine
        let list = engine.listView
        let moved = scrollView.contentOffset != frame.lastRenderedOffset
        // Work done between frames (a commit, a response handled) is
        // rendered, and charged, in the next frame.
        guard moved || list.needsLayout || engine.hasPendingWork else { return restWithoutFrame(list: list) }
        let visible = meter.measure { layOutFrame(engine: engine, list: list) }
        if drawsContentsOffMain { notePlaceholders(in: visible, engine: engine) }
        let work = drainWork(of: engine, vsync: index)
        let offset = scrollView.contentOffset
        let requests = meter.total().requests
        let frameWork = costModel.commitTime(for: work.counters, cellTime: work.cellTime, vsync: index)
        let render = costModel.renderTime(for: scene(visible, list: list), vsync: index)
        let record = accountFrame(
            work: frameWork, render: render, offset: offset, visible: visible, list: list,
            allocations: requests &- frame.requestsAtLast)
        prefetchInSpareTime(
            after: visible, offset: offset, spare: Double(record.budget - frameWork), engine: engine, list: list,
            vsync: index)
        retargetAnimatedScroll()
        paceRefreshRate(offset: offset)
        frame.requestsAtLast = requests
        timeline?.recordFrame(
            record,
            parts: costModel.commitParts(
                for: work.counters, configureTime: work.configureTime, measureTime: work.measureTime, vsync: index))
        frame.lastRenderedOffset = offset
        frame.nextVsync = display.firstVsync(atOrAfter: accountant.nextCommitTime)
        digestFrame(work: frameWork, offset: offset, visible: visible)
        if request.checkInvariants {
            checkScrollInvariants(frame: record.frame)
            watchHeldPost(list: list)
        }
        noteRest()
        checkMemory()
        return .busy
    }

    /// Counts the cells the frame shows without their contents (a strategy
    /// that draws them off the main thread shows a placeholder until then).
    private func notePlaceholders(in visible: Range<Int>, engine: FeedEngine) {
        let blank = engine.placeholderCount(in: visible)
        guard blank > 0 else { return }
        meters.offMain.blankCellFrames += 1
        meters.offMain.blankCells += blank
        meters.digest.combine(UInt64(blank))
    }

    /// A vsync with nothing to draw: a flight that was in the air has
    /// landed, and the view is idle unless it still moves.
    private func restWithoutFrame(list: FeedListView) -> FrameOutcome {
        if meters.drift.hasFlight { meters.drift.motionEnded(at: now, list: list, view: scrollView) }
        noteRest()
        return scrollView.isResting ? .idle : .busy
    }

    /// The frame's layout, measured as the engine's work: the engine hears
    /// the scroll, lays out the visible cells until a resting view has
    /// settled into the content, and the meters judge what the reader saw.
    /// Returns the visible rows.
    private func layOutFrame(engine: FeedEngine, list: FeedListView) -> Range<Int> {
        engine.scrollViewDidScroll(isDragging: scrollView.isDragging)
        let changed = meters.drift.hasPendingChange
        let before = captureAnchor(in: list)
        if changed {
            meter.excluding { meters.drift.frameWillLayOut(reader: before, list: list, view: scrollView, at: now) }
        }
        // Changes the layout itself sets off (an image from the memory
        // cache whose size was unknown, delivered as its cell is
        // configured) belong to this frame, judged from before it.
        frame.layoutChange = nil
        frame.isLayingOut = true
        let (visible, measuredAbove) = settleLayout(engine: engine, list: list)
        frame.isLayingOut = false
        meter.excluding {
            meterLaidOutFrame(
                visible, changed: changed, measuredAbove: measuredAbove, before: before, engine: engine, list: list)
        }
        return visible
    }

    /// Lays out the visible cells, and again while cells measured shorter
    /// than estimated leave a resting view past the content's new end: it
    /// settles to the edge and lays out again in the same frame, as UIKit
    /// does in one layout pass. Returns the visible rows and whether any
    /// pass measured a cell above the anchor.
    private func settleLayout(engine: FeedEngine, list: FeedListView) -> (visible: Range<Int>, measuredAbove: Bool) {
        var visible = engine.layoutVisibleCells()
        var measuredAbove = list.measuredAboveAnchorInLastPass
        meter.excluding { scrollView.setContentExtent(minY: list.contentMinY, maxY: list.contentMaxY) }
        var passes = 1
        while passes < Simulation.settlePasses, meter.excluding({ scrollView.settleIntoExtent() }) {
            visible = engine.layoutVisibleCells()
            measuredAbove = measuredAbove || list.measuredAboveAnchorInLastPass
            meter.excluding { scrollView.setContentExtent(minY: list.contentMinY, maxY: list.contentMaxY) }
            passes += 1
        }
        return (visible, measuredAbove)
    }

    /// What the meters make of a laid-out frame: changes shown in it, a
    /// resize the layout itself made under the reader, images waited for,
    /// and a flight that landed.
    private func meterLaidOutFrame(
        _ visible: Range<Int>, changed: Bool, measuredAbove: Bool, before: DriftMeter.Capture?, engine: FeedEngine,
        list: FeedListView
    ) {
        // Changes measured before this frame (the reader moved, or
        // changed the feed themselves, after they committed) are
        // shown in it, whether or not another change waits for it.
        if meters.drift.hasChangesToShow { meters.drift.frameShown(at: now, list: list, view: scrollView) }
        if !changed, measuredAbove || frame.layoutChange != nil, let before, before.wasDisplayed {
            // Only a cell the reader saw can be seen to move: a rect
            // scrolled into fresh content is measured before it is
            // ever shown.
            meters.drift.record(
                frame.layoutChange ?? .heightChange, at: now, before: before, list: list, view: scrollView)
        }
        meters.imageWait.frameShown(visible, list: list, images: engine.images, at: now)
        if meters.drift.hasFlight { meters.drift.motionEnded(at: now, list: list, view: scrollView) }
    }

    /// The engine's work since the last frame, with each cell's time from
    /// the cost model.
    private func drainWork(of engine: FeedEngine, vsync index: Int64) -> FrameWork {
        var cellTime = 0.0
        var configureTime = 0.0
        var measureTime = 0.0
        let counters = engine.drainWork { cell in
            let time = costModel.time(of: cell, vsync: index)
            cellTime += time
            if cell.kind == .configure { configureTime += time } else { measureTime += time }
        }
        return FrameWork(counters: counters, cellTime: cellTime, configureTime: configureTime, measureTime: measureTime)
    }

    /// Accounts the frame with the render loop and returns its record.
    private func accountFrame(
        work: SimTime, render: SimTime, offset: Double, visible: Range<Int>, list: FeedListView, allocations: UInt64
    ) -> FrameRecord {
        // Only a recorded frame keeps it (explore's shrinker reads it).
        let pointsIntoFirstRow =
            !request.recordFrames || visible.isEmpty
            ? 0 : offset + scrollView.insetTop - list.minY(of: visible.lowerBound)
        return accountant.recordFrame(
            at: now, work: work, render: render, contentOffset: offset, pointsIntoFirstRow: pointsIntoFirstRow,
            visible: visible,
            allocations: allocations, rate: frame.refreshRate.current)
    }

    /// Content scrolled down: the host lays out the rows coming next in
    /// the time this frame leaves before its deadline, if it prefetches
    /// (`spare_time_prefetch_rows`).
    private func prefetchInSpareTime(
        after visible: Range<Int>, offset: Double, spare: Double, engine: FeedEngine, list: FeedListView,
        vsync index: Int64
    ) {
        guard offset > frame.lastRenderedOffset else { return }
        var spare = spare
        let laidOut = engine.prefetchRowsInSpareTime(after: visible) { cell in
            let time = costModel.time(of: cell, vsync: index)
            guard time <= spare else { return false }
            spare -= time
            return true
        }
        if laidOut > 0 {
            meter.excluding { scrollView.setContentExtent(minY: list.contentMinY, maxY: list.contentMaxY) }
            meters.digest.combine(UInt64(laidOut))
        }
    }

    /// A lazy stack re-estimates where an animated scroll to a row ends
    /// at every frame, with the rows this frame laid out.
    private func retargetAnimatedScroll() {
        guard let (target, startedAt) = input.scrollTarget else { return }
        if scrollView.animationStart == startedAt {
            scrollView.retargetAnimation(to: self.offset(for: target))
        } else {
            input.scrollTarget = nil
        }
    }

    /// Tells the display's rate governor how fast the content moved since
    /// the last frame (ProMotion adapts to it), and notes this frame's time.
    private func paceRefreshRate(offset: Double) {
        if !frame.lastRenderedOffset.isNaN, now > frame.lastTime {
            let speed = abs(offset - frame.lastRenderedOffset) / (Double(now - frame.lastTime) / 1e9)
            frame.refreshRate.frameRendered(speed: speed, touching: scrollView.isDragging)
        }
        frame.lastTime = now
    }

    /// Mixes what the frame did into the run's digest.
    private func digestFrame(work: SimTime, offset: Double, visible: Range<Int>) {
        meters.digest.combine(work)
        meters.digest.combine(offset)
        meters.digest.combine(visible.lowerBound)
        meters.digest.combine(visible.upperBound)
    }

    /// The scroll view's invariants after a frame: a finite offset, and
    /// content at rest within its edges.
    private func checkScrollInvariants(frame: Int) {
        let offset = scrollView.contentOffset
        if !offset.isFinite {
            noteInvariantFailure("contentOffset is \(offset)", frame: frame)
        } else if scrollView.isResting,
            offset < scrollView.minOffset - DriftMeter.eventThreshold
                || offset > scrollView.maxOffset + DriftMeter.eventThreshold
        {
            noteInvariantFailure(
                """
                the content rests at offset \(offset), outside its edges \
                \(scrollView.minOffset)...\(scrollView.maxOffset)
                """,
                frame: frame)
        }
    }

    /// The post a change left in place stays there until something moves
    /// it (`HoldWatch.frame`), checked after every frame.
    private func watchHeldPost(list: FeedListView) {
        let records = meters.drift.records
        let newRecord = records.count > checks.watchedRecords ? records[records.count - 1] : nil
        checks.watchedRecords = records.count
        let offset = scrollView.contentOffset
        let screen = HoldWatch.Screen(
            isResting: scrollView.isResting, changeInProgress: meters.drift.hasPendingChange || meters.drift.hasFlight,
            atEdge: offset == scrollView.minOffset || offset == scrollView.maxOffset)
        let (watch, slip) = HoldWatch.frame(
            checks.holdWatch, newRecord: newRecord, screen: screen, at: now, y: { self.screenY(of: $0, in: list) })
        checks.holdWatch = watch
        if let slip, checks.holdSlips.count < HoldSlip.limit { checks.holdSlips.append(slip) }
    }

    /// A post's top on screen, in points below the viewport's top.
    private func screenY(of id: PostID, in list: FeedListView) -> Double? {
        list.index(of: id).map { list.minY(of: $0) - scrollView.contentOffset }
    }

    /// The engine's invariants, after a data commit.
    func checkEngineInvariants() {
        for problem in engine.invariantViolations() { noteInvariantFailure(problem, frame: accountant.framesRendered) }
    }

    private func noteInvariantFailure(_ message: String, frame: Int) {
        guard checks.invariantFailures.count < InvariantFailure.limit else { return }
        checks.invariantFailures.append(InvariantFailure(time: now, frame: frame, message: message))
    }

    /// What the render server draws with `visible` on screen: a layer tree
    /// per cell, and each image blended and masked to rounded corners.
    func scene(_ visible: Range<Int>, list: FeedListView) -> CostModel.Scene {
        var scene = CostModel.Scene(layers: visible.count)
        list.items.withUnsafeBufferPointer { items in
            for index in visible where items[index].post.hasMedia {
                scene.images += 1
                scene.offscreenPasses += 1
            }
        }
        return scene
    }

    /// The drift meter's anchor: the post the reader looks at now, in `list`
    /// (by default the engine's; a frame passes the one it already holds,
    /// which spares reading the lazy engine again).
    func captureAnchor(in list: FeedListView? = nil) -> DriftMeter.Capture? {
        DriftMeter.capture(
            list: list ?? engine.listView, contentOffset: scrollView.contentOffset,
            viewportHeight: scrollView.viewportHeight,
            insetTop: scrollView.insetTop, insetBottom: scrollView.insetBottom)
    }
}
