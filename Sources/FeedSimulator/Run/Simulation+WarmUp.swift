import FeedEngine
import FeedScenario

extension Simulation {
    /// Posts in the warm-up's feed: enough for every action to find posts
    /// above, below and around the reader, and for a page to be loaded more.
    static let warmUpPostCount = 120

    /// Runs two small sessions shaped like `request` so that the Swift
    /// runtime's one-time costs (type metadata, protocol conformance caches,
    /// lazily initialised globals) are paid before the request's own run,
    /// and its allocation counts are the engine's alone.
    ///
    /// When those costs are paid depends on what the process did before —
    /// even on the length of the scenario's path — so without a warm-up the
    /// counts of the first run in a process would depend on where it was
    /// started. Both sessions keep the request's device, refresh rate, seed,
    /// engine variant, network, lifecycle and feed shape, on a feed of at
    /// most `warmUpPostCount` posts. The first takes every kind of script
    /// action once, in a few simulated seconds; the second plays the
    /// scenario's own script, so that what depends on its timing (offline
    /// windows, retries, debounced commits) runs too. On the bundled suite
    /// this gives the same counts as running each scenario twice and
    /// reporting the second run, at a fraction of the cost.
    ///
    /// - Complexity: O(*f*) for the *f* frames of the scenario's duration,
    ///   over at most `warmUpPostCount` posts.
    public static func warmUpRuntime(for request: RunRequest) {
        var tour = request.loaded.scenario
        tour.feed.postCount = min(tour.feed.postCount, warmUpPostCount)
        let (script, end) = warmUpScript(
            width: request.loaded.device.screenWidthPt.value, height: request.loaded.device.screenHeightPt.value,
            coldStartNs: tour.lifecycle.coldStartNs)
        tour.script = script
        tour.durationNs = end
        tour.limits = RunLimits(
            maxEvents: RunLimits.defaultMaxEvents, maxSimulatedNs: Int64(RunLimits.defaultMaxSimulatedSeconds * 1e9))
        // The scenario's own script, network and lifecycle on the small
        // feed: paths that depend on timing (offline windows, retries,
        // debounced commits) run as they will in the request.
        var ownScript = request.loaded.scenario
        ownScript.feed.postCount = min(ownScript.feed.postCount, warmUpPostCount)
        for scenario in [tour, ownScript] {
            var warmUp = request
            warmUp.loaded.scenario = scenario
            // A failure is the request's own run's to report, with its own
            // scenario's numbers; the warm-up has nothing to add.
            _ = try? Simulation(request: warmUp).run()
        }
    }

    /// Every kind of script action, one after the other, and the time the
    /// warm-up ends: after the relaunch that its termination starts.
    private static func warmUpScript(width: Double, height: Double, coldStartNs: Int64) -> ([ScriptStep], Int64) {
        let ms: Int64 = 1_000_000
        let actions: [ScriptAction] = [
            .drag(
                trajectory: [TrajectoryPoint(timeNs: 0, displacementPt: 0), TrajectoryPoint(timeNs: 150 * ms, displacementPt: 400)],
                release: .fling, deceleration: .normal),
            .fling(velocityPtPerS: 8_000, deceleration: .normal),
            .fling(velocityPtPerS: -6_000, deceleration: .fast),
            .like,
            .contentUpdates(count: 3),
            .newPosts(count: 3, push: true),
            .newPosts(count: 2, push: false),
            .tapNewPosts,
            .scrollTo(target: .post(index: 20), animated: false),
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
                trajectory: [TrajectoryPoint(timeNs: 0, displacementPt: 0), TrajectoryPoint(timeNs: 100 * ms, displacementPt: -200)],
                release: .stop, deceleration: .normal),
            .scrollToTop,
            .pull(distancePt: 120, durationNs: 200 * ms, holdNs: 100 * ms),
            .refresh,
            .background(durationNs: 100 * ms),
            .terminate(relaunchAfterNs: 0),
        ]
        // 150 ms apart: each action's animation, request and debounced
        // commit mostly land before the next one starts.
        let spacing = 150 * ms
        let start = 200 * ms
        let steps = actions.enumerated().map { ScriptStep(atNs: start + Int64($0.offset) * spacing, action: $0.element) }
        let terminatedAt = steps.last?.atNs ?? start
        // The relaunched engine loads and lays out its first page too.
        return (steps, terminatedAt + coldStartNs + 500 * ms)
    }
}
