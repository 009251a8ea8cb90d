import ArgumentParser
import FeedExplore
import Foundation
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
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        self.executable = URL(fileURLWithPath: path)
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { "explore worker failed: \(message)" }
    }

    /// Runs every job; `progress` hears how many have finished.
    func run(_ work: [ExploreJob], out: String, progress: @escaping @Sendable (Int) -> Void) throws -> [ExploreJob.Result] {
        guard !work.isEmpty else { return [] }
        let outcomes = Mutex<[Result<ExploreJob.Result, Failure>?]>(Array(repeating: nil, count: work.count))
        let next = Mutex(0)
        var arguments = ["_explore-worker", "--device-file", setup.deviceFile, "--parent-pid", String(getpid())]
        if let config = setup.configFile { arguments += ["--config", config] }
        let launch = WorkerLaunch(executable: executable, arguments: arguments, interruption: interruption)
        let workerCount = min(jobs, work.count)
        let stopped = DispatchSemaphore(value: 0)
        for _ in 0..<workerCount {
            Thread {
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < work.count, interruption.signal == nil else { break }
                    let outcome = ExploreWorkers.perform(work[index], launch: launch)
                    let finished = outcomes.withLock { list -> Int in
                        list[index] = outcome
                        return list.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
                    }
                    progress(finished)
                }
                stopped.signal()
            }.start()
        }
        for _ in 0..<workerCount { stopped.wait() }
        if let signal = interruption.signal {
            printError(Interruption.message(signal: signal, out: out))
            throw ExitCode(128 + signal)
        }
        return try outcomes.withLock { $0 }.map { outcome in
            switch outcome! {
            case let .success(result): return result
            case let .failure(failure):
                printError("\(failure)")
                throw FeedSimExit.internalFailure
            }
        }
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
            return .failure(Failure(message: "its output did not decode (\(error)); it wrote on stderr: \(finished.errors)"))
        }
    }
}
