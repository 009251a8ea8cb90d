import FeedEngine

/// Measures position drift: for each change the user did not make, where the
/// anchor item is on screen in the frame that shows the change, against where
/// the reader's own scrolling would have put it in that frame.
///
/// Drift is measured on frames, not on the engine's model: a change is
/// captured when it commits and judged when the next frame is rendered, so
/// any movement the reader sees (a strategy's correction, the scroll view
/// re-applying a held finger, content settling against an edge) is counted,
/// whatever part of the model made it.
///
/// The anchor is chosen here, not by the engine under test: the first item
/// at least 30% visible in the readable part of the viewport (Catbird's
/// visibility threshold), so every strategy is measured against the same rule.
struct DriftMeter {
    /// Changes of at least this many points count as drift events (Catbird's
    /// verification threshold).
    static let eventThreshold = 1.0

    struct Capture {
        var itemID: PostID
        /// The item's top in content coordinates.
        var contentY: Double
        var screenY: Double
        /// Whether the item was on screen in the last frame: the reader saw it.
        var wasDisplayed: Bool
    }

    /// A change committed and not yet shown.
    struct PendingChange {
        var cause: ChangeCause
        var anchor: Capture
        /// Where the anchor would be had nothing changed.
        var reference: Reference
        /// Why no strategy can be held to it, known at the commit.
        var excuse: DriftRecord.Excuse?
        /// A refresh that committed with the content at the top or past it,
        /// where a pull leaves the reader (`DriftRecord.atPull`).
        var atPull = false
        /// The reader's post as the frame that shows the change begins, and
        /// where it and the anchor lay then (`frameWillLayOut`).
        var frameStart: FrameStart?
        /// The content as the commit left it (`changeDidCommit`).
        var committed: Committed?
    }

    /// The content's extent and the anchor's top as a commit left them:
    /// the edges the reader's motion meets until the next frame lays out.
    struct Committed {
        var contentMinY: Double
        var contentMaxY: Double
        var anchorY: Double
    }

    /// The reader's post when the frame showing a change begins, before the
    /// frame lays out, with its top and the commit anchor's top then.
    struct FrameStart {
        var reader: PostID
        var readerY: Double
        var anchorY: Double
    }

    enum Reference {
        /// The scroll view as it was at the commit: advanced to the frame,
        /// it is where the reader's own motion takes the content.
        case motion(ScrollView)
        /// Where the reader last saw the anchor (before a relaunch).
        case screen
    }

    private(set) var records: [DriftRecord] = []
    private var pending: PendingChange? {
        didSet { hasPendingChange = pending != nil }
    }
    /// The change whose correction moved the fling's resting point and is
    /// judged when the motion ends (`motionEnded`).
    private var flight: PendingChange? {
        didSet { hasFlight = flight != nil || carriesUnjudgedFlight }
    }
    /// The fling's resting point was moved for a change no record judges
    /// (the reader's own, or one that found no post on screen): the engine
    /// carries that change's post to its place, so a row's height changing
    /// on the way goes with that flight, as it goes with a judged one, and
    /// is not judged on its own. A change that is judged replaces it.
    private var carriesUnjudgedFlight = false {
        didSet { hasFlight = flight != nil || carriesUnjudgedFlight }
    }
    /// Changes already measured whose frame has not been shown yet: a later
    /// change landed before it. They are stamped with that frame's time.
    private var unshown: [DriftRecord] = []

    /// The anchor now, if anything is on screen.
    static func capture(
        list: FeedListView, contentOffset: Double, viewportHeight: Double, insetTop: Double, insetBottom: Double
    ) -> Capture? {
        let top = contentOffset + insetTop
        let bottom = contentOffset + viewportHeight - insetBottom
        guard let (index, itemTop) = list.firstItem(visibleAtLeast: AnchorRules.visibilityThreshold, in: top, bottom)
        else {
            return nil
        }
        return Capture(
            itemID: list.items[index].id, contentY: itemTop, screenY: itemTop - contentOffset,
            wasDisplayed: list.displayedRange.contains(index))
    }

