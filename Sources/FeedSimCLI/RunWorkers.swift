import FeedReports
import FeedSimulator
import FoundationEssentials
import Glibc
import Synchronization
import SystemSupport

/// Runs requests in up to `jobs` worker processes (`feedsim _run-batch`),
/// each running one request after another, and returns the results in
/// request order.
///
/// A worker is started once and given the next request whenever it answers
/// the last, so process start is paid once per worker and a slow run never
/// holds up requests another worker could take. The threads here only
/// write orders and wait for replies; every simulation runs single-threaded
/// inside a worker.
struct RunWorkers {
    /// A run that did not produce rows.
    struct Failure: Error, CustomStringConvertible {
        var request: RunRequest
        var status: Int32
        var message: String

        var description: String {
            let r = request
            return
                """
                run failed: \(r.loaded.file) (\(r.loaded.scenario.name), variant \(r.variant), \(r.refreshHz) Hz, \
                seed \(r.seed)): \(message)
                """
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
        self.executable = WorkerLaunch.thisExecutable
        // A worker that dies makes writing its next order fail with EPIPE,
        // reported as an error, instead of killing this process.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Why an order has no result: the worker's status and message.
    struct OrderFailure: Error {
        var status: Int32
        var message: String
    }

    /// Runs every request; `progress` hears of each one that finishes.
    ///
    /// Throws `Interrupted` when a signal stopped the run, else the first
    /// `Failure` in request order.
    func run(_ requests: [RunRequest], progress: @escaping @Sendable (Int) -> Void) throws -> [RunResult] {
        let outcomes = try run(orders: requests.map(RunOrder.init), progress: progress)
        var rows: [RunResult] = []
        for (request, outcome) in zip(requests, outcomes) {
            switch outcome {
            case let .success(value): rows.append(value)
            case let .failure(failure):
                throw Failure(request: request, status: failure.status, message: failure.message)
            }
        }
        return rows
    }

    /// Runs every order and returns each one's outcome, in order: what any
    /// command running many sessions (file-backed or generated with
    /// `RunOrder.scenarioText`) hands to the workers. `progress` hears of
    /// each order that finishes. Throws only `Interrupted`.
    func run(
        orders: [RunOrder], progress: @escaping @Sendable (Int) -> Void
    ) throws(Interrupted) -> [Result<RunResult, OrderFailure>] {
        let executable = self.executable
        let interruption = self.interruption
        let outcomes = WorkerThreads.run(
            count: orders.count, threads: jobs, interruption: interruption, progress: progress,
            body: { (index, worker: inout BatchWorker?) -> Result<RunResult, OrderFailure> in
                do {
                    if worker == nil { worker = try BatchWorker(executable: executable, interruption: interruption) }
                    return try worker!.run(orders[index])
                } catch let lost as BatchWorker.Lost {
                    // The worker is gone; the next order starts another.
                    worker = nil
                    return .failure(OrderFailure(status: lost.status, message: lost.message))
                } catch {
                    worker = nil
                    return .failure(OrderFailure(status: -1, message: "\(error)"))
                }
            },
            finish: { worker in worker?.finish() })
        guard let outcomes else { throw Interrupted(signal: interruption.signal ?? SIGINT) }
        return outcomes
    }
}

/// One `feedsim _run-batch` process: orders go to its standard input one
/// line at a time, replies come back one line each.
final class BatchWorker {
    /// The worker ended (or never started) before it answered.
    struct Lost: Error {
        /// What there is to tell about a lost worker.
        enum Account: Equatable {
            /// Why the worker did not start, or what it wrote on stderr.
            case said(String)
            /// It exited without writing anything on stderr.
            case silent
        }

        /// The worker's exit status, or -1 when it never started.
        var status: Int32
        /// What it said, if anything.
        var account: Account

        /// What the user reads: the worker's own words, or its status.
        var message: String {
            switch account {
            case let .said(text): text
            case .silent: "worker exited with status \(status)"
            }
        }
    }

    private let process: ChildProcess
    private var buffer = Data()
    private let errorText = CapturedOutput()
    private let errorsReader: SystemThread
    private let interruption: Interruption
    private var exited = false

    init(executable: URL, interruption: Interruption) throws {
        self.interruption = interruption
        // The worker exits when this process does, however it ends.
        let arguments = ["_run-batch", "--parent-pid", String(getpid())] + RegisteredParts.workerArguments
        let child: ChildProcess?
        do {
            child = try interruption.startWorker(executable: executable, arguments: arguments)
        } catch {
            throw Lost(status: -1, account: .said("cannot start \(executable.path): \(error)"))
        }
        guard let child else { throw Lost(status: -1, account: .said("not started: the run was interrupted")) }
        process = child
        // Standard error is drained all along so a chatty worker cannot block.
        let errorText = self.errorText
        let errors = child.errors
        errorsReader = SystemThread {
            let data = (try? errors.readToEnd()) ?? Data()
            errorText.data.withLock { $0 = data }
        }
    }

    /// Sends `order` and waits for its reply.
    func run(_ order: RunOrder) throws -> Result<RunResult, RunWorkers.OrderFailure> {
        do {
            try process.input.write(try order.line())
        } catch {
            throw lost()
        }
        guard let line = nextLine() else { throw lost() }
        guard let reply = RunReply.decode(line: line) else {
            // The worker is alive but said something else: what it said is
            // the clue, not the status it exits with once its orders close.
            let text = String(decoding: line.prefix(500), as: UTF8.self)
            let lost = lost()
            let stderr = lost.account == .silent ? "" : "; it wrote on stderr: \(lost.message)"
            throw Lost(
                status: lost.status,
                account: .said("the worker's reply did not decode as a run reply: \"\(text)\"" + stderr))
        }
        if let result = reply.result { return .success(result) }
        let message = reply.message ?? "the run failed"
        let status = CommandFailure.of(reply.failure, message: message).exitCode.rawValue
        return .failure(RunWorkers.OrderFailure(status: status, message: message))
    }

    /// Closes the orders, which ends the worker, and waits for it.
    func finish() {
        guard !exited else { return }
        process.input.close()
        wait()
    }

    /// The next line of replies, without its newline; `nil` at the end.
    /// A reply with every frame record runs to megabytes, read in chunks:
    /// each chunk is searched for the newline once.
    private func nextLine() -> Data? {
        var searchFrom = buffer.startIndex
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[buffer.startIndex..<newline])
                buffer = Data(buffer[(newline + 1)...])
                return line
            }
            searchFrom = buffer.endIndex
            guard let chunk = try? process.output.read(upToCount: 1 << 16), !chunk.isEmpty else { return nil }
            buffer.append(chunk)
        }
    }

    /// The worker ended without answering: its status and what it said.
    private func lost() -> Lost {
        process.input.close()
        wait()
        let message = String(decoding: errorText.data.withLock { $0 }, as: UTF8.self).trimmingWhitespace()
        let status = process.waitForExit()
        return Lost(status: status, account: message.isEmpty ? .silent : .said(message))
    }

    private func wait() {
        process.waitForExit()
        errorsReader.join()
        interruption.workerExited(process.pid)
        exited = true
    }
}

/// What a worker wrote to standard error, filled by the thread that reads it.
final class CapturedOutput: Sendable {
    let data = Mutex(Data())
}
