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

    /// The launch of actions a killed app scheduled: none, so they never run.
    static let killedLaunch = -1

    /// The launch of the world's actions that concern whichever launch is
    /// running when they fire (the network's return), not the one that
    /// scheduled them: they run in every launch.
    static let runningLaunch = -2

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
    /// What engines schedule through (each engine holds it too). It reaches
    /// the simulation only while `run()` runs, so it makes no cycle.
    let schedulerLink = EngineSchedulerLink()
    @exclusivity(unchecked) var driftMeter = DriftMeter()
    @exclusivity(unchecked) var imageWaitMeter = ImageWaitMeter()
    /// The scroll view's retargeted flings as the outermost commit began.
    @exclusivity(unchecked) var retargetsAtCommit = 0
    @exclusivity(unchecked) var digest = TraceDigest()
    @exclusivity(unchecked) package internal(set) var now: SimTime = 0
    @exclusivity(unchecked) var eventsProcessed = 0
    /// Closures waiting for their `.action` event, by slot; a slot is freed
    /// when its action runs or is cancelled.
    @exclusivity(unchecked) var actions: [PendingAction?] = []
    @exclusivity(unchecked) var freeSlots: [Int] = []
    /// The event sequence number of each slot's pending action, for cancelling.
    @exclusivity(unchecked) var slotSequence: [UInt64] = []
    /// The first vsync the main thread is free for.
    @exclusivity(unchecked) var nextFrameVsync: Int64 = 0
    @exclusivity(unchecked) var lastRenderedOffset: Double = .nan
    /// When the last frame rendered.
    @exclusivity(unchecked) var lastFrameTime: SimTime = 0
    /// The display rate in force (ProMotion, where the device adapts).
    @exclusivity(unchecked) var refreshRate: RefreshRateGovernor
    @exclusivity(unchecked) var requestsAtLastFrame: UInt64 = 0
    /// After a relaunch, until its first content commits: the anchor as the
    /// reader last saw it before the kill.
    @exclusivity(unchecked) var relaunchCapture: DriftMeter.Capture?
    /// Drags begun so far; a lift event names the drag it ends.
    @exclusivity(unchecked) var dragNumber = 0
    @exclusivity(unchecked) var inputGenerator: Xoshiro256StarStar
    @exclusivity(unchecked) var width: Double
    @exclusivity(unchecked) var memory: MemoryModel
    /// Whether the app is on screen; frames render only then.
    @exclusivity(unchecked) var appState = AppState.foreground
    /// State the engine persisted, for a relaunch.
    @exclusivity(unchecked) var persisted: FeedSnapshot?
    /// The anchor the reader last saw before the app was terminated.
    @exclusivity(unchecked) var captureAtTermination: DriftMeter.Capture?
    /// Incremented at every termination; actions scheduled by an earlier
    /// launch do not run.
    @exclusivity(unchecked) var launchGeneration = 0
    @exclusivity(unchecked) var slotGeneration: [Int] = []
    @exclusivity(unchecked) var wasResting = true
    /// Data commits in progress: more than one when a change happens inside
    /// another's commit.
    @exclusivity(unchecked) var commitDepth = 0
    /// Data commits since the app last saved its state, on screen or in
    /// the background.
    @exclusivity(unchecked) var commitsSincePersist = 0
    /// Where the content was when the app last saved its state.
    @exclusivity(unchecked) var offsetAtPersist = Double.nan
    /// Whether the state a relaunch restores misses changes the reader saw.
    @exclusivity(unchecked) var persistedIsStale = false
    /// Whether a frame's layout pass is running.
    @exclusivity(unchecked) var layingOutFrame = false
    /// The first change the current frame's layout set off, if any.
    @exclusivity(unchecked) var frameLayoutChange: ChangeCause?
    /// Invariants found broken, when the request asks for the checks.
    @exclusivity(unchecked) var invariantFailures: [InvariantFailure] = []
    /// The post the last drift record left on a resting screen, watched
    /// until the reader moves, another change comes or the app leaves.
    @exclusivity(unchecked) var holdWatch: HoldWatch?
    /// The post an animated scroll started at this time is going to, while
    /// the host re-estimates where it is at every frame.
    @exclusivity(unchecked) var scrollTarget: (target: ScrollTarget, startedAt: SimTime)?
    /// Drift records the watch has seen.
    @exclusivity(unchecked) var watchedRecords = 0
    /// Posts that moved while watched, when the request asks for the checks.
    @exclusivity(unchecked) var holdSlips: [HoldSlip] = []

    /// Where the app is in its lifecycle.
    enum AppState: Equatable {
        case foreground
        case background(since: SimTime)
        case terminated
    }

    package init(request: RunRequest) throws {
        self.request = request
        // Every repetition of every step, in time order: a scenario built
        // in memory (a shrinker's repro) runs as its file does.
        var scenario = request.loaded.scenario
        scenario.script = scenario.expandedScript
        self.scenario = scenario
        let device = request.loaded.device
        display = Display(refreshHz: request.refreshHz)
        refreshRate = RefreshRateGovernor(panel: display, isAdaptive: device.adaptiveRefresh)
        costModel = CostModel(costs: device.costs, jitterSigma: device.costJitterSigma.value, seed: request.seed)
        accountant = FrameAccountant(display: display, keepsRecords: request.recordFrames)
        accountant.reserveCapacity(forDuration: scenario.durationNs)
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
            scheduleAction(after: window.upperBound, generation: Simulation.runningLaunch) { [unowned self] in
                guard self.appState != .terminated else { return }
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
            digest.combine(time)
            digest.combine(event.code)
            switch event {
            case .launch:
                meter.measure { engine.start() }
                // The first vsync comes after launch has asked for its data,
                // so an instant answer is on the first frame.
                try schedule(.vsync(0), at: 0)
            case let .vsync(index):
                var idle = false
                if index >= nextFrameVsync, refreshRate.isFrameVsync(index) { idle = renderFrame(vsync: index) == .idle }
                var next = max(index + 1, nextFrameVsync)
                if idle { next = try skipIdleVsyncs(from: next) }
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
                let current = slotGeneration[slot] == launchGeneration || slotGeneration[slot] == Simulation.runningLaunch
                actions[slot] = nil
                freeSlots.append(slot)
                if let action, current { meter.measure(action.run) }
                checkMemory()
            case .end:
                imageWaitMeter.screenGone(at: now)
                break loop
            }
            if let error = pendingLimitError { throw error }
        }
        return result()
    }

    /// A limit hit inside a callback that cannot throw, raised by the loop.
    @exclusivity(unchecked) var pendingLimitError: SimulationLimitError?

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
            allocations: meter.reported(),
            peakMemoryMB: Double(memory.peakBytes) / Double(1 << 20),
            memoryWarnings: memory.warnings,
            jetsamKills: memory.kills,
            networkRequests: server.requests,
            networkFailures: server.failedRequests,
            viewModelHitRate: engine.viewModelHitRate,
            imageHitRate: engine.imageHitRate,
            imageWait: imageWaitMeter.summary(),
            eventsProcessed: eventsProcessed,
            traceDigest: digest,
            timeline: timeline?.timeline,
            invariantFailures: invariantFailures,
            holdSlips: holdSlips)
    }
}