    /// Whether a committed change waits for its frame.
    /// Kept as `pending` changes: asked every frame, where `pending != nil`
    /// copied the whole change (a scroll view inside).
    private(set) var hasPendingChange = false

    /// The frame that shows the pending change begins, the scroll view at
    /// `view`: the reader's motion has moved the content since the commit,
    /// and `reader` is the post they now look at. The frame's layout then
    /// measures the cells that motion brought into view, and that is the
    /// reader scrolling into estimated content, not the change: a frame
    /// without a change judges it only on a post the reader saw, and the
    /// engine holds the posts it showed, not the one the commit found on
    /// screen. So the change is judged on the reader's post of this frame,
    /// as far from the commit's anchor as the frame found it; and when the
    /// reader has moved into content no frame showed, or no post on screen
    /// is theirs, the change is measured now, before the frame's layout,
    /// whose measurements a frame without a change would not judge either.
    mutating func frameWillLayOut(reader: Capture?, list: FeedListView, view: ScrollView, at time: SimTime) {
        guard let pending else { return }
        // No post on screen is the reader's (none 30% visible: tall posts
        // in a short viewport) or theirs is one no frame showed: a frame
        // without a change judges nothing of this layout either.
        guard let reader, reader.wasDisplayed else {
            unshown.append(measure(pending, at: time, list: list, view: view))
            self.pending = nil
            return
        }
        guard reader.itemID != pending.anchor.itemID, let anchorIndex = list.index(of: pending.anchor.itemID) else {
            return
        }
        self.pending?.frameStart = FrameStart(
            reader: reader.itemID, readerY: reader.contentY, anchorY: list.minY(of: anchorIndex))
    }

    /// A change is about to commit with the scroll view `view` as it is. A
    /// change still waiting for its frame is measured now, against the model,
    /// so that each change is charged only its own movement.
    mutating func changeWillCommit(
        _ cause: ChangeCause, anchor: Capture?, view: ScrollView, list: FeedListView, at time: SimTime
    ) {
        // A width or text size change lays every post out again, in a
        // viewport of another size: the resting point a retargeted fling
        // aimed at belongs to a geometry that is gone. The relayout is
        // judged in its own frame; the flight no longer is.
        if cause == .widthChange || cause == .textSizeChange {
            endFlight()
        }
        measurePending(view: view, list: list, at: time)
        pending = anchor.map {
            PendingChange(
                cause: cause, anchor: $0, reference: .motion(view),
                atPull: cause == .refresh && view.contentOffset <= view.minOffset + AnchorRules.pullPlaceTolerance)
        }
    }

    /// The change waiting for its frame has committed: the content as it
    /// left it is what the reader's motion meets until the frame lays out
    /// (which measures cells and moves the edges again, after the scroll
    /// view has moved).
    mutating func changeDidCommit(list: FeedListView) {
        guard let pending, pending.committed == nil, let index = list.index(of: pending.anchor.itemID) else { return }
        self.pending?.committed = Committed(
            contentMinY: list.contentMinY, contentMaxY: list.contentMaxY, anchorY: list.minY(of: index))
    }

    /// The change just committed moved the fling's resting point instead of
    /// the content: its frame's record is not judged, and it is judged
    /// where the fling comes to rest instead ("settles where held").
    ///
    /// One change is judged per fling, on its post: the strategy carries the
    /// post of the last update of the feed that moved the fling, and a
    /// row's own height that changes on the way (an image's size, a cell
    /// measured) moves the fling to carry that post on. So an update of the
    /// feed replaces the change waiting for the fling to end (the post
    /// carried until then is no longer the one held), and a height change
    /// is judged with it.
    mutating func changeWasRetargeted() {
        // A change that removed its post (`committed` is kept only for a
        // post still there) is recorded lost in its frame, as under any
        // strategy: there is no post to carry to rest.
        guard let pending else {
            if flight == nil { carriesUnjudgedFlight = true }
            return
        }
        guard pending.committed != nil else { return }
        if !DriftMeter.isRowHeight(pending.cause) || (flight == nil && !carriesUnjudgedFlight) {
            flight = pending
            carriesUnjudgedFlight = false
        }
        self.pending?.excuse = .retargetedFling
    }

