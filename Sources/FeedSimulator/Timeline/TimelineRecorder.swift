import FeedEngine

/// Collects a run's `Timeline` as the world runs. A simulation has one only
/// when its request asks for a timeline, so a run without one pays a nil
/// check per hook and allocates nothing more.
///
/// What it stores is the simulator's, never the engine's: every append is
/// made outside the allocation meter's count, wherever the hook is called from.
final class TimelineRecorder {
    @exclusivity(unchecked) private(set) var timeline = Timeline()
    private let meter: AllocationMeter
    /// Data commits since the last frame.
    @exclusivity(unchecked) private var pendingCommits: [String] = []
    /// The image load waiting on each action slot, by index in `imageLoads`.
    /// Only looked up, never iterated.
    @exclusivity(unchecked) private var imageLoadBySlot: [Int: Int] = [:]

    init(meter: AllocationMeter) {
        self.meter = meter
    }

    /// A frame was accounted; `parts` is its commit by cause.
    func recordFrame(_ record: FrameRecord, parts: [Timeline.Part]) {
        meter.excluding {
            timeline.frames.append(Timeline.Frame(record: record, parts: parts, dataCommits: pendingCommits))
            // A fresh empty array, not a cleared one: the frame now shares the
            // old buffer, and most frames carry no commit at all.
            if !pendingCommits.isEmpty { pendingCommits = [] }
        }
    }

    /// The engine committed a data change; the next frame shows it.
    func noteDataCommit(_ cause: ChangeCause) {
        meter.excluding { pendingCommits.append(cause.rawValue) }
    }

    /// An API request was sent; `plan` says how the network carried it,
    /// and `failed` whether the app got a failure (the server's own, when
    /// the network delivered it).
    func recordRequest(
        _ kind: String, at start: SimTime, answeredAt end: SimTime, requestBytes: Int, responseBytes: Int,
        plan: RequestPlan, failed: Bool
    ) {
        let outcome = plan.succeeded && failed ? "server_error" : TimelineRecorder.outcome(plan)
        meter.excluding {
            timeline.requests.append(
                Timeline.Exchange(
                    kind: kind, start: start, end: end, requestBytes: requestBytes, responseBytes: responseBytes,
                    outcome: outcome, retries: plan.retries))
        }
    }

    /// An image load was sent, its answer queued on action `slot`.
    func recordImageLoad(_ request: ImageRequest, slot: Int, at start: SimTime, plan: RequestPlan) {
        meter.excluding {
            imageLoadBySlot[slot] = timeline.imageLoads.count
            timeline.imageLoads.append(
                Timeline.Exchange(
                    kind: "image", start: start, end: plan.finishedAt, requestBytes: FeedServer.requestBytes,
                    responseBytes: request.encodedBytes, outcome: TimelineRecorder.outcome(plan), retries: plan.retries,
                    postID: request.key.postID))
        }
    }

    /// The app cancelled the action on `slot`; if it was an image load still
    /// in flight, the load ends now.
    func actionCancelled(slot: Int, at time: SimTime) {
        guard let index = imageLoadBySlot[slot], timeline.imageLoads[index].end > time else { return }
        meter.excluding {
            timeline.imageLoads[index].end = time
            timeline.imageLoads[index].outcome = "cancelled"
        }
    }

    /// A job was queued on a background core.
    func recordBackgroundJob(_ slice: BackgroundSlice) {
        meter.excluding { timeline.backgroundJobs.append(slice) }
    }

    /// A lifecycle moment.
    func mark(_ name: String, at time: SimTime) {
        meter.excluding { timeline.marks.append(Timeline.Mark(time: time, name: name)) }
    }

    static func outcome(_ plan: RequestPlan) -> String {
        switch plan.result {
        case .succeeded: "success"
        case .failed(.lost, _): "lost"
        case .failed(.timedOut, _): "timed_out"
        case .failed(.offline, _): "offline"
        }
    }
}
