import FeedEngine
import FeedScenario

/// One deterministic run of a scenario: the world's event loop driving the
/// feed engine.
public final class Simulation {
    /// What can happen in the world.
    enum Event {
        /// The app launches and shows its first page.
        case launch
        /// Vsync number `index`.
        case vsync(Int64)
        /// Script step number `index`.
        case script(Int)
        /// The run's end.
        case end

        var code: UInt64 {
            switch self {
            case .launch: 1
            case .vsync: 2
            case .script: 3
            case .end: 4
            }
        }
    }

    /// The most events that may wait at once.
    static let queueCapacity = 1_000_000

    public let request: RunRequest
    private let scenario: Scenario
    private let display: Display
    private let costModel: CostModel
    private var queue = EventQueue<Event>(capacity: Simulation.queueCapacity)
    private var accountant: FrameAccountant
    private var scrollView: ScrollView
    private let list: FeedList
    private let meter: AllocationMeter
    private var feed: SyntheticFeed
    private var digest = TraceDigest()
    private var now: SimTime = 0
    private var eventsProcessed = 0
    /// The first vsync the main thread is free for.
    private var nextFrameVsync: Int64 = 0
    private var lastRenderedOffset: Double = .nan
    private var requestsAtLastFrame: UInt64 = 0

    public init(request: RunRequest) throws(AllocationMeterError) {
        self.request = request
        scenario = request.loaded.scenario
        let device = request.loaded.device
        display = Display(refreshHz: request.refreshHz)
        costModel = CostModel(costs: device.costs)
        accountant = FrameAccountant(display: display, keepsRecords: request.recordFrames)
        scrollView = ScrollView(
            viewportHeight: device.screenHeightPt.value,
            insetTop: device.safeAreaTopPt.value,
            insetBottom: device.safeAreaBottomPt.value,
            contentHeight: 0)
        list = FeedList(configuration: FeedListConfiguration(
            estimatedItemHeight: scenario.engine.estimatedItemHeightPt,
            width: device.screenWidthPt.value))
        meter = try AllocationMeter()
        feed = SyntheticFeed(settings: scenario.feed, streams: RandomStreams(seed: request.seed))
    }

    /// Runs the scenario to its end and returns what it measured.
    public func run() throws(SimulationLimitError) -> RunResult {
        try schedule(.launch, at: 0)
        try schedule(.vsync(0), at: 0)
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
                launch()
            case let .vsync(index):
                if index >= nextFrameVsync { renderFrame(vsync: index) }
                let next = max(index + 1, nextFrameVsync)
                if display.vsyncTime(next) < scenario.durationNs {
                    try schedule(.vsync(next), at: display.vsyncTime(next))
                }
            case let .script(index):
                digest.combine(index)
                perform(scenario.script[index].action)
            case .end:
                break loop
            }
        }
        return result()
    }

    private func schedule(_ event: Event, at time: SimTime) throws(SimulationLimitError) {
        guard time >= now else { throw .eventInPast(now: now, time: time) }
        guard time <= scenario.limits.maxSimulatedNs else {
            throw .timeLimit(limit: scenario.limits.maxSimulatedNs, time: time)
        }
        _ = try queue.schedule(event, at: time)
    }

    private func launch() {
        let posts = feed.nextPosts(scenario.feed.postCount)
        meter.measure { list.replaceAll(with: posts) }
        scrollView.contentHeight = list.contentHeight
    }

    private func perform(_ action: ScriptAction) {
        switch action {
        case let .drag(trajectory, release, deceleration):
            scrollView.beginDrag(
                at: now,
                trajectory: trajectory.map { ScrollView.TrajectorySample(time: $0.timeNs, displacement: $0.displacementPt) },
                release: release == .fling ? .fling : .stop,
                rate: deceleration.perMillisecond)
        case let .fling(velocity, deceleration):
            scrollView.fling(at: now, velocity: velocity, rate: deceleration.perMillisecond)
        }
    }

    /// One vsync with the main thread free: move the scroll view, lay out the
    /// visible cells and account the frame, if anything rendered.
    private func renderFrame(vsync index: Int64) {
        scrollView.advance(to: now)
        let offset = scrollView.contentOffset
        // As UIKit does, the list is laid out only when its bounds moved or
        // it was told its content changed.
        guard offset != lastRenderedOffset || list.needsLayout else { return }
        let visible = meter.measure {
            list.updateVisibleRect(minY: offset, height: scrollView.viewportHeight)
        }
        scrollView.contentHeight = list.contentHeight
        let work = list.drainWork()

        let requests = meter.total().requests
        let frameWork = costModel.frameBase + costModel.mainThreadTime(for: work)
        let record = accountant.recordFrame(
            at: now, work: frameWork, contentOffset: offset, visible: visible,
            allocations: requests &- requestsAtLastFrame)
        requestsAtLastFrame = requests
        lastRenderedOffset = offset
        nextFrameVsync = index + Int64(record.intervals)
        digest.combine(frameWork)
        digest.combine(offset)
        digest.combine(visible.lowerBound)
        digest.combine(visible.upperBound)
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
            drift: [],
            allocations: meter.total(),
            peakMemoryMB: 0,
            memoryWarnings: 0,
            jetsamKills: 0,
            networkRequests: 0,
            networkFailures: 0,
            viewModelHitRate: 0,
            imageHitRate: 0,
            eventsProcessed: eventsProcessed,
            traceDigest: digest)
    }
}
