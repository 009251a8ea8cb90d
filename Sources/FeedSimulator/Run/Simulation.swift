import Determinism
import FeedEngine
import FeedScenario

/// One deterministic run of a scenario: the world's event loop driving the
/// feed engine.
public final class Simulation {
    /// What can happen in the world.
    enum Event {
        /// The app launches and asks for its first page.
        case launch
        /// Vsync number `index`.
        case vsync(Int64)
        /// Script step number `index`.
        case script(Int)
        /// A timer of the engine's or a response of the server's, by slot.
        case action(Int)
        /// The finger of drag number `index` lifts.
        case lift(Int)
        /// The run's end.
        case end

        var code: UInt64 {
            switch self {
            case .launch: 1
            case .vsync: 2
            case .script: 3
            case .action: 4
            case .end: 5
            case .lift: 6
            }
        }
    }

    /// Layout passes a frame may take while a resting view settles into
    /// content that its own measuring shrank. Each pass measures the cells
    /// the last one brought into view, so the loop ends by itself well before
    /// this (a feed estimated far too tall shrinks by a screen or so a pass);
    /// the bound only keeps a broken layout from spinning.
    static let settlePasses = 1_000

    /// The most events that may wait at once.
    static let queueCapacity = 1_000_000

    public let request: RunRequest
    let scenario: Scenario
    let display: Display
    let costModel: CostModel
    var queue = EventQueue<Event>(capacity: Simulation.queueCapacity)
    var accountant: FrameAccountant
    var scrollView: ScrollView
    let meter: AllocationMeter
    let streams: RandomStreams
    /// The run's timeline, when the request asks for one.
    let timeline: TimelineRecorder?
    /// The feed server, answering through the run's network model.
    lazy var server = FeedServer(
        feed: scenario.feed, server: scenario.server, network: feedNetwork, streams: streams,
        clock: { [unowned self] in self.now }, recorder: timeline
    ) { [unowned self] delay, deliver in
        self.scheduleAction(after: delay, deliver)
    }
    /// The image CDN, on a network of its own with its own random stream.
    lazy var imageServer = ImageServer(
        network: imageNetwork,
        clock: { [unowned self] in self.now },
        respond: { [unowned self] delay, deliver in self.scheduleAction(after: delay, deliver) },
        cancel: { [unowned self] slot in
            if let timeline = self.timeline, slot < self.actions.count, self.actions[slot] != nil {
                timeline.actionCancelled(slot: slot, at: self.now)
            }
            self.cancelAction(slot: slot)
        },
        timeline: timeline)
    /// The servers as every engine of the run reaches them.
    lazy var transport = MeteredTransport(server: server, images: imageServer, meter: meter)
    /// The engine of the current launch; a relaunch makes a new one.
    lazy var engine = newEngine()
    private let feedNetwork: NetworkModel
    private let imageNetwork: NetworkModel
    /// What engines schedule through; kept here so that it lives as long as
    /// the simulation (the engine holds it unowned, its debouncer strongly).
    private(set) lazy var schedulerLink = EngineSchedulerLink(self)
    var driftMeter = DriftMeter()
    var digest = TraceDigest()
    public internal(set) var now: SimTime = 0
    var eventsProcessed = 0
    /// Closures waiting for their `.action` event, by slot; a slot is freed
    /// when its action runs or is cancelled.
    var actions: [(() -> Void)?] = []
    var freeSlots: [Int] = []
    /// The event sequence number of each slot's pending action, for cancelling.
    var slotSequence: [UInt64] = []
    /// The first vsync the main thread is free for.
    var nextFrameVsync: Int64 = 0
    var lastRenderedOffset: Double = .nan
    /// When the last frame rendered.
    var lastFrameTime: SimTime = 0
    /// The display rate in force (ProMotion, where the device adapts).
    var refreshRate: RefreshRateGovernor
    var requestsAtLastFrame: UInt64 = 0
    /// After a relaunch, until its first content commits: the anchor as the
    /// reader last saw it before the kill.
    var relaunchCapture: DriftMeter.Capture?
    /// Drags begun so far; a lift event names the drag it ends.
    var dragNumber = 0
    var inputGenerator: Xoshiro256StarStar
    var width: Double
    var memory: MemoryModel
    /// Whether the app is on screen; frames render only then.
    var appState = AppState.foreground
    /// State the engine persisted, for a relaunch.
    var persisted: FeedSnapshot?
    /// The anchor the reader last saw before the app was terminated.
    var captureAtTermination: DriftMeter.Capture?
    /// Incremented at every termination; actions scheduled by an earlier
    /// launch do not run.
    var launchGeneration = 0
    var slotGeneration: [Int] = []
    var wasResting = true
    /// Data commits in progress: more than one when a change happens inside
    /// another's commit.
    var commitDepth = 0
    /// Data commits since the app last saved its state.
    var commitsSincePersist = 0
    /// Where the content was when the app last saved its state.
    var offsetAtPersist = Double.nan
    /// Whether the state a relaunch restores misses changes the reader saw.
    var persistedIsStale = false
    /// Whether a frame's layout pass is running.
    var layingOutFrame = false
    /// The first change the current frame's layout set off, if any.
    var frameLayoutChange: ChangeCause?
    /// Invariants found broken, when the request asks for the checks.
    var invariantFailures: [InvariantFailure] = []

