/// The app's life: saving state, memory pressure, a kill and a cold start.
extension Simulation {
    /// Saves the engine's state, as the app does when a scroll ends and
    /// when it goes to the background.
    func persist() {
        guard !engine.posts.isEmpty else { return }
        app.commitsSincePersist = 0
        app.offsetAtPersist = scrollView.contentOffset
        app.persisted = meter.measure { engine.snapshot() }
    }

    /// Samples the footprint; warns the engine or kills the app as the
    /// system would.
    func checkMemory() {
        guard app.state != .terminated else { return }
        let engine = self.engine
        let bytes = memory.footprint(
            posts: engine.postCount, cacheBytes: Int64(engine.cacheMemoryBytes + engine.keptRowViewBytes))
        switch memory.sample(bytes) {
        case .fine:
            break
        case .warn:
            deliverMemoryWarning()
        case .kill:
            timeline?.mark("jetsam_kill", at: now)
            terminate(relaunchAfter: 0)
        }
    }

    func deliverMemoryWarning() {
        timeline?.mark("memory_warning", at: now)
        let kept = request.engine.memoryWarningPolicy.keptFraction
        meter.measure { engine.didReceiveMemoryWarning(keepingFraction: kept) }
        meters.digest.combine(UInt64(0x6D656D))
    }

    /// The app is killed; the reader opens it again `relaunchAfter` ns
    /// later, and it cold-starts from persisted state.
    func terminate(relaunchAfter delay: SimTime) {
        timeline?.mark("terminate", at: now)
        if app.state == .foreground { app.captureAtTermination = captureAnchor() }
        // What was saved misses what changed since, and where the reader
        // went since (a kill mid-fling).
        app.persistedIsStale =
            app.commitsSincePersist > 0 || !scrollView.isResting || scrollView.contentOffset != app.offsetAtPersist
        meters.drift.discardUnshown()
        meter.excluding { meters.imageWait.screenGone(at: now) }
        app.state = .terminated
        backgroundCores.appTerminated(at: now)
        meters.offMain.add(engine.offMainCounters)
        app.launch += 1
        meters.digest.combine(UInt64(0x6B696C6C))
        scheduleAction(after: delay + scenario.lifecycle.coldStartNs, owner: .launch(app.launch)) { [unowned self] in
            self.relaunch()
        }
    }

    /// A cold start: a new engine restores persisted state if it is recent
    /// enough, else loads from the network.
    func relaunch() {
        timeline?.mark("relaunch", at: now)
        app.state = .foreground
        engine = newEngine()
        resetScrollView()
        app.relaunchCapture = app.captureAtTermination
        if let snapshot = app.persisted, now - snapshot.savedAt <= scenario.lifecycle.restoreMaxAgeNs {
            engine.restore(from: snapshot)
            // What is on screen now is what was saved.
            app.commitsSincePersist = 0
            app.offsetAtPersist = scrollView.contentOffset
        } else {
            engine.start()
        }
        app.captureAtTermination = nil
    }
}
