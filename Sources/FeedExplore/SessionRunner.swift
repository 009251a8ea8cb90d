import FeedEngine
import FeedReports
import FeedScenario
import FeedSimulator

/// Runs explore sessions in this process and judges each run against the
/// properties: one run per strategy, invariants checked as it goes.
public struct SessionRunner: Sendable {
    public let device: DeviceProfile

    public init(device: DeviceProfile) {
        self.device = device
    }

    /// One strategy's run of a session.
    public struct StrategyRun: Codable, Sendable, Equatable {
        public var strategy: String
        /// The run's explore.csv row (`ExploreReport.columns`), or nil when
        /// it stopped at a limit.
        public var row: [String]?
        public var violations: [Violation]
    }

    /// The session run under each of its variants (one per strategy); with
    /// `checkDeterminism`, each run is made again with frames and a
    /// timeline recorded (as `--frames` and `--trace` ask) and must agree,
    /// allocation counts included (`replayDifference`).
    public func run(_ scenario: Scenario, checkDeterminism: Bool) -> [StrategyRun] {
        let loaded = LoadedScenario(file: "\(scenario.name).json", scenario: scenario, device: device)
        return scenario.variants.map { variant in
            let strategy = variant.engine.positionStrategy
            var request = RunRequest(
                loaded: loaded, refreshHz: loaded.refreshRates[0], seed: scenario.seed, variant: variant.name, recordFrames: false)
            request.checkInvariants = true
            let first: RunResult
            do {
                first = try Simulation(request: request).run()
            } catch {
                let time = (error as? SimulationLimitError)?.stoppedAt ?? 0
                return StrategyRun(strategy: variant.name, row: nil, violations: [
                    Violation(property: .limit, session: scenario.name, strategy: variant.name, timeNs: time, detail: "\(error)"),
                ])
            }
            var violations = Violation.drift(in: first, strategy: strategy) + Violation.invariants(in: first, strategy: strategy)
            if checkDeterminism, let difference = SessionRunner.replayDifference(request, first: first) {
                violations.append(Violation(
                    property: .determinism, session: scenario.name, strategy: variant.name, timeNs: difference.time, detail: difference.detail))
            }
            return StrategyRun(strategy: variant.name, row: ExploreReport.row(first, violations: violations.count), violations: violations)
        }
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
            return (first.duration, "the replay with frames and a timeline stopped at a limit the first run did not reach")
        }
        again.frames = first.frames
        again.timeline = first.timeline
        let recorded = again.allocations
        again.allocations = first.allocations
        if again != first {
            if again.traceDigest != first.traceDigest {
                return (0, "trace digests differ: \(first.traceDigest) then \(again.traceDigest) with frames and a timeline recorded")
            }
            if let index = zip(first.drift, again.drift).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                return (first.drift[index].time, "drift record \(index) differs with frames and a timeline recorded")
            }
            return (0, "the results differ with the same trace digest, with frames and a timeline recorded")
        }
        guard let plain = try? Simulation(request: request).run() else {
            return (first.duration, "the third run stopped at a limit the first run did not reach")
        }
        if plain.allocations != recorded {
            return (0, "allocation counts differ with frames and a timeline recorded: "
                + "\(plain.allocations.requests) allocations, \(plain.allocations.bytes) bytes without, "
                + "\(recorded.requests) and \(recorded.bytes) with")
        }
        return nil
    }
}
