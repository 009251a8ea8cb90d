import FeedEngine
import FeedReports
import FeedScenario
import FeedSimulator

/// Runs explore sessions in this process and judges each run against the
/// properties: one run per strategy, invariants checked as it goes.
package struct SessionRunner: Sendable {
    package let device: DeviceProfile
    /// Runs a session's variants, in the order given (a name may repeat),
    /// one after another in a new process, as `feedsim run --jobs 1` would,
    /// with frames and a timeline recorded or not, and gives each run's
    /// allocation counts (nil for a run that stopped; nil for all when the
    /// process failed): how the determinism property checks that neither
    /// `--frames` and `--trace` nor the runs before a run in its worker
    /// change an allocation count, which only a process of its own can show
    /// (one-time costs of the Swift runtime land where a process first pays
    /// them).
    package typealias FreshRun =
        @Sendable (_ scenario: Scenario, _ variants: [String], _ refreshHz: Int, _ recorded: Bool) -> [AllocationMeter
        .Count?]?
    package let freshRun: FreshRun?

    package init(device: DeviceProfile, freshRun: FreshRun? = nil) {
        self.device = device
        self.freshRun = freshRun
    }

    /// One strategy's run of a session.
    package struct StrategyRun: Codable, Sendable, Equatable {
        package var strategy: String
        /// The run's explore.csv row (`ExploreReport.columns`), or nil when
        /// it stopped at a limit.
        package var row: [String]?
        package var violations: [Violation]
    }

    /// The session run under each of its variants (one per strategy); with
    /// `checkDeterminism`, each run is made again with frames and a
    /// timeline recorded (as `--frames` and `--trace` ask) and must agree,
    /// allocation counts included (`replayDifference`).
    ///
    /// With `checkFlagsAlone` too (and a `freshRun`), the session's
    /// variants run again in a process of their own, each twice in a row
    /// (`feedsim run` makes each run's warm-up first), and the first variant
    /// once more alone in another, with frames and a timeline recorded:
    /// each variant's two runs must count the same allocations (a one-time
    /// cost of the runtime that the warm-up leaves unpaid lands in the first
    /// run of a worker that takes that path, so `--jobs` would change the
    /// counts), and the recorded run must count what the first plain run
    /// did (`--frames` and `--trace` change no count). Processes cost a few
    /// milliseconds each, so explore asks this of one determinism-checked
    /// session in `ExploreJob.flagsCheckEvery`.
    package func run(_ scenario: Scenario, checkDeterminism: Bool, checkFlagsAlone: Bool = false) -> [StrategyRun] {
        let loaded = LoadedScenario(file: "\(scenario.name).json", scenario: scenario, device: device)
        var runs = scenario.variants.map { variant in
            let strategy = variant.engine.positionStrategy
            var request = RunRequest(
                loaded: loaded, refreshHz: loaded.refreshRates[0], seed: scenario.seed, variant: variant.name,
                recordFrames: false)
            request.checkInvariants = true
            let first: RunResult
            do {
                first = try Simulation(request: request).run()
            } catch {
                let time = (error as? SimulationLimitError)?.stoppedAt ?? 0
                return StrategyRun(
                    strategy: variant.name, row: nil,
                    violations: [
                        Violation(
                            property: .limit, session: scenario.name, strategy: variant.name, timeNs: time,
                            detail: "\(error)")
                    ])
            }
            var violations =
                Violation.drift(in: first, strategy: strategy) + Violation.held(in: first, strategy: strategy)
                + Violation.invariants(in: first, strategy: strategy) + Violation.precomputedHeights(in: first)
            if checkDeterminism, let difference = SessionRunner.replayDifference(request, first: first) {
                violations.append(
                    Violation(
                        property: .determinism, session: scenario.name, strategy: variant.name, timeNs: difference.time,
                        detail: difference.detail))
            }
            return StrategyRun(
                strategy: variant.name, row: ExploreReport.row(first, violations: violations.count),
                violations: violations)
        }
        if checkFlagsAlone, let freshRun {
            let refreshHz = loaded.refreshRates[0]
            let names = scenario.variants.map(\.name)
            if let paired = freshRun(scenario, names.flatMap { [$0, $0] }, refreshHz, false),
                paired.count == 2 * names.count
            {
                for (index, name) in names.enumerated() where runs[index].row != nil {
                    guard let first = paired[2 * index], let again = paired[2 * index + 1], first != again else {
                        continue
                    }
                    runs[index].violations.append(
                        Violation(
                            property: .determinism, session: scenario.name, strategy: name, timeNs: 0,
                            detail:
                                "allocation counts differ between the first run in a worker and the same run again: "
                                    + """
                                    \(first.requests) allocations, \(first.bytes) bytes first, \(again.requests) and \
                                    \(again.bytes) again\u{20}
                                    """
                                + "(a one-time cost the warm-up does not pay)"))
                }
                // A file's first variant is the first run of its worker:
                // where a flag could move the runtime's one-time costs into
                // a measured run.
                if runs.first?.row != nil, let plain = paired[0],
                    let recorded = freshRun(scenario, [names[0]], refreshHz, true)?.first ?? nil,
                    plain != recorded
                {
                    runs[0].violations.append(
                        Violation(
                            property: .determinism, session: scenario.name, strategy: names[0], timeNs: 0,
                            detail:
                                """
                                allocation counts differ with --frames and --trace, each run first in a process \
                                of its own:\u{20}
                                """
                                    + """
                                    \(plain.requests) allocations, \(plain.bytes) bytes without, \(recorded.requests) \
                                    and \(recorded.bytes) with
                                    """
                        ))
                }
            }
            for index in runs.indices {
                if let row = runs[index].row {
                    runs[index].row = ExploreReport.row(replacingViolations: row, with: runs[index].violations.count)
                }
            }
        }
        return runs
    }

    /// The frames of the session's first variant, recorded (nil when the run
    /// stops at a limit): where the reader was over time, which the shrinker
    /// asks to replace the way to a place with a jump to it.
    package func frames(of scenario: Scenario) -> [FrameRecord]? {
        guard let variant = scenario.variants.first else { return nil }
        let loaded = LoadedScenario(file: "\(scenario.name).json", scenario: scenario, device: device)
        var request = RunRequest(
            loaded: loaded, refreshHz: loaded.refreshRates[0], seed: scenario.seed, variant: variant.name,
            recordFrames: true)
        request.checkInvariants = true
        return try? Simulation(request: request).run().frames
    }

    /// Runs `request` again, with frames and a timeline recorded, and says
    /// where the replay first differs from `first`, if it does: in its
    /// numbers or its drift (allocation counts aside: the first run may
    /// have paid one-time costs of the Swift runtime the replay finds paid),
    /// and then whether recording changed the engine's allocation counts,
    /// against a third run without recording that finds the same costs paid.
    /// `--frames` and `--trace` must change no number.
    static func replayDifference(_ request: RunRequest, first: RunResult) -> (time: Int64, detail: String)? {
        var flagged = request
        flagged.recordFrames = true
        flagged.recordTimeline = true
        guard var again = try? Simulation(request: flagged).run() else {
            return (
                first.duration, "the replay with frames and a timeline stopped at a limit the first run did not reach"
            )
        }
        again.frames = first.frames
        again.timeline = first.timeline
        let recorded = again.allocations
        again.allocations = first.allocations
        if again != first {
            if again.traceDigest != first.traceDigest {
                return (
                    0,
                    """
                    trace digests differ: \(first.traceDigest) then \(again.traceDigest) with frames and a \
                    timeline recorded
                    """
                )
            }
            if let index = zip(first.drift, again.drift).enumerated().first(where: { $0.element.0 != $0.element.1 })?
                .offset
            {
                return (first.drift[index].time, "drift record \(index) differs with frames and a timeline recorded")
            }
            return (0, "the results differ with the same trace digest, with frames and a timeline recorded")
        }
        guard let plain = try? Simulation(request: request).run() else {
            return (first.duration, "the third run stopped at a limit the first run did not reach")
        }
        if let without = plain.allocations, let with = recorded, without != with {
            return (
                0,
                "allocation counts differ with frames and a timeline recorded: "
                    + "\(without.requests) allocations, \(without.bytes) bytes without, "
                    + "\(with.requests) and \(with.bytes) with"
            )
        }
        return nil
    }
}