    /// The change just committed was corrected in its own frame, not by
    /// moving the fling's resting point. An update of the feed so corrected
    /// ends the judgement of an earlier retarget as a retargeted one
    /// replaces it: the strategy no longer carries that post (the engine
    /// carries the post of the last update only while each update moves the
    /// fling), and the update is judged in its frame, as under any strategy.
    /// A row's own height changing on the way does not end it (above).
    ///
    /// A row's height the engine no longer carries a fling for
    /// (`engineCarriesFling` false: the fling could not be retargeted for it
    /// and the strategy held the reader's post of now in the frame instead)
    /// ends the judgement too: the engine holds that post, not the flight's.
    mutating func changeWasNotRetargeted(_ cause: ChangeCause, engineCarriesFling: Bool) {
        if !DriftMeter.isRowHeight(cause) || !engineCarriesFling {
            endFlight()
        }
    }

    /// Whether `cause` is a row's own height changing (a cell measured, an
    /// image's size), not an update of the feed.
    private static func isRowHeight(_ cause: ChangeCause) -> Bool {
        cause == .imageSize || cause == .heightChange
    }

    /// Whether a retargeted change waits for the motion to end.
    /// Kept as `flight` changes, as `hasPendingChange` is.
    private(set) var hasFlight = false

    /// No fling carries a change's post any more, judged or not.
    private mutating func endFlight() {
        flight = nil
        carriesUnjudgedFlight = false
    }

    /// The content is at rest in a frame at `time`: each retargeted change
    /// is judged here, the post the reader looked at as it committed
    /// against where the reader's own motion at the commit (the fling as it
    /// was, over the content as the change left it) would have brought that
    /// post to rest. Nothing else is excused: the content's resting edges
    /// are the only reach.
    mutating func motionEnded(at time: SimTime, list: FeedListView, view: ScrollView) {
        guard hasFlight, view.isResting else { return }
        carriesUnjudgedFlight = false
        guard let flight else { return }
        records.append(DriftMeter.settled(flight, at: time, list: list, view: view))
        self.flight = nil
    }

    /// The longest a reference motion is followed to its rest, and its step:
    /// a frame at 120 Hz, so that a fling meets an edge as it would.
    static let settleHorizon: SimTime = 30_000_000_000
    static let settleStep: SimTime = 8_333_333

    private static func settled(
        _ flight: PendingChange, at time: SimTime, list: FeedListView, view: ScrollView
    ) -> DriftRecord {
        guard case var .motion(reference) = flight.reference, let index = list.index(of: flight.anchor.itemID) else {
            return DriftRecord(
                time: time, cause: flight.cause.rawValue, anchorID: flight.anchor.itemID,
                beforeY: flight.anchor.screenY, afterY: nil)
        }
        // Holding the post at the commit may need an offset past an edge the
        // change moved: the correction is then clamped to the edges the
        // change left (no further past one than the view already was), and
        // the fling goes on from there with its speed, as the engine moves
        // the content (in the old coordinates, shifted by how far the change
        // moved the post).
        if let committed = flight.committed {
            let commitShift = committed.anchorY - flight.anchor.contentY
            let edges = reference.edges(
                contentMinY: committed.contentMinY - commitShift, contentMaxY: committed.contentMaxY - commitShift)
            let held = reference.contentOffset
            let viewed = held - commitShift
            let clamped = min(max(held, min(edges.min, viewed)), max(edges.max, viewed))
            if clamped != held { reference.adjust(by: clamped - held) }
        }
        // The reader's own motion meets the content as it is now, in the old
        // coordinates (shifted by how far the post moved in the content):
        // rows the flight measured on its way moved the content's ends as
        // they would have under the reader's motion alone.
        let shift = list.minY(of: index) - flight.anchor.contentY
        reference.setContentExtent(minY: list.contentMinY - shift, maxY: list.contentMaxY - shift)
        var clock = reference.time
        let end = clock + settleHorizon
        while !reference.isResting, clock < end {
            clock += settleStep
            reference.advance(to: clock)
        }
        let beforeY = flight.anchor.contentY - reference.contentOffset
        var settled = record(
            flight.cause, at: time, anchor: flight.anchor.itemID, beforeY: beforeY,
            reach: reach(of: view, holdingAt: nil, overscroll: (0, 0)), list: list, view: view)
        settled.atPull = flight.atPull
        return settled
    }

