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
    /// `checkDeterminism`, each run is made twice and must agree.
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

    /// Runs `request` again and says where the replay first differs from
    /// `first`, if it does. Allocation counts are left out: a second run in
    /// the same process finds the runtime's caches warm.
    static func replayDifference(_ request: RunRequest, first: RunResult) -> (time: Int64, detail: String)? {
        guard var again = try? Simulation(request: request).run() else {
            return (first.duration, "the replay stopped at a limit the first run did not reach")
        }
        let reference = first
        again.allocations = reference.allocations
        guard again != reference else { return nil }
        if again.traceDigest != reference.traceDigest {
            return (0, "trace digests differ: \(reference.traceDigest) then \(again.traceDigest)")
        }
        if let index = zip(reference.drift, again.drift).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return (reference.drift[index].time, "drift record \(index) differs")
        }
        return (0, "the results differ with the same trace digest")
    }
}
