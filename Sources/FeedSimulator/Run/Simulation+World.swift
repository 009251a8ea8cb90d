import FeedEngine
import FeedScenario

extension Simulation: FeedViewport {
    package var contentOffset: Double { scrollView.contentOffset }
    package var viewportHeight: Double { scrollView.viewportHeight }
    package var insetTop: Double { scrollView.insetTop }
    package var insetBottom: Double { scrollView.insetBottom }
    package var isDecelerating: Bool { scrollView.isDecelerating }

    /// The move is judged against the content as the engine has laid it out
    /// now, as UIKit's batch updates set the content size before they
    /// adjust the offset: against the edges of before the change, a move
    /// into posts just added would read as an overscroll and be rubber-banded.
    package func adjustContentOffset(by delta: Double) {
        let list = engine.listView
        scrollView.adjust(by: delta, contentMinY: list.contentMinY, contentMaxY: list.contentMaxY)
    }

    /// As `adjustContentOffset(by:)`, the move is judged against the content
    /// as the engine has laid it out now.
    package func retargetDeceleration(by delta: Double) -> Bool {
        let list = engine.listView
        return scrollView.retargetDeceleration(by: delta, contentMinY: list.contentMinY, contentMaxY: list.contentMaxY)
    }

    package func feedWillCommit(_ cause: ChangeCause) {
        commit.depth += 1
        // A change inside another's commit (an image delivered from the
        // cache while the commit lays out its cells) is part of that commit:
        // the drift of both is measured once, from before the outer one. One
        // set off by a frame's layout is the frame's.
        guard commit.depth == 1 else { return }
        if frame.isLayingOut {
            if frame.layoutChange == nil, !cause.isUserAction { frame.layoutChange = cause }
            return
        }
        meter.excluding {
            // The scroll view is where the reader's motion has it now, not
            // where the last frame left it: UIKit's pan moves contentOffset
            // with every touch, so a change between frames (an image, a
            // response) finds the reader's post where the finger has it.
            scrollView.advance(to: now)
            commit.retargetsAtStart = scrollView.retargets
            if let relaunch = app.relaunchCapture, cause == .restore || cause == .initialLoad {
                // The first content after a relaunch: judged against where
                // the reader left the feed.
                meters.drift.relaunchWillCommit(
                    cause, anchor: relaunch, stale: cause == .restore && app.persistedIsStale)
                app.relaunchCapture = nil
            } else if !cause.isUserAction {
                meters.drift.changeWillCommit(
                    cause, anchor: captureAnchor(), view: scrollView, list: engine.listView, at: now)
            } else {
                // The reader's own change (a like, held posts shown) moves
                // their post as their gestures do: the held watch ends.
                checks.holdWatch = nil
                meters.drift.readerChangeWillCommit(view: scrollView, list: engine.listView, at: now)
            }
        }
    }

    package func feedDidCommit(_ cause: ChangeCause) {
        commit.depth -= 1
        // A change the app commits in the background (a pushed removal, a
        // page or an image arriving) comes after the save it made as it left
        // the screen, and the reader sees it when the app comes back: a kill
        // after that loses it as it loses one made on screen. Only a killed
        // engine's commits change nothing the app will show.
        if app.state != .terminated { app.commitsSincePersist += 1 }
        meter.excluding {
            scrollView.setContentExtent(minY: engine.listView.contentMinY, maxY: engine.listView.contentMaxY)
            if commit.depth == 0, !frame.isLayingOut {
                meters.drift.changeDidCommit(list: engine.listView)
                if scrollView.retargets != commit.retargetsAtStart {
                    meters.drift.changeWasRetargeted()
                } else {
                    meters.drift.changeWasNotRetargeted(cause, engineCarriesFling: engine.isCarryingFling)
                }
            }
            timeline?.noteDataCommit(cause)
            meters.digest.combine(UInt64(ChangeCause.allCases.firstIndex(of: cause) ?? 0))
            meters.digest.combine(scrollView.contentOffset)
            if request.checkInvariants { checkEngineInvariants() }
        }
    }
}

/// The scheduler engines are given: the simulation's event queue while the
/// simulation runs. An engine's debouncer keeps its scheduler; were that the
/// simulation itself, the simulation and its engine would keep each other
/// alive after the run, and every run in a process (a benchmark's
/// iterations, a worker's batch) would keep its whole world. So the link
/// holds the simulation only from the start of `run()` to its end, strongly:
/// a weak reference would give the simulation a side table, and every
/// retain of it, many a frame, would take the runtime's slow path.
final class EngineSchedulerLink: EngineScheduler {
    /// The running simulation; `nil` before and after its run.
    @exclusivity(unchecked) var simulation: Simulation?

    init() {}

    var now: Int64 { simulation?.now ?? 0 }