    /// The reader is about to move the content themselves (a touch, a tap on
    /// the status bar, a jump to a place): a change still waiting for its
    /// frame is measured now, so that it is charged only its own movement
    /// and not the reader's. A retargeted fling the reader stops lands where
    /// they take it: it is not judged.
    mutating func readerWillMove(view: ScrollView, list: FeedListView, at time: SimTime) {
        endFlight()
        measurePending(view: view, list: list, at: time)
    }

    /// A change the reader asked for (a like, the held new posts they
    /// scrolled up to or tapped to see) is about to commit: it is not drift,
    /// and a change still waiting for its frame is measured now, so that it
    /// is charged only its own movement and not the reader's.
    mutating func readerChangeWillCommit(view: ScrollView, list: FeedListView, at time: SimTime) {
        measurePending(view: view, list: list, at: time)
    }

    /// Measures the change still waiting for its frame, if any, as the
    /// content is at `time` (the scroll view advanced to it), and stops
    /// waiting: its record is shown with the next frame.
    private mutating func measurePending(view: ScrollView, list: FeedListView, at time: SimTime) {
        guard let pending else { return }
        var now = view
        now.advance(to: time)
        unshown.append(measure(pending, at: time, list: list, view: now))
        self.pending = nil
    }

    /// The app relaunched and is about to put content on screen: judged
    /// against where the reader last saw `anchor` before the app was killed.
    /// `stale` when the state the app restores was saved before changes the
    /// reader saw.
    mutating func relaunchWillCommit(_ cause: ChangeCause, anchor: Capture?, stale: Bool) {
        unshown.removeAll()
        pending = anchor.map {
            PendingChange(cause: cause, anchor: $0, reference: .screen, excuse: stale ? .staleSnapshot : nil)
        }
    }

    /// The app was killed: what it had not shown, the reader never saw.
    mutating func discardUnshown() {
        pending = nil
        endFlight()
        unshown.removeAll()
    }

    /// Whether a frame shown now has a change to measure: asked first, so
    /// that a frame without one does not copy the scroll view to say so.
    var hasChangesToShow: Bool { hasPendingChange || !unshown.isEmpty }

    /// A frame is on screen with the scroll view at `contentOffset`: every
    /// change it shows is measured.
    mutating func frameShown(at time: SimTime, list: FeedListView, view: ScrollView) {
        for var record in unshown {
            record.time = time
            records.append(record)
        }
        unshown.removeAll(keepingCapacity: true)
        if hasPendingChange, let pending {
            records.append(measure(pending, at: time, list: list, view: view))
            self.pending = nil
        }
    }

    /// Records a change made within a frame (cells measured above the
    /// anchor) from the anchor captured before it, after the scroll view moved.
    mutating func record(_ cause: ChangeCause, at time: SimTime, before: Capture, list: FeedListView, view: ScrollView)
    {
        // A finger on the content holds it where it was, past an edge too.
        let held = view.isDragging ? before.contentY - before.screenY : nil
        var record = DriftMeter.record(
            cause, at: time, anchor: before.itemID, beforeY: before.screenY,
            reach: DriftMeter.reach(of: view, holdingAt: held, overscroll: (0, 0)), list: list, view: view)
        if view.isAnimatingScroll { record.excuse = .animatedScroll }
        records.append(record)
    }

