import FeedEngine
import FeedScenario

/// One run to make: a scenario at one refresh rate, with one engine variant.
package struct RunRequest: Sendable, Equatable {
    package var loaded: LoadedScenario
    package var refreshHz: Int
    package var seed: UInt64
    package var variant: String
    /// Keep every frame record (for frames.csv).
    package var recordFrames: Bool
    /// Record the run's timeline (for a trace file).
    package var recordTimeline: Bool
    /// Check the engine's invariants at every data commit and the scroll
    /// view's at every frame, and report what broke (`feedsim explore`).
    package var checkInvariants = false

    package init(
        loaded: LoadedScenario, refreshHz: Int, seed: UInt64, variant: String = "default", recordFrames: Bool,
        recordTimeline: Bool = false
    ) {
        self.loaded = loaded
        self.refreshHz = refreshHz
        self.seed = seed
        self.variant = variant
        self.recordFrames = recordFrames
        self.recordTimeline = recordTimeline
    }

    /// The network of this request's variant.
    package var network: NetworkSettings {
        loaded.scenario.variants.first(where: { $0.name == variant })?.network ?? loaded.scenario.network
    }

    /// The engine settings of this request's variant.
    package var engine: EngineSettings {
        loaded.scenario.variants.first(where: { $0.name == variant })?.engine ?? loaded.scenario.engine
    }

    /// Every run a scenario asks for, in order: each variant at each refresh
    /// rate. `seedOverride` replaces the scenario's own seed.
    package static func expand(
        _ loaded: LoadedScenario, seedOverride: UInt64?, recordFrames: Bool, recordTimeline: Bool = false
    ) -> [RunRequest] {
        let variants = loaded.scenario.variants.isEmpty ? ["default"] : loaded.scenario.variants.map(\.name)
        return variants.flatMap { variant in
            loaded.refreshRates.map {
                RunRequest(
                    loaded: loaded, refreshHz: $0, seed: seedOverride ?? loaded.scenario.seed, variant: variant,
                    recordFrames: recordFrames, recordTimeline: recordTimeline)
            }
        }
    }
}

/// A change the user did not make, and how far it moved the anchor item.
package struct DriftRecord: Sendable, Equatable, Codable {
    package var time: SimTime
    package var cause: String
    /// The anchor post: the first item at least 30% visible before the change.
    package var anchorID: PostID
    /// The anchor's screen y before the change, in points.
    package var beforeY: Double
    /// Its screen y after; `nil` when the change removed the anchor (lost).
    package var afterY: Double?
    /// How far holding the anchor was out of reach, in points: the content
    /// could not be put where the anchor stays still without passing an edge
    /// (or the content was shorter than the viewport). 0 when a strategy
    /// could have held it exactly.
    package var clampedBy: Double
    /// Why no strategy can be held to this record, if a reason applies.
    package var excuse: Excuse?
    /// A refresh that landed with the content at the top or past it (within
    /// `AnchorRules.pullPlaceTolerance`), where a pull leaves the reader: a
    /// strategy that restores the anchor captured during the pull
    /// (`PositionStrategy.usesPullAnchor`, Catbird's design) puts the
    /// reader's post back where the pull found it, not where the pull's
    /// bounce has taken it since, and is not judged on it. Away from the
    /// top, every strategy that claims `refresh` is.
    package var atPull = false

    /// Why a record is not held against a strategy that claims its cause.
    package enum Excuse: String, Sendable, Codable {
        /// The change landed while an animated scroll the reader asked for
        /// (a status-bar tap, an animated `scroll_to`) carried the content to
        /// its destination: the reader is not reading a place then.
        case animatedScroll = "animated_scroll"
        /// A relaunch restored state saved before later changes the reader
        /// saw, or before the reader moved on (the app saves when a scroll
        /// ends and when it leaves the screen; a kill loses what happened
        /// since).
        case staleSnapshot = "stale_snapshot"
        /// The strategy moved where a fling comes to rest instead of the
        /// content (`PlaceCorrection.retargetingFling`): the change shows
        /// during the flight by design. It is judged where the fling lands,
        /// by a record of the same cause written then ("settles where
        /// held"), unless the reader stops the fling first.
        case retargetedFling = "retargeted_fling"
    }

    package init(
        time: SimTime, cause: String, anchorID: PostID, beforeY: Double, afterY: Double?, clampedBy: Double = 0,
        excuse: Excuse? = nil
    ) {
        self.time = time
        self.cause = cause
        self.anchorID = anchorID
        self.beforeY = beforeY
        self.afterY = afterY
        self.clampedBy = clampedBy
        self.excuse = excuse
    }

    /// `afterY − beforeY`; `nil` for a lost anchor.
    package var drift: Double? { afterY.map { $0 - beforeY } }
    package var isLost: Bool { afterY == nil }
    /// A drift event: the anchor moved by at least 1 pt, or was lost.
    package var isEvent: Bool { drift.map { abs($0) >= DriftMeter.eventThreshold } ?? true }
    /// Whether a strategy that holds this record's cause failed here: the
    /// anchor survived and moved more than 1 pt beyond what the content's
    /// edges forced, and nothing excuses it. A lost anchor is its own event,
    /// not a miss.
    package var isMissedHold: Bool {
        guard excuse == nil else { return false }
        return drift.map { abs($0) > clampedBy + DriftMeter.eventThreshold } ?? false
    }
}