    func schedule(after delay: Int64, _ action: @escaping () -> Void) -> ScheduledAction {
        // Outside the run nothing can run the action; an engine being torn
        // down with its simulation may still ask.
        simulation?.schedule(after: delay, action) ?? ScheduledAction(id: UInt64.max)
    }

    func cancel(_ action: ScheduledAction) {
        simulation?.cancel(action)
    }
}

/// The network as the engine reaches it: the feed server and the image CDN,
/// whose work on a request (building a page, planning a download, queuing
/// the answer) is the simulated world's, not the app's, and so is kept out
/// of the engine's allocation counts. The engine's own part of a request —
/// the completion it hands over — is allocated before the call and counted.
final class MeteredTransport: FeedTransport, ImageTransport {
    private let server: FeedServer
    private let images: ImageServer
    private let meter: AllocationMeter

    init(server: FeedServer, images: ImageServer, meter: AllocationMeter) {
        self.server = server
        self.images = images
        self.meter = meter
    }

    func fetchPage(
        cursor: FeedCursor?, limit: Int, completion: @escaping (Result<FeedPage, FeedTransportError>) -> Void
    ) {
        meter.excluding { server.fetchPage(cursor: cursor, limit: limit, completion: completion) }
    }

    func setLike(postID: PostID, liked: Bool, completion: @escaping (Result<Void, FeedTransportError>) -> Void) {
        meter.excluding { server.setLike(postID: postID, liked: liked, completion: completion) }
    }

    func load(_ request: ImageRequest, completion: @escaping (Result<Int, ImageLoadError>) -> Void) -> ImageLoadToken {
        meter.excluding { images.load(request, completion: completion) }
    }

    func cancel(_ token: ImageLoadToken) {
        meter.excluding { images.cancel(token) }
    }
}

extension Simulation: EngineScheduler {
    package func schedule(after delay: Int64, _ action: @escaping () -> Void) -> ScheduledAction {
        meter.excluding { ScheduledAction(id: UInt64(scheduleAction(after: delay, action))) }
    }

    package func cancel(_ action: ScheduledAction) {
        meter.excluding { cancelAction(slot: Int(action.id)) }
    }
}

extension Simulation {
    /// Carries out a script step.
    func perform(_ action: ScriptAction) {
        let kind = action.kind
        guard !kind.needsForeground || app.state == .foreground else { return }
        if case .fling = action {
            // A flick while a finger holds the content joins the same pan
            // and throws nothing: the holding finger keeps the content, and
            // its lift ends the pan (docs/scenario-format.md, "Touches that
            // overlap").
            scrollView.advance(to: now)
            guard !scrollView.isDragging else { return }
        }
        if kind.movesReader {
            checks.holdWatch = nil
            meter.excluding { meters.drift.readerWillMove(view: scrollView, list: engine.listView, at: now) }
            if kind.startsPan { meter.measure { engine.scrollViewWillBeginDragging() } }
        } else if kind.takesAppOffScreen {
            checks.holdWatch = nil
        }
        switch action {
        case let .drag(trajectory, release, deceleration):
            beginDrag(trajectory, release: release, rate: deceleration.perMillisecond)
        case let .fling(velocity, deceleration):
            scrollView.fling(at: now, velocity: velocity, rate: deceleration.perMillisecond)
        case .refresh:
            meter.measure { engine.refresh() }
        case let .newPosts(count, push):
            let written = server.writeNewPosts(count)
            if push {
                server.deliver { [unowned self] in self.engine.receiveNewPosts(written) }
            }
        case .tapNewPosts:
            meter.measure { engine.showNewPosts() }
            scrollView.scrollToTop(at: now)
        case .scrollToTop:
            scrollView.scrollToTop(at: now)
        case let .scrollTo(target, animated):
            scrollView.scroll(to: offset(for: target), at: now, animated: animated)
            if case .offset = target { break }
            if animated, request.engine.host.reEstimatesScrollTargets { input.scrollTarget = (target, now) }
        case let .pull(distance, duration, hold):
            scrollView.advance(to: now)
            // The finger travels to the top, then as far past it as the
            // rubber band needs to show `distance` points of stretch.
            let finger =
                -(scrollView.contentOffset - scrollView.minOffset)
                - ScrollPhysics.fingerOvershoot(forStretch: distance, dimension: scrollView.viewportHeight)
            var trajectory = [
                TrajectoryPoint(timeNs: 0, displacementPt: 0),
                TrajectoryPoint(timeNs: duration, displacementPt: finger),
            ]
            if hold > 0 { trajectory.append(TrajectoryPoint(timeNs: duration + hold, displacementPt: finger)) }
            beginDrag(trajectory, release: .stop, rate: DecelerationRate.normal.perMillisecond)
        case let .removePosts(count, place, push):
            let ids = postsToRemove(count, at: place)
            server.delete(ids)
            if push {
                server.deliver { [unowned self] in self.engine.receiveRemovals(ids) }
            }
        case .like:
            scrollView.advance(to: now)
            if let anchor = captureAnchor(), let index = engine.listView.index(of: anchor.itemID) {
                meter.measure { engine.toggleLike(at: index) }
            }
        case let .contentUpdates(count):
            let shown = engine.listView.displayedRange
            let ids = shown.prefix(count).map { engine.listView.items[$0].id }
            let updated = server.touch(ids)
            server.deliver { [unowned self] in self.engine.receiveContentUpdates(updated) }
        case let .rotate(newWidth, newHeight):
            scrollView.advance(to: now)
            input.width = newWidth
            scrollView.viewportHeight = newHeight
            meter.measure { engine.viewportDidResize(width: newWidth) }
        case let .textSize(scale):
            scrollView.advance(to: now)
            meter.measure { engine.textSizeDidChange(scale: scale) }
        case let .background(duration):
            guard app.state == .foreground else { return }
            scrollView.advance(to: now)
            persist()
            timeline?.mark("background", at: now)
            meter.excluding { meters.imageWait.screenGone(at: now) }
            app.state = .background(since: now)
            let generation = app.launch
            scheduleAction(after: duration) { [unowned self] in
                guard self.app.launch == generation, case let .background(since) = self.app.state else { return }
                self.app.state = .foreground
                self.timeline?.mark("foreground", at: self.now)
                self.engine.didEnterForeground(
                    after: self.now - since,
                    policy: ForegroundPolicy(
                        keepUnder: self.scenario.lifecycle.keepUnderNs, checkUnder: self.scenario.lifecycle.checkUnderNs
                    ))
            }
        case let .terminate(relaunchAfter):
            guard app.state != .terminated else { return }
            terminate(relaunchAfter: relaunchAfter)
        case .memoryWarning:
            guard app.state != .terminated else { return }
            memory.recordScriptedWarning()
            deliverMemoryWarning()
        }
    }

