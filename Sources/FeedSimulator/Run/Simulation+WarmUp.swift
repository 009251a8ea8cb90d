import FeedEngine
import FeedScenario

extension Simulation {
    /// Posts in the warm-up's feed when the server sends the whole feed in
    /// one response (no `page_size`): enough for every action to find posts
    /// above, below and around the reader. Each debounced commit diffs the
    /// whole feed: 60 posts rather than 120 took 2.3 M instructions off
    /// every `feedsim run` of the 10,000-post benchmark session (callgrind).
    static let warmUpPostCount = 60

    /// Posts in the warm-up's feed when it is served in pages, at least:
    /// enough besides for the answered tour to leave pages unloaded, so that
    /// the offline tour asks for one and meets its failure (with 60 posts
    /// in pages of 20 it found none to ask for).
    static let warmUpPagedPostCount = 120

    /// Pages the warm-up's feed holds at least, so that the first page is
    /// never the last one and the engine has more to ask for.
    static let warmUpPageCount = 3

    /// The posts of the warm-up's feed for a feed of `postCount` posts
    /// served in pages of `pageSize` (0: all in one response).
    static func warmUpFeedLength(postCount: Int, pageSize: Int) -> Int {
        guard pageSize > 0 else { return min(postCount, warmUpPostCount) }
        return min(postCount, max(warmUpPagedPostCount, warmUpPageCount * pageSize))
    }

    /// Runs small sessions shaped like `request` so that the Swift runtime's
    /// one-time costs (type metadata, protocol conformance caches, lazily
    /// initialised globals) are paid before the request's own run, and its
    /// allocation counts are the engine's alone.
    ///
    /// When those costs are paid depends on what the process did before —
    /// even on the length of the scenario's path — so without a warm-up the
    /// counts of the first run in a process would depend on where it was
    /// started. Every session keeps the request's device, refresh rate,
    /// engine variant, lifecycle and feed shape, with the scenario's own
    /// seed (`warmUpRequests`), on a feed of at most `warmUpPostCount`
    /// posts (`warmUpPagedPostCount` or `warmUpPageCount` pages, if more,
    /// when the feed is paged), and
    /// takes every kind of script action (`warmUpScript`).
    ///
    /// Why that suffices without replaying the scenario's own script: the
    /// engine's paths are set by its configuration (kept), by what it is
    /// asked to do (every action) and by how the network answers each
    /// request. The network reaches the engine only as an answer per
    /// request: a success, a failure for want of a network (a like is then
    /// held and replayed when the network returns) or any other failure (a
    /// like is rolled back); retries, backoff and latency are the network
    /// model's, outside the counts. So the sessions are:
    ///
    /// 1. the tour twice on a prompt network (`warmUpAnswers`): every
    ///    request answered the first time, every request failing for want
    ///    of a network the second, until the network returns (held likes
    ///    are replayed) and goes again from the termination until a
    ///    relaunch has found no page to show (and retries it);
    /// 2. a like the server refuses (`warmUpRefusedLike`).
    ///
    /// The tour on the request's own network, at its own pace, was a
    /// session of its own before these: by the argument above it adds no
    /// answer they lack, and without it every `feedsim run` takes 4.5 M
    /// instructions fewer (the 10,000-post benchmark session, callgrind).
    ///
    /// The scenario's offline windows, retries and debounced commits then
    /// find every path they take already run. On the bundled suite this
    /// gives the same counts as running each scenario twice and reporting
    /// the second run.
    ///
    /// - Complexity: O(1) in the request's duration and feed length: a few
    ///   simulated seconds on at most `warmUpPostCount` posts or
    ///   `warmUpPageCount` pages.
    package static func warmUpRuntime(for request: RunRequest) {
        runWarmUp(warmUpRequests(for: request))
    }

    /// Runs the warm-up's sessions.
    fileprivate static func runWarmUp(_ warmUp: [RunRequest]) {
        FeedEngine.instantiateRuntimeMetadata()
        for session in warmUp {
            // A failure is the request's own run's to report, with its own
            // scenario's numbers; the warm-up has nothing to add.
            _ = try? Simulation(request: session).run()
        }
    }

