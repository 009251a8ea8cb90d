import ArgumentParser
import FeedExplore
import FoundationEssentials
import Glibc
import Synchronization

/// Runs explore jobs in worker processes (`feedsim _explore-worker`), up to
/// `jobs` at a time, and returns their results in job order. Each job's
/// result depends only on the job, so the output is the same for any
/// number of workers.
struct ExploreWorkers {
    let jobs: Int
    let interruption: Interruption
    let setup: ExploreSetup
    let executable: URL

    init(jobs: Int, interruption: Interruption, setup: ExploreSetup) {
        self.jobs = max(1, jobs)
        self.interruption = interruption
        self.setup = setup
        self.executable = WorkerLaunch.thisExecutable
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { "explore worker failed: \(message)" }
    }

    /// Runs every job; `progress` hears how many have finished.
    func run(
        _ work: [ExploreJob], out: String, progress: @escaping @Sendable (Int) -> Void
    ) throws -> [ExploreJob.Result] {
        guard !work.isEmpty else { return [] }
        let launch = self.launch
        let outcomes = WorkerThreads.run(
            count: work.count, threads: jobs, interruption: interruption, progress: progress,
            body: { (index, _: inout Void?) in ExploreWorkers.perform(work[index], launch: launch) })
        guard let outcomes else {
            let signal = interruption.signal ?? SIGINT
            throw CommandFailure.interrupted(signal: signal, out: out)
        }
        return try outcomes.map { outcome in
            switch outcome {
            case let .success(result): return result
            case let .failure(failure):
                throw CommandFailure.internalFailure("\(failure)")
            }
        }
    }

    /// Runs every job as `run` does, handing each result to `deliver` in
    /// job order as soon as it and every earlier one are done, and holding
    /// none after: an exploration of any size keeps only what `deliver`
    /// keeps. An error `deliver` throws stops the run and is rethrown.
    func runInOrder(
        _ work: [ExploreJob], out: String, progress: @escaping @Sendable (Int) -> Void,
        deliver: @escaping @Sendable (ExploreJob.Result) throws -> Void
    ) throws {
        guard !work.isEmpty else { return }
        let launch = self.launch
        let outcome = WorkerThreads.runInOrder(
            count: work.count, threads: jobs, interruption: interruption, progress: progress,
            body: { (index, _: inout Void?) in ExploreWorkers.perform(work[index], launch: launch) },
            deliver: { (outcome: Result<ExploreJob.Result, Failure>) in
                switch outcome {
                case let .success(result): try deliver(result)
                case let .failure(failure): throw failure
                }
            })
        guard let outcome else {
            let signal = interruption.signal ?? SIGINT
            throw CommandFailure.interrupted(signal: signal, out: out)
        }
        if case let .failure(error) = outcome {
            if let failure = error as? Failure {
                throw CommandFailure.internalFailure("\(failure)")
            }
            throw error
        }
    }

    /// How a worker process is started.
    private var launch: WorkerLaunch {
        var arguments =
            ["_explore-worker", "--device-file", setup.deviceFile, "--parent-pid", String(getpid())]
            + RegisteredParts.workerArguments
        if let config = setup.configFile { arguments += ["--config", config] }
        return WorkerLaunch(executable: executable, arguments: arguments, interruption: interruption)
    }

    private static func perform(_ job: ExploreJob, launch: WorkerLaunch) -> Result<ExploreJob.Result, Failure> {
        let input: Data
        do {
            input = try JSONEncoder().encode(job)
        } catch {
            return .failure(Failure(message: "cannot encode the job: \(error)"))
        }
        let finished = launch.run(input: input)
        if let problem = finished.problem { return .failure(Failure(message: problem)) }
        do {
            return .success(try JSONDecoder().decode(ExploreJob.Result.self, from: finished.output))
        } catch {
            return .failure(
                Failure(message: "its output did not decode (\(error)); it wrote on stderr: \(finished.errors)"))
        }
    }
}
