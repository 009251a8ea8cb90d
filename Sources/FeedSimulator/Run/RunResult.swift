import FeedEngine
import FeedScenario

/// One run to make: a scenario at one refresh rate, with one engine variant.
public struct RunRequest: Sendable {
    public var loaded: LoadedScenario
    public var refreshHz: Int
    public var seed: UInt64
    public var variant: String
    /// Keep every frame record (for frames.csv).
    public var recordFrames: Bool

    public init(loaded: LoadedScenario, refreshHz: Int, seed: UInt64, variant: String = "default", recordFrames: Bool) {
        self.loaded = loaded
        self.refreshHz = refreshHz
        self.seed = seed
        self.variant = variant
        self.recordFrames = recordFrames
    }

    /// Every run a scenario asks for, in order: one per refresh rate.
    /// `seedOverride` replaces the scenario's own seed.
    public static func expand(_ loaded: LoadedScenario, seedOverride: UInt64?, recordFrames: Bool) -> [RunRequest] {
        loaded.refreshRates.map {
            RunRequest(loaded: loaded, refreshHz: $0, seed: seedOverride ?? loaded.scenario.seed, recordFrames: recordFrames)
        }
    }
}

/// A change the user did not make that moved the content under them.
public struct DriftRecord: Sendable, Equatable {
    public var time: SimTime
    public var cause: String
    /// The anchor post; `nil` when the anchor was lost.
    public var anchorID: PostID?
    /// The anchor's screen y before and after the change, in points.
    public var beforeY: Double
    public var afterY: Double
    /// `afterY − beforeY`.
    public var drift: Double { afterY - beforeY }
}

/// Everything one run measured.
public struct RunResult: Sendable {
    public var scenario: String
    public var variant: String
    public var refreshHz: Int
    public var seed: UInt64
    public var duration: SimTime
    public var frameSummary: FrameSummary
    /// Every rendered frame, when the request asked for them.
    public var frames: [FrameRecord]
    public var drift: [DriftRecord]
    public var allocations: AllocationMeter.Count
    /// Peak modelled memory, in MB; the memory model comes with the world.
    public var peakMemoryMB: Double
    public var memoryWarnings: Int
    public var jetsamKills: Int
    public var networkRequests: Int
    public var networkFailures: Int
    /// Fraction of view model lookups served from the cache; 0 when none were made.
    public var viewModelHitRate: Double
    /// Fraction of image requests served from memory or disk; 0 when none were made.
    public var imageHitRate: Double
    public var eventsProcessed: Int
    public var traceDigest: TraceDigest
}