    private func measure(_ change: PendingChange, at time: SimTime, list: FeedListView, view: ScrollView) -> DriftRecord
    {
        let beforeY: Double
        var reach: ClosedRange<Double>
        var excuse = change.excuse
        var change = change
        // How far the change moved the anchor in the content, and the edges
        // it left; without a commit's record (a change measured before its
        // commit ended), as the content is now.
        let committed = change.committed.map {
            (shift: $0.anchorY - change.anchor.contentY, minY: $0.contentMinY, maxY: $0.contentMaxY)
        }
        // Only when the frame's layout moved the two apart is the reader's
        // post judged instead of the commit's anchor.
        if let start = change.frameStart, let anchorIndex = list.index(of: change.anchor.itemID),
            let readerIndex = list.index(of: start.reader),
            list.minY(of: anchorIndex) - start.anchorY != list.minY(of: readerIndex) - start.readerY
        {
            // Where the reader's post lay before the change: as far from the
            // commit's anchor as at the frame's start, the change having
            // moved both alike (it lands at the commit, the frame only
            // measures).
            let offset = start.readerY - start.anchorY
            change.anchor = Capture(
                itemID: start.reader, contentY: change.anchor.contentY + offset,
                screenY: change.anchor.screenY + offset, wasDisplayed: true)
        }
        switch change.reference {
        case var .motion(reference):
            let atCommit = reference
            if reference.isAnimatingScroll { excuse = .animatedScroll }
            // A finger, a fling, a bounce or an animation is the reader's own
            // motion, and it meets the content as the change left it: a fling
            // heading for the old end goes on into posts appended below, and
            // a finger stretching the content past the old end drags it
            // freely once posts arrive there. The reference therefore moves
            // against the new edges, expressed in the old coordinates
            // (shifted by how far the change moved the anchor in the
            // content). A resting view keeps the old ones: a clamp forced by
            // the change is the change's, not the reader's.
            // How far the reader's own motion would have moved the content
            // had nothing changed, against the old edges, which it knew.
            var unchanged = reference
            unchanged.advance(to: time)
            if !reference.isResting, let index = list.index(of: change.anchor.itemID) {
                let edges =
                    committed ?? (list.minY(of: index) - change.anchor.contentY, list.contentMinY, list.contentMaxY)
                let shift = edges.shift
                reference.setContentExtent(minY: edges.minY - shift, maxY: edges.maxY - shift)
                // An animated scroll (a status-bar tap) goes to a place in
                // the content as it now is: the top, not where the top was.
                reference.shiftDestination(by: -shift)
            }
            reference.advance(to: time)
            beforeY = change.anchor.contentY - reference.contentOffset
            if atCommit.isResting {
                reach = DriftMeter.reach(of: view, holdingAt: nil, overscroll: (0, 0))
            } else {
                // An edge that stopped the correction at the commit stopped it
                // there: the reader's own motion since (a finger, a fling)
                // carries the content on from where it stopped, as it
                // carries the reference. So the reach is the commit's: as far
                // past the edges as the reader's motion had the content then
                // (no correction may pull that in), moved as the reader moved.
                // Under a finger a correction may also leave the content
                // where it was at the commit, past a moved edge.
                let held = reference.isDragging ? change.anchor.contentY - change.anchor.screenY : nil
                let stretched = (
                    top: max(0, atCommit.minOffset - atCommit.contentOffset),
                    bottom: max(0, atCommit.contentOffset - atCommit.maxOffset)
                )
                if let committed = change.committed {
                    // Each end of the reach is where a correction to it at
                    // the commit would have the content now: the reader's
                    // motion carried on from there over the content as the
                    // change left it (a finger at an edge it no longer
                    // stretches drags freely; one still past it is
                    // rubber-banded), as the view itself carries on.
                    let edges = atCommit.edges(contentMinY: committed.contentMinY, contentMaxY: committed.contentMaxY)
                    var low = edges.min - stretched.top
                    var high = edges.max + stretched.bottom
                    if let held {
                        low = min(low, held)
                        high = max(high, held)
                    }
                    func carried(from end: Double) -> Double {
                        var carrier = atCommit
                        carrier.adjust(
                            by: end - atCommit.contentOffset, contentMinY: committed.contentMinY,
                            contentMaxY: committed.contentMaxY)
                        carrier.advance(to: time)
                        return carrier.contentOffset
                    }
                    let ends = (carried(from: low), carried(from: high))
                    reach = min(ends.0, ends.1)...max(ends.0, ends.1)
                } else {
                    let moved = unchanged.contentOffset - atCommit.contentOffset
                    let carried = DriftMeter.reach(of: view, holdingAt: held, overscroll: stretched)
                    reach = (carried.lowerBound + moved)...(carried.upperBound + moved)
                }
                // The reader's motion carries the reach only while it goes on:
                // a view at rest in the frame (the finger lifted in between)
                // can be nowhere but between its edges as they are now, which
                // a measured end may have moved towards it.
                if view.isResting {
                    let low = min(max(reach.lowerBound, view.minOffset), view.maxOffset)
                    let high = max(min(reach.upperBound, view.maxOffset), view.minOffset)
                    reach = low...max(low, high)
                }
            }
        case .screen:
            beforeY = change.anchor.screenY
            reach = DriftMeter.reach(of: view, holdingAt: nil, overscroll: (0, 0))
        }
        var record = DriftMeter.record(
            change.cause, at: time, anchor: change.anchor.itemID, beforeY: beforeY, reach: reach, list: list, view: view
        )
        record.excuse = excuse
        record.atPull = change.atPull
        return record
    }