    /// The warm-up's sessions for `request`, as runs. They take the
    /// scenario's own seed, not the run's: the warm-up's paths are set by
    /// its configuration and its tour, which every seed shares, so every
    /// seed of a scenario (`run --seeds`) gets the same warm-up, which a
    /// worker then runs once (`WarmUpLog`).
    ///
    /// They record frames and a timeline whatever the request asks: the
    /// recorders instantiate generic types the engine uses too (the Swift
    /// runtime allocates each one's metadata once, at first use), and a
    /// warm-up that recorded only when `--frames` or `--trace` asked left
    /// those allocations to the measured run in one case and not the
    /// other, so the flags changed allocation counts.
    static func warmUpRequests(for request: RunRequest) -> [RunRequest] {
        warmUpSessions(for: request).map { scenario in
            var warmUp = request
            warmUp.loaded.scenario = scenario
            warmUp.seed = request.loaded.scenario.seed
            warmUp.recordFrames = true
            warmUp.recordTimeline = true
            return warmUp
        }
    }

    /// The warm-up's sessions, in the order they run.
    static func warmUpSessions(for request: RunRequest) -> [Scenario] {
        var small = request.loaded.scenario
        small.feed.postCount = warmUpFeedLength(postCount: small.feed.postCount, pageSize: small.feed.pageSize)
        small.limits = RunLimits(
            maxEvents: RunLimits.defaultMaxEvents, maxSimulatedNs: Int64(RunLimits.defaultMaxSimulatedSeconds * 1e9))
        let device = request.loaded.device
        let script = warmUpScript(width: device.screenWidthPt.value, height: device.screenHeightPt.value)

        return [warmUpAnswers(small, tour: script), warmUpRefusedLike(small)]
    }

    /// A network that answers every request at once and in full, with no
    /// network between `offline`'s windows.
    static func promptNetwork(offline: [Range<Int64>] = []) -> NetworkSettings {
        NetworkSettings(
            profile: "wifi", latency: .constant(ms: promptLatencyMs), jitterMs: 0, lossRate: 0, maxRetries: 0,
            offlineWindows: offline)
    }

    /// The prompt network's round trip: a response lands well before the
    /// tour's next action, 100 ms later, yet after the frame that asked.
    static let promptLatencyMs = 20.0

    /// `scenario` on `network`, for every variant.
    private static func on(_ network: NetworkSettings, _ scenario: Scenario) -> Scenario {
        var scenario = scenario
        scenario.network = network
        for index in scenario.variants.indices { scenario.variants[index].network = nil }
        return scenario
    }

    /// The tour twice on a prompt network. The first time, without its
    /// termination, every request is answered. The second time the network
    /// is away until just before the termination: every request fails for
    /// want of a network and the like is held, then sent again when the
    /// network returns. It is away again from the termination until after
    /// the relaunch, whose first page fails and is asked for again later.
    ///
    /// The network returns before the termination, so that the engine that
    /// held the like sends it again: held likes are not saved with the
    /// engine's state, and a kill drops any still held. A relaunched engine
    /// hears the network return as the first does (`run()`) and replays
    /// along the same path, so this one replay serves every launch.
    private static func warmUpAnswers(_ small: Scenario, tour: [ScriptStep]) -> Scenario {
        let ms: Int64 = 1_000_000
        let first = tour.dropLast()
        let secondStart = tour.last?.atNs ?? 0
        let second = tour.map { ScriptStep(atNs: secondStart + $0.atNs, action: $0.action) }
        let terminatedAt = second.last?.atNs ?? secondStart
        let relaunchedAt = terminatedAt + small.lifecycle.coldStartNs
        let offline = [secondStart..<(terminatedAt - 50 * ms), terminatedAt..<(relaunchedAt + 100 * ms)]
        var session = on(promptNetwork(offline: offline), small)
        session.script = first + second
        // The relaunch's page is asked for again after the engine's retry delay.
        session.durationNs = relaunchedAt + FeedEngine.pageRetryDelay + 500 * ms
        return session
    }

