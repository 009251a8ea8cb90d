import FeedScenario

/// A piece of an exploration one worker process does: sessions to run, and
/// failures to shrink. It travels as JSON on the worker's standard input,
/// and its result as JSON on its standard output.
package struct ExploreJob: Codable, Sendable {
    /// The explore seed: session `i` is `SessionGenerator(seed).session(i)`.
    package var seed: UInt64
    /// Sessions to run, by index.
    package var sessions: [Int]
    /// Failures to shrink: the session and the violation to keep.
    package var shrink: [Violation.Located]

    package init(seed: UInt64, sessions: [Int] = [], shrink: [Violation.Located] = []) {
        self.seed = seed
        self.sessions = sessions
        self.shrink = shrink
    }

    /// What a job found.
    package struct Result: Codable, Sendable {
        package var sessions: [SessionResult]
        package var shrunk: [ShrunkFailure]
    }

    /// One session's runs, one per strategy, in the configuration's order.
    package struct SessionResult: Codable, Sendable {
        package var index: Int
        package var runs: [SessionRunner.StrategyRun]
    }

    /// A failure shrunk to a small scenario that fails the same way.
    package struct ShrunkFailure: Codable, Sendable {
        /// The session it was found in.
        package var session: Int
        /// The violation as first found.
        package var found: Violation
        /// The violation the shrunk scenario shows.
        package var violation: Violation
        /// The shrunk scenario, written as a scenario file (its name and
        /// description are the caller's to set).
        package var scenario: String
        package var stepsBefore: Int
        package var stepsAfter: Int
        package var runs: Int
    }

    /// Does the job in this process.
    /// Of the sessions whose determinism is checked, one in this many has
    /// its first variant also run alone in processes of its own, without
    /// and with `--frames` and `--trace` (`SessionRunner.run`): two
    /// processes each, about 15 ms.
    package static let flagsCheckEvery = 5

    /// `freshRun` runs a session's variant in a process of its own, for the
    /// determinism property's check of `--frames` and `--trace`
    /// (`SessionRunner.FreshRun`); without it that check is skipped.
    package func perform(
        config: ExploreConfig, device: DeviceProfile, freshRun: SessionRunner.FreshRun? = nil
    ) throws -> Result {
        let generator = SessionGenerator(config: config, device: device, seed: seed)
        let runner = SessionRunner(device: device, freshRun: freshRun)
        let results = sessions.map { index in
            let check = config.determinismEvery > 0 && index % config.determinismEvery == 0
            let alone = check && index % (config.determinismEvery * ExploreJob.flagsCheckEvery) == 0
            return SessionResult(
                index: index,
                runs: runner.run(generator.session(index), checkDeterminism: check, checkFlagsAlone: alone))
        }
        let shrinker = Shrinker(runner: runner, budget: config.shrinkRuns)
        let shrunk = shrink.map { located in
            let result = shrinker.shrink(generator.session(located.session), keeping: located.violation)
            return ShrunkFailure(
                session: located.session, found: located.violation, violation: result.violation,
                scenario: result.scenario.fileText,
                stepsBefore: result.stepsBefore, stepsAfter: result.scenario.script.count, runs: result.runs)
        }
        return Result(sessions: results, shrunk: shrunk)
    }
}

extension Violation {
    /// A violation with the index of the session it was found in.
    package struct Located: Codable, Sendable {
        package var session: Int
        package var violation: Violation

        package init(session: Int, violation: Violation) {
            self.session = session
            self.violation = violation
        }
    }
}