    /// The offsets the content can be at in the frame that shows a change:
    /// between its edges, past them by the overscroll the reader's own motion
    /// had, and, under a finger, where the finger held it at the change (a
    /// correction may leave the content there, past a moved edge, but may
    /// not take it further: the engine's rule).
    private static func reach(
        of view: ScrollView, holdingAt held: Double?, overscroll: (top: Double, bottom: Double)
    ) -> ClosedRange<Double> {
        var lowest = view.minOffset - overscroll.top
        var highest = view.maxOffset + overscroll.bottom
        if let held {
            lowest = min(lowest, held)
            highest = max(highest, held)
        }
        return lowest...highest
    }

    /// The record of a change that moved `anchor` from `beforeY` to where it
    /// is now, with how far holding it was out of reach.
    ///
    /// Holding the anchor at `beforeY` needs contentOffset at
    /// `anchorY − beforeY`. When that offset lies outside `reach` (the
    /// content is shorter than the viewport, or the change left too little
    /// content below or above), even a perfect strategy moves the anchor by
    /// the distance to the reach: that distance is the record's `clampedBy`.
    private static func record(
        _ cause: ChangeCause, at time: SimTime, anchor: PostID, beforeY: Double, reach: ClosedRange<Double>,
        list: FeedListView, view: ScrollView
    ) -> DriftRecord {
        guard let index = list.index(of: anchor) else {
            return DriftRecord(time: time, cause: cause.rawValue, anchorID: anchor, beforeY: beforeY, afterY: nil)
        }
        let anchorY = list.minY(of: index)
        let needed = anchorY - beforeY
        let clampedBy =
            needed < reach.lowerBound
            ? reach.lowerBound - needed : needed > reach.upperBound ? needed - reach.upperBound : 0
        return DriftRecord(
            time: time, cause: cause.rawValue, anchorID: anchor, beforeY: beforeY,
            afterY: anchorY - view.contentOffset, clampedBy: clampedBy)
    }
}