    /// A like the server refuses, on a prompt network: the optimistic like
    /// is rolled back.
    private static func warmUpRefusedLike(_ small: Scenario) -> Scenario {
        let ms: Int64 = 1_000_000
        var session = on(promptNetwork(), small)
        session.server.likeFailureRate = 1
        session.script = [ScriptStep(atNs: 200 * ms, action: .like)]
        session.durationNs = 500 * ms
        return session
    }

    /// Every kind of script action, one after the other, ending in a
    /// termination and relaunch.
    private static func warmUpScript(width: Double, height: Double) -> [ScriptStep] {
        let ms: Int64 = 1_000_000
        let actions: [ScriptAction] = [
            .drag(
                trajectory: [
                    TrajectoryPoint(timeNs: 0, displacementPt: 0),
                    TrajectoryPoint(timeNs: 150 * ms, displacementPt: 400),
                ],
                release: .fling, deceleration: .normal),
            .fling(velocityPtPerS: 8_000, deceleration: .normal),
            .fling(velocityPtPerS: -6_000, deceleration: .fast),
            .like,
            .contentUpdates(count: 3),
            .newPosts(count: 3, push: true),
            .newPosts(count: 2, push: false),
            .tapNewPosts,
            .scrollTo(target: .post(index: 20), animated: false),
            // The last post loaded: the engine asks for the next page.
            .scrollTo(target: .post(index: .max), animated: false),
            .scrollTo(target: .offset(100), animated: true),
            .removePosts(count: 2, place: .aroundReader, push: true),
            .removePosts(count: 1, place: .top, push: false),
            .removePosts(count: 1, place: .bottom, push: true),
            .rotate(widthPt: height, heightPt: width),
            .rotate(widthPt: width, heightPt: height),
            .textSize(scale: 1.5),
            .textSize(scale: 1),
            .memoryWarning,
            .drag(
                trajectory: [
                    TrajectoryPoint(timeNs: 0, displacementPt: 0),
                    TrajectoryPoint(timeNs: 100 * ms, displacementPt: -200),
                ],
                release: .stop, deceleration: .normal),
            .scrollToTop,
            .pull(distancePt: 120, durationNs: 200 * ms, holdNs: 100 * ms),
            .refresh,
            .background(durationNs: 100 * ms),
            .terminate(relaunchAfterNs: 0),
        ]
        // 100 ms apart: each action's request and debounced commit (50 ms
        // by default) land before the next one starts, and most of its
        // animation. 150 ms apart cost every `feedsim run` 1.7 M
        // instructions more (callgrind), for the same counts on the
        // bundled suite.
        let spacing = 100 * ms
        let start = 200 * ms
        return actions.enumerated().map {
            ScriptStep(atNs: start + Int64($0.offset) * spacing, action: $0.element)
        }
    }
}

/// The warm-ups a process has run. A warm-up pays the Swift runtime's
/// one-time costs for the paths it takes; the same warm-up again takes the
/// same paths and finds every cost paid, so it changes nothing a later run
/// counts. A worker that runs many runs (every seed of a scenario, each
/// variant at each rate) keeps a log and runs each distinct warm-up once.
///
/// It remembers the last `capacity` warm-ups: a worker is handed a
/// scenario's runs one after another, and the log's comparisons stay a few
/// per run however long the batch.
package struct WarmUpLog {
    /// Warm-ups remembered, most recent first.
    static let capacity = 8
    private var recent: [[RunRequest]] = []

    package init() {}

    /// Runs `request`'s warm-up (`Simulation.warmUpRuntime(for:)`) unless
    /// this log saw the same one; returns whether it ran.
    @discardableResult
    package mutating func warmUp(for request: RunRequest) -> Bool {
        let warmUp = Simulation.warmUpRequests(for: request)
        if let index = recent.firstIndex(of: warmUp) {
            recent.insert(recent.remove(at: index), at: 0)
            return false
        }
        Simulation.runWarmUp(warmUp)
        recent.insert(warmUp, at: 0)
        if recent.count > WarmUpLog.capacity { recent.removeLast() }
        return true
    }
}