    /// Where the app is in its lifecycle.
    enum AppState: Equatable {
        case foreground
        case background(since: SimTime)
        case terminated
    }

    public init(request: RunRequest) throws {
        self.request = request
        scenario = request.loaded.scenario
        let device = request.loaded.device
        display = Display(refreshHz: request.refreshHz)
        refreshRate = RefreshRateGovernor(panel: display, isAdaptive: device.adaptiveRefresh)
        costModel = CostModel(costs: device.costs, jitterSigma: device.costJitterSigma.value, seed: request.seed)
        accountant = FrameAccountant(display: display, keepsRecords: request.recordFrames)
        width = device.screenWidthPt.value
        scrollView = ScrollView(
            viewportHeight: device.screenHeightPt.value,
            insetTop: device.safeAreaTopPt.value,
            insetBottom: device.safeAreaBottomPt.value,
            contentHeight: 0)
        meter = try AllocationMeter()
        timeline = request.recordTimeline ? TimelineRecorder(meter: meter) : nil
        memory = MemoryModel(settings: scenario.memory)
        streams = RandomStreams(seed: request.seed)
        inputGenerator = streams.generator(for: .input)
        feedNetwork = try request.network.model(streams: streams)
        imageNetwork = try request.network.model(streams: RandomStreams(seed: request.seed ^ RandomStreams.Stream.images.rawValue))
        // The server writes its timeline now, before anything runs, and the
        // transport is made outside any measured block.
        _ = transport
        resetScrollView()
    }

    /// A disk cache read of an image on an iPhone's flash storage, in
    /// nanoseconds: a few hundred kilobytes at ~1 GB/s plus file-system overhead.
    static let diskReadLatency: SimTime = 2_000_000

    /// A new engine, for a launch or a relaunch. Engines of earlier
    /// launches are let go: their callbacks hold them weakly, and actions
    /// they scheduled are skipped (see `launchGeneration`).
    func newEngine() -> FeedEngine {
        FeedEngine(
            configuration: Simulation.engineConfiguration(
                request.engine, feed: scenario.feed, width: width, decodePerMegapixel: request.loaded.device.costs.decodePerMegapixel.value),
            viewport: self, transport: transport, imageTransport: transport, scheduler: schedulerLink)
    }

    /// The scroll view at the top of the current engine's content.
    func resetScrollView() {
        scrollView = ScrollView(
            viewportHeight: scrollView.viewportHeight, insetTop: scrollView.insetTop, insetBottom: scrollView.insetBottom,
            contentHeight: 0, contentMinY: engine.listView.contentMinY)
        lastRenderedOffset = .nan
    }

