import Determinism
import FeedEngine
import FeedScenario

/// One deterministic run of a scenario: the world's event loop driving the
/// feed engine.
///
/// A run is single-threaded: the stored properties of the simulator's
/// classes are `@exclusivity(unchecked)`, as the engine's are (see
/// `FeedEngine`).
package final class Simulation {
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

    package let request: RunRequest
    let scenario: Scenario
    let display: Display
    let costModel: CostModel
    @exclusivity(unchecked) var queue = EventQueue<Event>(capacity: Simulation.queueCapacity)
    @exclusivity(unchecked) var accountant: FrameAccountant
    @exclusivity(unchecked) var scrollView: ScrollView
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
            if let timeline = self.timeline, slot < self.slots.actions.count, self.slots.actions[slot] != nil {
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
    /// What engines schedule through (each engine holds it too). It reaches
    /// the simulation only while `run()` runs, so it makes no cycle.
    let schedulerLink = EngineSchedulerLink()
    /// The device's background cores, which run the layout strategy's jobs.
    let backgroundCores: BackgroundCoreModel
    /// Whether the layout strategy draws contents off the main thread, so
    /// that a frame can show a placeholder: read once, not asked of the
    /// engine every frame.
    let drawsContentsOffMain: Bool
    @exclusivity(unchecked) package internal(set) var now: SimTime = 0
    @exclusivity(unchecked) var eventsProcessed = 0
    /// A limit hit inside a callback that cannot throw, raised by the loop.
    @exclusivity(unchecked) var pendingLimitError: SimulationLimitError?
    @exclusivity(unchecked) var memory: MemoryModel
    /// The frame loop: the next vsync free, the last frame, the refresh rate.
    @exclusivity(unchecked) var frame: FrameState
    /// The app's life: on screen or not, its launches, what it saved.
    @exclusivity(unchecked) var app = AppLifecycle()
    /// The reader's input: drags, the width of the screen, a scroll's target.
    @exclusivity(unchecked) var input: ReaderInput
    /// The data commit in progress, if any.
    @exclusivity(unchecked) var commit = CommitState()
    /// What the run measures of the reader's experience.
    @exclusivity(unchecked) var meters = Meters()
    /// What the request's checks found.
    @exclusivity(unchecked) var checks = Checks()
    /// Actions (engine timers, server responses) waiting for their event.
    @exclusivity(unchecked) var slots = ActionSlots()

    package init(request: RunRequest) throws {
        self.request = request
        // Every repetition of every step, in time order: a scenario built
        // in memory (a shrinker's repro) runs as its file does.
        var scenario = request.loaded.scenario
        scenario.script = scenario.expandedScript
        self.scenario = scenario
        let device = request.loaded.device
        display = Display(refreshHz: request.refreshHz)
        frame = FrameState(refreshRate: RefreshRateGovernor(panel: display, isAdaptive: device.adaptiveRefresh))
        costModel = CostModel(costs: device.costs, jitterSigma: device.costJitterSigma.value, seed: request.seed)
        accountant = FrameAccountant(display: display, keepsRecords: request.recordFrames)
        accountant.reserveCapacity(forDuration: scenario.durationNs)
        input = ReaderInput(width: device.screenWidthPt.value)
        scrollView = ScrollView(
            viewportHeight: device.screenHeightPt.value,
            insetTop: device.safeAreaTopPt.value,
            insetBottom: device.safeAreaBottomPt.value,
            contentHeight: 0)
        meter = try AllocationMeter()
        timeline = request.recordTimeline ? TimelineRecorder(meter: meter) : nil
        drawsContentsOffMain = request.engine.layoutStrategy.make().displaysAsynchronously
        backgroundCores = BackgroundCoreModel(
            cores: device.background, costModel: costModel, scheduler: schedulerLink, timeline: timeline)
        memory = MemoryModel(settings: scenario.memory)
        streams = RandomStreams(seed: request.seed)
        feedNetwork = try request.network.model(streams: streams)
        imageNetwork = try request.network.model(
            streams: RandomStreams(seed: request.seed ^ RandomStreams.Stream.images.rawValue), requestClass: "image")
        // The server writes its timeline now, before anything runs, and the
        // transport is made outside any measured block.
        _ = transport
        resetScrollView()
    }

    /// Runs the scenario to its end and returns what it measured.
    package func run() throws(SimulationLimitError) -> RunResult {
        schedulerLink.simulation = self
        // The link lets go when the run ends, however it ends, so that the
        // finished world is freed.
        defer { schedulerLink.simulation = nil }
        try schedule(.launch, at: 0)
        // The app hears that the network is back when each offline window
        // ends: the network is the world's, so the launch running then
        // hears it, whichever it is; an app killed then hears nothing, and
        // its relaunch finds the network there.
        for window in server.network.offlineWindows where window.upperBound < scenario.durationNs {
            scheduleAction(after: window.upperBound, owner: .runningLaunch) { [unowned self] in
                guard self.app.state != .terminated else { return }
                self.engine.networkDidBecomeAvailable()
            }
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
            meters.digest.combine(time)
            meters.digest.combine(event.code)
            switch event {
            case .launch:
                meter.measure { engine.start() }
                // The first vsync comes after launch has asked for its data,
                // so an instant answer is on the first frame.
                try schedule(.vsync(0), at: 0)
            case let .vsync(index):
                var idle = false
                if index >= frame.nextVsync, frame.refreshRate.isFrameVsync(index) {
                    idle = renderFrame(vsync: index) == .idle
                }
                var next = max(index + 1, frame.nextVsync)
                if idle { next = try skipIdleVsyncs(from: next) }
                if display.vsyncTime(next) < scenario.durationNs {
                    try schedule(.vsync(next), at: display.vsyncTime(next))
                }
            case let .script(index):
                meters.digest.combine(index)
                perform(scenario.script[index].action)
            case let .lift(drag):
                liftFinger(drag: drag)
            case let .action(slot):
                let action = slots.actions[slot]
                let current = slots.owner[slot].runs(inLaunch: app.launch)
                slots.actions[slot] = nil
                slots.free.append(slot)
                if let action, current { meter.measure(action.run) }
                checkMemory()
            case .end:
                meters.imageWait.screenGone(at: now)
                break loop
            }
            if let error = pendingLimitError { throw error }
        }
        return result()
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
            drift: meters.drift.records,
            allocations: meter.reported(),
            peakMemoryMB: Double(memory.peakBytes) / Double(1 << 20),
            memoryWarnings: memory.warnings,
            jetsamKills: memory.kills,
            networkRequests: server.requests,
            networkFailures: server.failedRequests,
            viewModelHitRate: engine.viewModelHitRate,
            imageHitRate: engine.imageHitRate,
            imageWait: meters.imageWait.summary(),
            eventsProcessed: eventsProcessed,
            traceDigest: meters.digest,
            timeline: timeline?.timeline,
            invariantFailures: checks.invariantFailures,
            holdSlips: checks.holdSlips,
            offMain: offMainSummary())
    }

    /// What the layout strategy did off the main thread: this launch's
    /// engine's, with those of the engines relaunches replaced.
    private func offMainSummary() -> OffMainSummary {
        var summary = meters.offMain
        summary.add(engine.offMainCounters)
        let tally = backgroundCores.tally
        summary.jobs = tally.jobs
        summary.movedWork = tally.movedWork
        summary.busy = tally.busy
        summary.waitP99 = tally.waitP99
        return summary
    }
}
