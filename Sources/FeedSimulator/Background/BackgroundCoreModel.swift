import FeedEngine
import FeedScenario

/// The device's background cores as the app's queues get them: a number of
/// cores (`background.cores` in the device profile) that each run one job
/// at a time, at a speed beside the main thread's core
/// (`background.speed`). A job waits in one first-in, first-out queue for
/// the first core free (the lowest-numbered among cores free at once), runs
/// for its main-thread cost over the speed, and its result is handed back
/// to the main thread as an event when it ends; applying it there is the
/// cost term `background_result`, charged to the next frame.
///
/// No thread runs: a job's start and end are worked out when it is queued,
/// as list scheduling on identical machines does, so a run is as
/// deterministic as the event queue.
final class BackgroundCoreModel: BackgroundQueue {
    private let speed: Double
    private let costModel: CostModel
    /// The engine's scheduler: results come back as its actions, so that a
    /// result for an engine a relaunch replaced is dropped with its others.
    private let scheduler: EngineSchedulerLink
    private let timeline: TimelineRecorder?
    /// When each core is next free.
    @exclusivity(unchecked) private var freeAt: [SimTime]
    /// Jobs queued so far: the key of each one's jitter draw.
    @exclusivity(unchecked) private var sequence: UInt64 = 0
    /// What the cores did.
    @exclusivity(unchecked) private(set) var tally = BackgroundTally()

    init(cores: BackgroundCores, costModel: CostModel, scheduler: EngineSchedulerLink, timeline: TimelineRecorder?) {
        speed = cores.speed.value
        freeAt = [SimTime](repeating: 0, count: max(1, Int(cores.cores.value)))
        self.costModel = costModel
        self.scheduler = scheduler
        self.timeline = timeline
    }

    func submit(_ job: BackgroundJob, completion: @escaping () -> Void) {
        let now = scheduler.now
        let mainThreadTime = costModel.mainThreadTime(of: job, sequence: sequence)
        sequence += 1
        let duration = SimTime((mainThreadTime / speed).rounded())
        var core = 0
        for candidate in freeAt.indices.dropFirst() where freeAt[candidate] < freeAt[core] { core = candidate }
        let start = max(now, freeAt[core])
        let end = start + duration
        freeAt[core] = end
        tally.record(mainThreadTime: mainThreadTime, duration: duration, wait: start - now)
        timeline?.recordBackgroundJob(
            BackgroundSlice(core: core, kind: job.kind, postID: job.cell.postID, queued: now, start: start, end: end))
        _ = scheduler.schedule(after: end - now, completion)
    }

    /// The app was terminated: its queues' work ends with it.
    func appTerminated(at time: SimTime) {
        for core in freeAt.indices { freeAt[core] = min(freeAt[core], time) }
    }
}

/// What the background cores did in a run.
package struct BackgroundTally: Sendable, Equatable {
    /// Jobs run.
    package var jobs = 0
    /// Σ of the jobs' cost on the main thread's core: the work the strategy
    /// moved off the main thread, in nanoseconds.
    package var movedWork = 0.0
    /// Σ of the jobs' run time on the background cores, in nanoseconds.
    package var busy: SimTime = 0
    /// Each job's wait for a core, in nanoseconds, in the order queued.
    package var waits: [SimTime] = []

    package init() {}

    mutating func record(mainThreadTime: Double, duration: SimTime, wait: SimTime) {
        jobs += 1
        movedWork += mainThreadTime
        busy += duration
        waits.append(wait)
    }

    /// The nearest-rank 99th percentile of the waits; 0 without jobs.
    package var waitP99: SimTime { NearestRank.percentilesAndMax(waits, [0.99])?.percentiles[0] ?? 0 }
}

/// One job on a background core, for a timeline.
package struct BackgroundSlice: Sendable, Equatable, Codable {
    package var core: Int
    package var kind: BackgroundJob.Kind
    package var postID: PostID
    package var queued: SimTime
    package var start: SimTime
    package var end: SimTime
}

extension OffMainSummary {
    /// Adds what an engine did off the main thread: its precomputed heights.
    mutating func add(_ counters: OffMainCounters) {
        heightsApplied += counters.heightsApplied
        heightMismatches += counters.heightMismatches
        if firstMismatch == nil { firstMismatch = counters.firstMismatch }
    }
}