/// Everything one run measured.
package struct RunResult: Sendable, Equatable, Codable {
    package var scenario: String
    package var variant: String
    package var refreshHz: Int
    package var seed: UInt64
    package var duration: SimTime
    package var frameSummary: FrameSummary
    /// Every rendered frame, when the request asked for them.
    package var frames: [FrameRecord]
    package var drift: [DriftRecord]
    /// The engine's allocations, or nil where this build cannot count them
    /// (`AllocationMeter.unavailableReason`): the allocation columns are
    /// then empty.
    package var allocations: AllocationMeter.Count?
    /// Peak modelled memory, in MB; the memory model comes with the world.
    package var peakMemoryMB: Double
    package var memoryWarnings: Int
    package var jetsamKills: Int
    package var networkRequests: Int
    package var networkFailures: Int
    /// Fraction of view model lookups served from the cache; 0 when none were made.
    package var viewModelHitRate: Double
    /// Fraction of image requests served from memory or disk; 0 when none were made.
    package var imageHitRate: Double
    /// How long posts with media waited on screen for their image.
    package var imageWait: ImageWaitSummary
    package var eventsProcessed: Int
    package var traceDigest: TraceDigest
    /// The run's timeline, when the request asked for it.
    package var timeline: Timeline?
    /// Invariants found broken, when the request asked for the checks; at
    /// most `InvariantFailure.limit` of them.
    package var invariantFailures: [InvariantFailure] = []
    /// Posts that moved on a resting screen after a change had left them
    /// in place, with no change, gesture or edge to move them, when the
    /// request asked for the checks.
    package var holdSlips: [HoldSlip] = []
    /// What the layout strategy did off the main thread, and what it cost.
    package var offMain = OffMainSummary()

    /// Drift events: anchors moved by at least 1 pt, or lost.
    package var driftEvents: Int { drift.reduce(0) { $0 + ($1.isEvent ? 1 : 0) } }
    /// The largest |drift| of an anchor that survived, in points.
    package var driftMax: Double { drift.compactMap { $0.drift.map(abs) }.max() ?? 0 }
    /// Σ |drift| over anchors that survived, in points.
    package var driftTotal: Double { drift.compactMap { $0.drift.map(abs) }.reduce(0, +) }
}

/// A post a change had left in place that later moved with the screen at
/// rest: no gesture, no other change and no edge moved it.
package struct HoldSlip: Sendable, Equatable, Codable {
    /// The most a run reports.
    package static let limit = 20

    /// The frame where the post was found moved.
    package var time: SimTime
    /// The cause of the drift record that left the post where it was.
    package var cause: String
    /// When that record was written.
    package var heldSince: SimTime
    package var anchorID: PostID
    /// The post's screen y where the change left it, and where it went.
    package var heldY: Double
    package var y: Double

    package init(time: SimTime, cause: String, heldSince: SimTime, anchorID: PostID, heldY: Double, y: Double) {
        self.time = time
        self.cause = cause
        self.heldSince = heldSince
        self.anchorID = anchorID
        self.heldY = heldY
        self.y = y
    }
}

/// An invariant of the engine or the world found broken during a run.
package struct InvariantFailure: Sendable, Equatable, Codable {
    /// The most a run reports: after the first few, the rest say nothing new.
    package static let limit = 20

    package var time: SimTime
    /// The index of the frame being rendered, or of the next one.
    package var frame: Int
    package var message: String

    package init(time: SimTime, frame: Int, message: String) {
        self.time = time
        self.frame = frame
        self.message = message
    }
}

/// Layout work off the main thread in a run: placeholders the reader saw,
/// the background cores' time, and the precomputed heights applied.
package struct OffMainSummary: Sendable, Equatable, Codable {
    /// Frames that showed at least one cell without its contents.
    package var blankCellFrames = 0
    /// Σ over frames of the cells shown without their contents.
    package var blankCells = 0
    /// Jobs the background cores ran.
    package var jobs = 0
    /// Σ of the jobs' cost on the main thread's core: work moved off it, in nanoseconds.
    package var movedWork = 0.0
    /// Σ of the jobs' run time on the background cores, in nanoseconds.
    package var busy: SimTime = 0
    /// Nearest-rank 99th percentile of a job's wait for a core, in nanoseconds.
    package var waitP99: SimTime = 0
    /// Precomputed heights that replaced an estimate.
    package var heightsApplied = 0
    /// Precomputed heights that differ from the main thread's measure of
    /// the same content at the same width and text size.
    package var heightMismatches = 0
    /// The first of them, described.
    package var firstMismatch: String?

    package init() {}
}
