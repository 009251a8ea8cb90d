/// A run's timeline, recorded only when the request asks for it
/// (`RunRequest.recordTimeline`): every frame with its commit split by cost
/// term, every network exchange and image load from send to response, and
/// the app's lifecycle. Drift is the run's drift records; `ChromeTrace`
/// turns all of it into a trace Perfetto opens.
package struct Timeline: Sendable, Equatable, Codable {
    /// Every rendered frame, in order.
    package var frames: [Frame] = []
    /// API requests (pages, refreshes, likes), in the order they were sent.
    package var requests: [Exchange] = []
    /// Image loads, in the order they were sent.
    package var imageLoads: [Exchange] = []
    /// Lifecycle moments, in time order.
    package var marks: [Mark] = []
    /// Jobs on the background cores, in the order they were queued.
    package var backgroundJobs: [BackgroundSlice] = []

    package init() {}

    /// One rendered frame: its record and what its commit was made of.
    package struct Frame: Sendable, Equatable, Codable {
        package var record: FrameRecord
        /// The commit's main-thread time by cause, in `CostModel.commitParts` order;
        /// only causes that took time.
        package var parts: [Part]
        /// Data commits (`ChangeCause` raw values) made since the previous
        /// frame, which this frame is the first to show.
        package var dataCommits: [String]
    }

    /// Main-thread nanoseconds one cause took in a commit.
    package struct Part: Sendable, Equatable, Codable {
        /// A `CostTerm` key; `cell_configure` and `cell_measure` carry every
        /// per-cell term of cells configured and measured.
        package var name: String
        package var nanoseconds: Double

        package init(name: String, nanoseconds: Double) {
            self.name = name
            self.nanoseconds = nanoseconds
        }
    }

    /// One request through the network model, from send to the moment the
    /// app has the answer (retries included).
    package struct Exchange: Sendable, Equatable, Codable {
        /// `page`, `refresh` (a load from the top, the first one included),
        /// `like` or `image`.
        package var kind: String
        package var start: SimTime
        package var end: SimTime
        package var requestBytes: Int
        package var responseBytes: Int
        /// `success`, or why it failed: `lost`, `timed_out`, `offline`,
        /// `server_error`; `cancelled` for an image load the app gave up on.
        package var outcome: String
        /// Attempts after the first.
        package var retries: Int
        /// The post an image belongs to; 0 for API requests.
        package var postID: UInt64 = 0
    }

    /// A lifecycle moment: `background`, `foreground`, `terminate`,
    /// `jetsam_kill`, `relaunch`, `memory_warning`.
    package struct Mark: Sendable, Equatable, Codable {
        package var time: SimTime
        package var name: String
    }
}
