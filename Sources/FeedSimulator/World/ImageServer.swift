import FeedEngine

/// The image CDN behind the modelled network: each load's timing and fate
/// come from a network model of its own (same link, its own random stream),
/// and a cancelled load never completes.
final class ImageServer: ImageTransport {
    @exclusivity(unchecked) private var network: NetworkModel
    private let clock: () -> SimTime
    /// Queues `deliver` after `delay` ns and returns its slot, which cancels it.
    private let respond: (_ delay: SimTime, _ deliver: @escaping () -> Void) -> Int
    private let cancelSlot: (Int) -> Void
    /// Where each load is recorded, when the run keeps a timeline.
    private let timeline: TimelineRecorder?
    @exclusivity(unchecked) private(set) var loads = 0
    @exclusivity(unchecked) private(set) var failures = 0

    init(
        network: NetworkModel, clock: @escaping () -> SimTime,
        respond: @escaping (_ delay: SimTime, _ deliver: @escaping () -> Void) -> Int,
        cancel: @escaping (Int) -> Void,
        timeline: TimelineRecorder? = nil
    ) {
        self.network = network
        self.clock = clock
        self.respond = respond
        self.cancelSlot = cancel
        self.timeline = timeline
    }

    func load(_ request: ImageRequest, completion: @escaping (Result<Int, ImageLoadError>) -> Void) -> ImageLoadToken {
        loads += 1
        let now = clock()
        let plan = network.plan(
            requestAt: now, requestBytes: FeedServer.requestBytes, responseBytes: request.encodedBytes)
        let result: Result<Int, ImageLoadError>
        switch plan.result {
        case .succeeded:
            result = .success(request.encodedBytes)
        case let .failed(reason, _):
            failures += 1
            switch reason {
            case .offline: result = .failure(.offline)
            case .timedOut: result = .failure(.timedOut)
            case .lost: result = .failure(.serverError)
            }
        }
        let slot = respond(plan.finishedAt - now) { completion(result) }
        timeline?.recordImageLoad(request, slot: slot, at: now, plan: plan)
        return ImageLoadToken(id: UInt64(slot))
    }

    func cancel(_ token: ImageLoadToken) {
        cancelSlot(Int(token.id))
    }
}