    /// A finger touches down and follows `trajectory`; its lift is an event
    /// of its own, so a finger that stops before lifting still ends the drag.
    func beginDrag(_ trajectory: [TrajectoryPoint], release: DragRelease, rate: Double) {
        scrollView.beginDrag(at: now, trajectory: trajectory, release: release, rate: rate)
        input.dragNumber += 1
        if let end = scrollView.dragEndTime {
            do {
                try schedule(.lift(input.dragNumber), at: end)
            } catch {
                pendingLimitError = pendingLimitError ?? error
            }
        }
    }

    /// The finger of drag number `drag` lifts, unless another touch or the
    /// app's end took over since.
    func liftFinger(drag: Int) {
        guard drag == input.dragNumber, app.state == .foreground, scrollView.isDragging else { return }
        scrollView.advance(to: now)
        meter.measure {
            engine.scrollViewDidScroll(isDragging: scrollView.isDragging)
            engine.scrollViewDidEndDragging()
        }
        // A finger that moved the content since the last frame comes to
        // rest in the next one: UIKit lays out the final touch move's
        // offset before the lift reaches the app, so the app saves a place
        // measured at that offset. Noted now, the save would capture rows
        // the drag brought on screen at their estimates, and the frame that
        // measures them would move the saved post before the reader sees it.
        if scrollView.contentOffset == frame.lastRenderedOffset { noteRest() }
    }

    /// The app saves the reader's place whenever a scroll comes to rest.
    func noteRest() {
        if scrollView.isResting && !input.wasResting { persist() }
        input.wasResting = scrollView.isResting
    }

    /// The content offset a `scroll_to` asks for.
    func offset(for target: ScrollTarget) -> Double {
        switch target {
        case let .offset(points):
            return scrollView.minOffset + points
        case let .post(index):
            return offset(for: .intoPost(index: index, pointsIn: 0))
        case let .intoPost(index, pointsIn):
            let list = engine.listView
            guard !list.items.isEmpty else { return scrollView.minOffset }
            return list.minY(of: min(index, list.items.count - 1)) - scrollView.insetTop + pointsIn
        }
    }

    /// The ids of `count` posts the app shows at `place`.
    func postsToRemove(_ count: Int, at place: RemovalPlace) -> [PostID] {
        let items = engine.listView.items
        let range: Range<Int>
        switch place {
        case .top:
            range = 0..<min(count, items.count)
        case .bottom:
            range = max(0, items.count - count)..<items.count
        case .aroundReader:
            scrollView.advance(to: now)
            let anchor = captureAnchor().flatMap { engine.listView.index(of: $0.itemID) } ?? 0
            let start = max(0, min(anchor - count / 2, items.count - count))
            range = start..<min(items.count, start + count)
        }
        return items[range].map(\.id)
    }
}
