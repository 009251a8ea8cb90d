/// A scenario file, schema version 1: a device, a feed, an engine
/// configuration and a script of user actions over a stretch of simulated time.
public struct Scenario: Sendable, Equatable {
    /// The schema version this decoder reads.
    public static let schemaVersion = 1

    public var name: String
    public var description: String
    /// The device profile's name, resolved to `devices/<name>.json`.
    public var device: String
    /// Display refresh rates to run at; each is its own run. Empty means the
    /// device's own rate.
    public var refreshRatesHz: [Int]
    public var seed: UInt64
    /// Simulated time the run covers, in nanoseconds.
    public var durationNs: Int64
    public var feed: FeedSettings
    public var engine: EngineSettings
    public var script: [ScriptStep]
    public var limits: RunLimits

    public init(
        name: String, description: String, device: String, refreshRatesHz: [Int] = [], seed: UInt64 = 1,
        durationNs: Int64, feed: FeedSettings, engine: EngineSettings = .defaults, script: [ScriptStep] = [],
        limits: RunLimits = .defaults
    ) {
        self.name = name
        self.description = description
        self.device = device
        self.refreshRatesHz = refreshRatesHz
        self.seed = seed
        self.durationNs = durationNs
        self.feed = feed
        self.engine = engine
        self.script = script
        self.limits = limits
    }
}

/// The synthetic feed a scenario starts with.
public struct FeedSettings: Sendable, Equatable {
    /// Posts in the feed at launch.
    public var postCount: Int
    /// Body text length range, in characters.
    public var textLength: ClosedRange<Int>
    /// Fraction of posts with media, 0...1.
    public var mediaFraction: Double

    public init(postCount: Int, textLength: ClosedRange<Int> = defaultTextLength, mediaFraction: Double = defaultMediaFraction) {
        self.postCount = postCount
        self.textLength = textLength
        self.mediaFraction = mediaFraction
    }
}

/// The engine configuration under test.
public struct EngineSettings: Sendable, Equatable {
    /// The height a cell is assumed to have before it is measured, in points.
    public var estimatedItemHeightPt: Double

    public init(estimatedItemHeightPt: Double) {
        self.estimatedItemHeightPt = estimatedItemHeightPt
    }
}

/// UIScrollView's deceleration rates, per millisecond.
public enum DecelerationRate: String, Sendable, CaseIterable {
    /// `UIScrollView.DecelerationRate.normal`: 0.998 per ms.
    case normal
    /// `UIScrollView.DecelerationRate.fast`: 0.99 per ms.
    case fast

    /// The velocity kept per millisecond.
    public var perMillisecond: Double {
        switch self {
        case .normal: 0.998
        case .fast: 0.99
        }
    }
}

/// One point of a finger trajectory, relative to the touch-down.
public struct TrajectoryPoint: Sendable, Equatable {
    /// Time since touch-down, in nanoseconds.
    public var timeNs: Int64
    /// Content displacement so far, in points; positive scrolls towards
    /// later posts (the finger moves up).
    public var displacementPt: Double

    public init(timeNs: Int64, displacementPt: Double) {
        self.timeNs = timeNs
        self.displacementPt = displacementPt
    }
}

/// What happens when a drag's finger lifts.
public enum DragRelease: String, Sendable, CaseIterable {
    /// The scroll view decelerates from the finger's last velocity.
    case fling
    /// The finger stops before lifting: no deceleration.
    case stop
}

/// A user action at a point in simulated time.
public struct ScriptStep: Sendable, Equatable {
    public var atNs: Int64
    public var action: ScriptAction
    /// How many times the step happens (1 unless the file has `repeat`).
    public var repeatCount: Int
    /// Time between repetitions, in nanoseconds.
    public var repeatEveryNs: Int64

    public init(atNs: Int64, action: ScriptAction, repeatCount: Int = 1, repeatEveryNs: Int64 = 0) {
        self.atNs = atNs
        self.action = action
        self.repeatCount = repeatCount
        self.repeatEveryNs = repeatEveryNs
    }

    /// The time of the last repetition.
    public var lastNs: Int64 { atNs + Int64(repeatCount - 1) * repeatEveryNs }

    /// The step as single, unrepeated steps.
    public var expanded: [ScriptStep] {
        (0..<repeatCount).map { ScriptStep(atNs: atNs + Int64($0) * repeatEveryNs, action: action) }
    }
}

/// The actions a script can take.
public enum ScriptAction: Sendable, Equatable {
    /// A finger drag along `trajectory`, then a release.
    case drag(trajectory: [TrajectoryPoint], release: DragRelease, deceleration: DecelerationRate)
    /// A flick that leaves the scroll view decelerating from `velocityPtPerS`
    /// (positive scrolls towards later posts).
    case fling(velocityPtPerS: Double, deceleration: DecelerationRate)

    /// The action's name as written in scenario files.
    public var name: String {
        switch self {
        case .drag: "drag"
        case .fling: "fling"
        }
    }
}

/// Limits that stop a run loudly instead of letting it run away.
public struct RunLimits: Sendable, Equatable {
    /// Events the simulation may process.
    public var maxEvents: Int
    /// Simulated time no event may be scheduled beyond, in nanoseconds.
    public var maxSimulatedNs: Int64

    public init(maxEvents: Int, maxSimulatedNs: Int64) {
        self.maxEvents = maxEvents
        self.maxSimulatedNs = maxSimulatedNs
    }

    public static let defaultMaxEvents = 20_000_000
    public static let defaultMaxSimulatedSeconds = 3_600.0
}
