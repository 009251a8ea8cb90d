/// A run's timeline, recorded only when the request asks for it
/// (`RunRequest.recordTimeline`): every frame with its commit split by cost
/// term, every network exchange and image load from send to response, and
/// the app's lifecycle. Drift is the run's drift records; `ChromeTrace`
/// turns all of it into a trace Perfetto opens.
public struct Timeline: Sendable, Equatable, Codable {
    /// Every rendered frame, in order.
    public var frames: [Frame] = []
    /// API requests (pages, refreshes, likes), in the order they were sent.
    public var requests: [Exchange] = []
    /// Image loads, in the order they were sent.
    public var imageLoads: [Exchange] = []
    /// Lifecycle moments, in time order.
    public var marks: [Mark] = []

    public init() {}

    /// One rendered frame: its record and what its commit was made of.
    public struct Frame: Sendable, Equatable, Codable {
        public var record: FrameRecord
        /// The commit's main-thread time by cause, in `CostModel.commitParts` order;
        /// only causes that took time.
        public var parts: [Part]
        /// Data commits (`ChangeCause` raw values) made since the previous
        /// frame, which this frame is the first to show.
        public var dataCommits: [String]
    }

    /// Main-thread nanoseconds one cause took in a commit.
    public struct Part: Sendable, Equatable, Codable {
        /// A `CostTerm` key; `cell_configure` and `cell_measure` carry every
        /// per-cell term of cells configured and measured.
        public var name: String
        public var nanoseconds: Double

        public init(name: String, nanoseconds: Double) {
            self.name = name
            self.nanoseconds = nanoseconds
        }
    }

    /// One request through the network model, from send to the moment the
    /// app has the answer (retries included).
    public struct Exchange: Sendable, Equatable, Codable {
        /// `page`, `refresh` (a load from the top, the first one included),
        /// `like` or `image`.
        public var kind: String
        public var start: SimTime
        public var end: SimTime
        public var requestBytes: Int
        public var responseBytes: Int
        /// `success`, or why it failed: `lost`, `timed_out`, `offline`,
        /// `server_error`; `cancelled` for an image load the app gave up on.
        public var outcome: String
        /// Attempts after the first.
        public var retries: Int
        /// The post an image belongs to; 0 for API requests.
        public var postID: UInt64 = 0
    }

    /// A lifecycle moment: `background`, `foreground`, `terminate`,
    /// `jetsam_kill`, `relaunch`, `memory_warning`.
    public struct Mark: Sendable, Equatable, Codable {
        public var time: SimTime
        public var name: String
    }
}