    static func engineConfiguration(
        _ settings: EngineSettings, feed: FeedSettings, width: Double, decodePerMegapixel: Double
    ) -> FeedEngineConfiguration {
        let decode: ImageDecodeMode = settings.imageDecode == .main
            ? .mainThread : .background(nanosecondsPerMegapixel: Int64(decodePerMegapixel.rounded()))
        return FeedEngineConfiguration(
            list: FeedListConfiguration(
                estimatedItemHeight: settings.estimatedItemHeightPt, width: width,
                coordinateSpace: .ordinary),
            positionStrategy: settings.positionStrategy,
            diffAlgorithm: settings.diffAlgorithm,
            debounceInterval: settings.debounceNs,
            viewModelCacheCount: settings.viewModelCacheCount,
            viewModelCacheCost: settings.viewModelCacheCostBytes,
            pageSize: feed.pageSize,
            loadMoreThreshold: feed.loadMoreThreshold,
            refreshTriggerDistance: settings.refreshTriggerPt,
            newPostsPolicy: settings.newPostsPolicy,
            tuner: FeedTuner.Options(hideReplies: settings.hideReplies, hideReposts: settings.hideReposts),
            images: ImagePipeline.Configuration(
                decodeMode: decode, diskReadLatency: diskReadLatency,
                memoryCacheCostLimit: settings.imageMemoryCacheBytes, diskCacheSizeLimit: settings.imageDiskCacheBytes,
                prefetchWindow: settings.imagePrefetchWindow))
    }

    /// Runs the scenario to its end and returns what it measured.
    public func run() throws(SimulationLimitError) -> RunResult {
        try schedule(.launch, at: 0)
        // The app hears that the network is back when each offline window ends.
        for window in server.network.offlineWindows where window.upperBound < scenario.durationNs {
            scheduleAction(after: window.upperBound) { [unowned self] in self.engine.networkDidBecomeAvailable() }
        }
        for (index, step) in scenario.script.enumerated() {
            try schedule(.script(index), at: step.atNs)
        }
        try schedule(.end, at: scenario.durationNs)

        loop: while let (time, _, event) = queue.popNext() {
            eventsProcessed += 1
            guard eventsProcessed <= scenario.limits.maxEvents else {
                throw .eventLimit(limit: scenario.limits.maxEvents, time: time)
            }
            now = time
            digest.combine(time)
            digest.combine(event.code)
            switch event {
            case .launch:
                meter.measure { engine.start() }
                // The first vsync comes after launch has asked for its data,
                // so an instant answer is on the first frame.
                try schedule(.vsync(0), at: 0)
            case let .vsync(index):
                if index >= nextFrameVsync, refreshRate.isFrameVsync(index) { renderFrame(vsync: index) }
                let next = max(index + 1, nextFrameVsync)
                if display.vsyncTime(next) < scenario.durationNs {
                    try schedule(.vsync(next), at: display.vsyncTime(next))
                }
            case let .script(index):
                digest.combine(index)
                perform(scenario.script[index].action)
            case let .lift(drag):
                liftFinger(drag: drag)
            case let .action(slot):
                let action = actions[slot]
                let current = slotGeneration[slot] == launchGeneration
                actions[slot] = nil
                freeSlots.append(slot)
                if let action, current { meter.measure(action) }
                checkMemory()
            case .end:
                break loop
            }
            if let error = pendingLimitError { throw error }
        }
        return result()
    }

    /// A limit hit inside a callback that cannot throw, raised by the loop.
    var pendingLimitError: SimulationLimitError?

    func schedule(_ event: Event, at time: SimTime) throws(SimulationLimitError) {
        _ = try scheduleReturningSequence(event, at: time)
    }

    func scheduleReturningSequence(_ event: Event, at time: SimTime) throws(SimulationLimitError) -> UInt64 {
        guard time >= now else { throw .eventInPast(now: now, time: time) }
        guard time <= scenario.limits.maxSimulatedNs else {
            throw .timeLimit(limit: scenario.limits.maxSimulatedNs, time: time)
        }
        return try queue.schedule(event, at: time)
    }

