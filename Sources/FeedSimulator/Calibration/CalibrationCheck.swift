import FeedScenario

/// A fitted profile checked against the trace it came from: a scenario run
/// on the fitted profile (and on the base) and its frame-time distribution
/// set beside the trace's.
///
/// The trace's frames and a scenario's are different work, so the check
/// says how close the fitted costs bring the simulated distribution to the
/// measured one when the scenario plays what the trace recorded (a scroll
/// for a scroll); it does not prove the costs.
package struct CalibrationCheck: Sendable {
    /// Nearest-rank percentiles of main-thread frame time, ms.
    package struct Percentiles: Sendable, Equatable {
        package var p50: Double
        package var p90: Double
        package var p99: Double

        /// The percentiles of `values` (ms), nearest rank.
        package init(_ values: [Double]) {
            let sorted = values.sorted()
            p50 = NearestRank.percentile(sorted, 0.5) ?? .nan
            p90 = NearestRank.percentile(sorted, 0.9) ?? .nan
            p99 = NearestRank.percentile(sorted, 0.99) ?? .nan
        }

        package var all: [Double] { [p50, p90, p99] }
    }

    /// The scenario file as the user named it.
    package let scenario: String
    /// Runs made per profile (variants × refresh rates) and the frames they rendered.
    package let runs: Int
    package let traceFrames: Int
    package let fittedFrames: Int
    package let baseFrames: Int
    package let trace: Percentiles
    package let fitted: Percentiles
    package let base: Percentiles

    /// Runs every run of `loaded` once on `fitted` and once on `base`,
    /// pooling each profile's frames' main-thread work.
    package init(trace: CalibrationTrace, loaded: LoadedScenario, fitted: DeviceProfile, base: DeviceProfile) throws {
        scenario = loaded.file
        traceFrames = trace.frames.count
        self.trace = Percentiles(trace.frames.map { $0.durationNs / 1_000_000 })
        func work(on device: DeviceProfile) throws -> (runs: Int, frames: [Double]) {
            var scenario = loaded
            scenario.device = device
            let requests = RunRequest.expand(scenario, seedOverride: nil, recordFrames: true)
            var frames: [Double] = []
            for request in requests {
                frames += try Simulation(request: request).run().frames.map { Double($0.work) / 1_000_000 }
            }
            return (requests.count, frames)
        }
        let onFitted = try work(on: fitted)
        let onBase = try work(on: base)
        runs = onFitted.runs
        fittedFrames = onFitted.frames.count
        baseFrames = onBase.frames.count
        self.fitted = Percentiles(onFitted.frames)
        self.base = Percentiles(onBase.frames)
    }
}
