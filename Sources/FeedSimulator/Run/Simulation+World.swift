import FeedEngine
import FeedScenario

extension Simulation: FeedViewport {
    public var contentOffset: Double { scrollView.contentOffset }
    public var viewportHeight: Double { scrollView.viewportHeight }
    public var insetTop: Double { scrollView.insetTop }
    public var insetBottom: Double { scrollView.insetBottom }

    public func adjustContentOffset(by delta: Double) {
        scrollView.adjust(by: delta)
    }

    public func feedWillCommit(_ cause: ChangeCause) {
        meter.excluding {
            if cause == .restore {
                pendingDriftCapture = pendingRestoreCapture
                pendingRestoreCapture = nil
            } else {
                pendingDriftCapture = cause.isUserAction ? nil : captureAnchor()
            }
        }
    }

    public func feedDidCommit(_ cause: ChangeCause) {
        meter.excluding {
            scrollView.setContentExtent(minY: engine.list.contentMinY, maxY: engine.list.contentMaxY)
            digest.combine(UInt64(ChangeCause.allCases.firstIndex(of: cause) ?? 0))
            digest.combine(scrollView.contentOffset)
            guard !cause.isUserAction else { return }
            driftMeter.record(cause, at: now, before: pendingDriftCapture, list: engine.list, contentOffset: scrollView.contentOffset)
            pendingDriftCapture = nil
        }
    }
}

extension Simulation: EngineScheduler {
    public func schedule(after delay: Int64, _ action: @escaping () -> Void) -> ScheduledAction {
        meter.excluding { ScheduledAction(id: UInt64(scheduleAction(after: delay, action))) }
    }

    public func cancel(_ action: ScheduledAction) {
        meter.excluding { cancelAction(slot: Int(action.id)) }
    }
}

extension Simulation {
    /// Carries out a script step.
    func perform(_ action: ScriptAction) {
        // Touches and taps need the app on screen.
        switch action {
        case .drag, .fling, .tapNewPosts, .scrollToTop, .like, .rotate, .textSize, .refresh:
            guard appState == .foreground else { return }
        case .newPosts, .contentUpdates, .background, .terminate, .memoryWarning:
            break
        }
        switch action {
        case let .drag(trajectory, release, deceleration):
            scrollView.beginDrag(
                at: now,
                trajectory: trajectory.map { ScrollView.TrajectorySample(time: $0.timeNs, displacement: $0.displacementPt) },
                release: release == .fling ? .fling : .stop,
                rate: deceleration.perMillisecond)
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
        case .like:
            scrollView.advance(to: now)
            if let anchor = captureAnchor(), let index = engine.list.index(of: anchor.itemID) {
                meter.measure { engine.toggleLike(at: index) }
            }
        case let .contentUpdates(count):
            let shown = engine.list.displayedRange
            let ids = shown.prefix(count).map { engine.list.items[$0].id }
            let updated = server.touch(ids)
            server.deliver { [unowned self] in self.engine.receiveContentUpdates(updated) }
        case let .rotate(newWidth, newHeight):
            scrollView.advance(to: now)
            width = newWidth
            scrollView.viewportHeight = newHeight
            meter.measure { engine.viewportDidResize(width: newWidth) }
        case let .textSize(scale):
            scrollView.advance(to: now)
            meter.measure { engine.textSizeDidChange(scale: scale) }
        case let .background(duration):
            guard appState == .foreground else { return }
            scrollView.advance(to: now)
            persist()
            appState = .background(since: now)
            let generation = launchGeneration
            scheduleAction(after: duration) { [unowned self] in
                guard self.launchGeneration == generation, case let .background(since) = self.appState else { return }
                self.appState = .foreground
                self.engine.didEnterForeground(after: self.now - since, policy: ForegroundPolicy(
                    keepUnder: self.scenario.lifecycle.keepUnderNs, checkUnder: self.scenario.lifecycle.checkUnderNs))
                self.engine.list.setNeedsLayout()
            }
        case let .terminate(relaunchAfter):
            guard appState != .terminated else { return }
            terminate(relaunchAfter: relaunchAfter)
        case .memoryWarning:
            guard appState != .terminated else { return }
            memory.recordScriptedWarning()
            deliverMemoryWarning()
        }
    }
}
