import FeedEngine
import FeedScenario

/// The simulation's state, grouped by what it is about. Each group is a
/// value the simulation keeps and its steps read and change; none reaches
/// outside a run.
extension Simulation {
    /// The frame loop.
    struct FrameState {
        /// The first vsync the main thread is free for.
        var nextVsync: Int64 = 0
        /// The content offset the last frame showed (NaN before the first).
        var lastRenderedOffset: Double = .nan
        /// When the last frame rendered.
        var lastTime: SimTime = 0
        /// The display rate in force (ProMotion, where the device adapts).
        var refreshRate: RefreshRateGovernor
        /// The allocation requests counted when the last frame rendered.
        var requestsAtLast: UInt64 = 0
        /// Whether a frame's layout pass is running.
        var isLayingOut = false
        /// The first change the current frame's layout set off, if any.
        var layoutChange: ChangeCause?
    }

    /// Where the app is in its lifecycle.
    enum AppState: Equatable {
        case foreground
        case background(since: SimTime)
        case terminated
    }

    /// The app's life: on screen or not, its launches, and what it saved for
    /// a relaunch.
    struct AppLifecycle {
        /// Whether the app is on screen; frames render only then.
        var state = AppState.foreground
        /// The running launch: 0 for the first, one more at every
        /// termination. Actions an earlier launch scheduled do not run.
        var launch = 0
        /// State the engine persisted, for a relaunch.
        var persisted: FeedSnapshot?
        /// Data commits since the app last saved its state, on screen or in
        /// the background.
        var commitsSincePersist = 0
        /// Where the content was when the app last saved its state.
        var offsetAtPersist = Double.nan
        /// Whether the state a relaunch restores misses changes the reader saw.
        var persistedIsStale = false
        /// The anchor the reader last saw before the app was terminated.
        var captureAtTermination: DriftMeter.Capture?
        /// After a relaunch, until its first content commits: the anchor as
        /// the reader last saw it before the kill.
        var relaunchCapture: DriftMeter.Capture?
    }

    /// Whose an action waiting in a slot is, which decides whether it runs.
    enum ActionOwner: Equatable {
        /// The launch that scheduled it: it runs only while that launch does.
        case launch(Int)
        /// A killed app finishing what it was doing as the kill unwound: it
        /// never runs.
        case killedApp
        /// The world, for whichever launch is running when it fires (the
        /// network's return): it runs in every launch.
        case runningLaunch

        /// Whether the action runs while launch `running` is the app's.
        func runs(inLaunch running: Int) -> Bool {
            switch self {
            case let .launch(launch): launch == running
            case .killedApp: false
            case .runningLaunch: true
            }
        }
    }

    /// Actions (engine timers, server responses) waiting for their `.action`
    /// event, in numbered slots; a slot is freed when its action runs or is
    /// cancelled, and used again.
    struct ActionSlots {
        /// The closure waiting in each slot, nil once it ran or was cancelled.
        var actions: [PendingAction?] = []
        /// Slots free for the next action.
        var free: [Int] = []
        /// The event sequence number of each slot's pending action, for
        /// cancelling.
        var sequence: [UInt64] = []
        /// Whose each slot's action is.
        var owner: [ActionOwner] = []
    }

    /// The reader's input.
    struct ReaderInput {
        /// The screen's width, which a rotation changes.
        var width: Double
        /// Drags begun so far; a lift event names the drag it ends.
        var dragNumber = 0
        /// Whether the scroll view was at rest after the last frame or lift.
        var wasResting = true
        /// The post an animated scroll started at this time is going to,
        /// while the host re-estimates where it is at every frame.
        var scrollTarget: (target: ScrollTarget, startedAt: SimTime)?
    }

    /// The data commit in progress.
    struct CommitState {
        /// Data commits in progress: more than one when a change happens
        /// inside another's commit.
        var depth = 0
        /// The scroll view's retargeted flings as the outermost commit began.
        var retargetsAtStart = 0
    }

    /// What a run measures of the reader's experience.
    struct Meters {
        /// Every change the reader did not make, and what it did to their place.
        var drift = DriftMeter()
        /// How long posts wait for their images on screen.
        var imageWait = ImageWaitMeter()
        /// A hash of the run's event stream.
        var digest = TraceDigest()
        /// Cells shown without their contents, and what engines a relaunch
        /// replaced did off the main thread.
        var offMain = OffMainSummary()
    }

    /// What the request's checks found (`RunRequest.checkInvariants`).
    struct Checks {
        /// Invariants found broken.
        var invariantFailures: [InvariantFailure] = []
        /// The post the last drift record left on a resting screen, watched
        /// until the reader moves, another change comes or the app leaves.
        var holdWatch: HoldWatch?
        /// Drift records the watch has seen.
        var watchedRecords = 0
        /// Posts that moved while watched.
        var holdSlips: [HoldSlip] = []
    }
}