    /// Queues `action` to run `delay` ns from now; returns its slot.
    @discardableResult
    func scheduleAction(after delay: SimTime, _ action: @escaping () -> Void) -> Int {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            actions[slot] = action
            slotGeneration[slot] = launchGeneration
        } else {
            slot = actions.count
            actions.append(action)
            slotSequence.append(0)
            slotGeneration.append(launchGeneration)
        }
        do {
            slotSequence[slot] = try scheduleReturningSequence(.action(slot), at: now + max(0, delay))
        } catch {
            pendingLimitError = pendingLimitError ?? error
        }
        return slot
    }

    func cancelAction(slot: Int) {
        guard slot < actions.count, actions[slot] != nil else { return }
        actions[slot] = nil
        queue.cancel(slotSequence[slot])
        freeSlots.append(slot)
    }

    /// One vsync with the main thread free: move the scroll view, lay out the
    /// visible cells and account the frame, if anything rendered.
    private func renderFrame(vsync index: Int64) {
        guard appState == .foreground else { return }
        scrollView.advance(to: now)
        let list = engine.listView
        let moved = scrollView.contentOffset != lastRenderedOffset
        // Work done between frames (a commit, a response handled) is
        // rendered, and charged, in the next frame.
        guard moved || list.needsLayout || engine.hasPendingWork else {
            noteRest()
            return
        }
        let visible = meter.measure { () -> Range<Int> in
            engine.scrollViewDidScroll(isDragging: scrollView.isDragging)
            let changed = driftMeter.hasPendingChange
            let before = changed ? nil : captureAnchor()
            // Changes the layout itself sets off (an image from the memory
            // cache whose size was unknown, delivered as its cell is
            // configured) belong to this frame, judged from before it.
            frameLayoutChange = nil
            layingOutFrame = true
            var visible = engine.layoutVisibleCells()
            var measuredAbove = list.measuredAboveAnchorInLastPass
            meter.excluding { scrollView.setContentExtent(minY: list.contentMinY, maxY: list.contentMaxY) }
            // Cells measured shorter than estimated can leave a resting view
            // past the content's new end: it settles to the edge and lays out
            // again in the same frame, as UIKit does in one layout pass.
            var passes = 1
            while passes < Simulation.settlePasses, meter.excluding({ scrollView.settleIntoExtent() }) {
                visible = engine.layoutVisibleCells()
                measuredAbove = measuredAbove || list.measuredAboveAnchorInLastPass
                meter.excluding { scrollView.setContentExtent(minY: list.contentMinY, maxY: list.contentMaxY) }
                passes += 1
            }
            layingOutFrame = false
            meter.excluding {
                if changed {
                    driftMeter.frameShown(at: now, list: list, view: scrollView)
                } else if measuredAbove || frameLayoutChange != nil, let before, before.wasDisplayed {
                    // Only a cell the reader saw can be seen to move: a rect
                    // scrolled into fresh content is measured before it is
                    // ever shown.
                    driftMeter.record(frameLayoutChange ?? .heightChange, at: now, before: before, list: list, view: scrollView)
                }
            }
            return visible
        }
        var cellTime = 0.0
        // Kept apart too for a timeline's commit slices: two additions a
        // cell, and `cellTime` is summed exactly as before.
        var configureTime = 0.0
        var measureTime = 0.0
        let work = engine.drainWork { cell in
            let time = costModel.time(of: cell, vsync: index)
            cellTime += time
            if cell.kind == .configure { configureTime += time } else { measureTime += time }
        }
        let offset = scrollView.contentOffset

        let requests = meter.total().requests
        let frameWork = costModel.commitTime(for: work, cellTime: cellTime, vsync: index)
        let render = costModel.renderTime(for: scene(visible), vsync: index)
        let rate = refreshRate.current
        let record = accountant.recordFrame(
            at: now, work: frameWork, render: render, contentOffset: offset, visible: visible,
            allocations: requests &- requestsAtLastFrame, rate: rate)
        if !lastRenderedOffset.isNaN, now > lastFrameTime {
            let speed = abs(offset - lastRenderedOffset) / (Double(now - lastFrameTime) / 1e9)
            refreshRate.frameRendered(speed: speed, touching: scrollView.isDragging)
        }
        lastFrameTime = now
        requestsAtLastFrame = requests
        if let timeline {
            timeline.recordFrame(record, parts: costModel.commitParts(
                for: work, configureTime: configureTime, measureTime: measureTime, vsync: index))
        }
        lastRenderedOffset = offset
        nextFrameVsync = display.firstVsync(atOrAfter: accountant.nextCommitTime(after: record, rate: rate))
        digest.combine(frameWork)
        digest.combine(offset)
        digest.combine(visible.lowerBound)
        digest.combine(visible.upperBound)
        if request.checkInvariants { checkScrollInvariants(frame: record.frame) }
        noteRest()
        checkMemory()
    }

    /// The scroll view's invariants after a frame: a finite offset, and
    /// content at rest within its edges.
    private func checkScrollInvariants(frame: Int) {
        let offset = scrollView.contentOffset
        if !offset.isFinite {
            noteInvariantFailure("contentOffset is \(offset)", frame: frame)
        } else if scrollView.isResting,
                  offset < scrollView.minOffset - DriftMeter.eventThreshold || offset > scrollView.maxOffset + DriftMeter.eventThreshold {
            noteInvariantFailure(
                "the content rests at offset \(offset), outside its edges \(scrollView.minOffset)...\(scrollView.maxOffset)", frame: frame)
        }
    }

    /// The engine's invariants, after a data commit.
    func checkEngineInvariants() {
        for problem in engine.invariantViolations() { noteInvariantFailure(problem, frame: accountant.framesRendered) }
    }

    private func noteInvariantFailure(_ message: String, frame: Int) {
        guard invariantFailures.count < InvariantFailure.limit else { return }
        invariantFailures.append(InvariantFailure(time: now, frame: frame, message: message))
    }

    /// What the render server draws with `visible` on screen: a layer tree
    /// per cell, and each image blended and masked to rounded corners.
    func scene(_ visible: Range<Int>) -> CostModel.Scene {
        let items = engine.listView.items
        var scene = CostModel.Scene(layers: visible.count)
        for index in visible where items[index].post.media != nil {
            scene.images += 1
            scene.offscreenPasses += 1
        }
        return scene
    }

    /// Saves the engine's state, as the app does when a scroll ends and
    /// when it goes to the background.
    func persist() {
        guard !engine.posts.isEmpty else { return }
        commitsSincePersist = 0
        offsetAtPersist = scrollView.contentOffset
        persisted = meter.measure { engine.snapshot() }
    }

    /// Samples the footprint; warns the engine or kills the app as the
    /// system would.
    func checkMemory() {
        guard appState != .terminated else { return }
        let bytes = memory.footprint(posts: engine.posts.count, cacheBytes: Int64(engine.cacheMemoryBytes))
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
        digest.combine(UInt64(0x6D656D))
    }

    /// The app is killed; the reader opens it again `relaunchAfter` ns
    /// later, and it cold-starts from persisted state.
    func terminate(relaunchAfter delay: SimTime) {
        timeline?.mark("terminate", at: now)
        if appState == .foreground { captureAtTermination = captureAnchor() }
        // What was saved misses what changed since, and where the reader
        // went since (a kill mid-fling).
        persistedIsStale = commitsSincePersist > 0 || !scrollView.isResting || scrollView.contentOffset != offsetAtPersist
        driftMeter.discardUnshown()
        appState = .terminated
        launchGeneration += 1
        digest.combine(UInt64(0x6B696C6C))
        scheduleAction(after: delay + scenario.lifecycle.coldStartNs) { [unowned self] in self.relaunch() }
    }

    /// A cold start: a new engine restores persisted state if it is recent
    /// enough, else loads from the network.
    func relaunch() {
        timeline?.mark("relaunch", at: now)
        appState = .foreground
        engine = newEngine()
        resetScrollView()
        relaunchCapture = captureAtTermination
        if let snapshot = persisted, now - snapshot.savedAt <= scenario.lifecycle.restoreMaxAgeNs {
            engine.restore(from: snapshot)
            // What is on screen now is what was saved.
            commitsSincePersist = 0
            offsetAtPersist = scrollView.contentOffset
        } else {
            engine.start()
        }
        captureAtTermination = nil
    }

    func captureAnchor() -> DriftMeter.Capture? {
        DriftMeter.capture(
            list: engine.listView, contentOffset: scrollView.contentOffset, viewportHeight: scrollView.viewportHeight,
            insetTop: scrollView.insetTop, insetBottom: scrollView.insetBottom)
    }

    private func result() -> RunResult {
        RunResult(
            scenario: scenario.name,
            variant: request.variant,
            refreshHz: request.refreshHz,
            seed: request.seed,
            duration: scenario.durationNs,
            frameSummary: accountant.finish(),
            frames: accountant.records,
            drift: driftMeter.records,
            allocations: meter.total(),
            peakMemoryMB: Double(memory.peakBytes) / Double(1 << 20),
            memoryWarnings: memory.warnings,
            jetsamKills: memory.kills,
            networkRequests: server.requests,
            networkFailures: server.failedRequests,
            viewModelHitRate: engine.viewModelHitRate,
            imageHitRate: engine.imageHitRate,
            eventsProcessed: eventsProcessed,
            traceDigest: digest,
            timeline: timeline?.timeline,
            invariantFailures: invariantFailures)
    }
}
