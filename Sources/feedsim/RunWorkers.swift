import FeedReports
import FeedSimulator
import Foundation
import Synchronization

/// Runs each request in a worker process of its own (`feedsim _run-one`),
/// up to `jobs` at a time, and returns the rows in request order.
///
/// The threads here only wait on child processes; every simulation runs
/// single-threaded inside its own process.
struct RunWorkers {
    /// A run that did not produce rows.
    struct Failure: Error, CustomStringConvertible {
        var request: RunRequest
        var status: Int32
        var message: String

        var description: String {
            let r = request
            return "run failed: \(r.loaded.file) (\(r.loaded.scenario.name), variant \(r.variant), \(r.refreshHz) Hz, seed \(r.seed)): \(message)"
        }
    }

    /// The run was interrupted by `signal`; the workers have been stopped.
    struct Interrupted: Error {
        var signal: Int32
    }

    let jobs: Int
    let executable: URL
    let interruption: Interruption

    init(jobs: Int, interruption: Interruption) {
        self.jobs = max(1, jobs)
        self.interruption = interruption
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        self.executable = URL(fileURLWithPath: path)
    }

    /// Runs every request; `progress` hears of each one that finishes.
    ///
    /// Throws `Interrupted` when a signal stopped the run, else the first
    /// `Failure` in request order.
    func run(_ requests: [RunRequest], progress: @escaping @Sendable (Int) -> Void) throws -> [RunResult] {
        let outcomes = Mutex<[Result<RunResult, Failure>?]>(Array(repeating: nil, count: requests.count))
        let next = Mutex(0)
        let executable = self.executable
        let interruption = self.interruption
        let workerCount = min(jobs, requests.count)
        let stopped = DispatchSemaphore(value: 0)
        for _ in 0..<workerCount {
            Thread {
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < requests.count, interruption.signal == nil else { break }
                    let outcome = RunWorkers.runOne(requests[index], executable: executable, interruption: interruption)
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
        if let signal = interruption.signal { throw Interrupted(signal: signal) }
        let all = outcomes.withLock { $0 }
        var rows: [RunResult] = []
        for outcome in all {
            switch outcome! {
            case let .success(value): rows.append(value)
            case let .failure(failure): throw failure
            }
        }
        return rows
    }

    private static func runOne(_ request: RunRequest, executable: URL, interruption: Interruption) -> Result<RunResult, Failure> {
        let process = Process()
        process.executableURL = executable
        var arguments = [
            "_run-one", "--file", request.loaded.file, "--refresh-hz", String(request.refreshHz),
            "--seed", String(request.seed), "--variant", request.variant,
            // The worker exits when this process does, however it ends.
            "--parent-pid", String(getpid()),
        ]
        if request.recordFrames { arguments.append("--frames") }
        if request.recordTimeline { arguments.append("--trace") }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            let started = try interruption.startWorker {
                try process.run()
                return process.processIdentifier
            }
            guard started else {
                return .failure(Failure(request: request, status: -1, message: "not started: the run was interrupted"))
            }
        } catch {
            return .failure(Failure(request: request, status: -1, message: "cannot start \(executable.path): \(error)"))
        }
        defer { interruption.workerExited(process.processIdentifier) }
        // Both pipes are drained at once so a chatty worker cannot block.
        let errorText = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = data }
            errorsRead.signal()
        }.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorsRead.wait()
        let message = String(decoding: errorText.withLock { $0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, let rows = RunRecord.decode(data) else {
            return .failure(Failure(request: request, status: process.terminationStatus, message: message.isEmpty ? "worker exited with status \(process.terminationStatus)" : message))
        }
        return .success(rows)
    }
}
