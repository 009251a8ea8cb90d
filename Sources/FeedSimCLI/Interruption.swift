import FoundationEssentials
import Glibc
import Synchronization
import SystemSupport

/// SIGINT and SIGTERM during `feedsim run`: the worker processes are killed,
/// no further one starts, and the command stops before its output folder is
/// touched, exiting 128 + the signal's number (130, 143) as a shell does.
///
/// The signal handler only writes the signal's number to a pipe, which is
/// all a handler may safely do; a thread of its own reads the pipe and
/// stops the workers. Simulations run in the worker processes, or, for a
/// single run, in this one, which a signal then ends at once
/// (`runningInProcess`); nothing here can change a run's output.
final class Interruption: Sendable {
    /// The signals that interrupt a run.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    private struct State {
        /// The first interrupting signal, once one has come.
        var signal: Int32?
        /// Worker processes alive now.
        var workers: Set<pid_t> = []
        /// Set once the output files are being renamed into place: the run is
        /// then as good as finished, and a signal no longer stops it.
        var committing = false
        /// While a run executes in this process: the line a signal prints
        /// before it ends the process.
        var inProcessMessage: (@Sendable (Int32) -> String)?
    }

    private let state = Mutex(State())

    /// The one instance, listening from the first call on.
    static let shared: Interruption = {
        let interruption = Interruption()
        interruption.listen()
        return interruption
    }()

    private init() {}

    /// The signal that interrupted the run, if one did.
    var signal: Int32? { state.withLock { $0.signal } }

    /// Starts `executable` with `arguments` as a worker, with this
    /// process's environment and deterministic hashing, unless the run has
    /// been interrupted; nil if it was. The check and the registration
    /// happen under one lock, so a signal cannot fall between them and miss
    /// the new worker.
    func startWorker(executable: URL, arguments: [String]) throws(SystemError) -> ChildProcess? {
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        return try state.withLock { state throws(SystemError) -> ChildProcess? in
            guard state.signal == nil else { return nil }
            let child = try ChildProcess(executable: executable.path, arguments: arguments, environment: environment)
            state.workers.insert(child.pid)
            return child
        }
    }

    /// Forgets a worker that has exited.
    func workerExited(_ pid: pid_t) {
        _ = state.withLock { $0.workers.remove(pid) }
    }

    /// Runs `body`, a simulation in this process, where a signal cannot
    /// wait for it to end: a signal that comes meanwhile prints
    /// `message(signal)` and ends the process at once with 128 + the
    /// signal, before anything is written.
    func runningInProcess<T>(message: @escaping @Sendable (Int32) -> String, _ body: () throws -> T) throws -> T {
        let interrupted = state.withLock { state -> Int32? in
            if state.signal == nil { state.inProcessMessage = message }
            return state.signal
        }
        if let interrupted { exitNow(message(interrupted), signal: interrupted) }
        defer { state.withLock { $0.inProcessMessage = nil } }
        return try body()
    }

    /// Marks the start of the commit of the output files; false if the run
    /// was interrupted before it, in which case nothing may be committed.
    func beginCommit() -> Bool {
        state.withLock { state in
            guard state.signal == nil else { return false }
            state.committing = true
            return true
        }
    }

    /// The one line printed when a run is interrupted.
    static func message(signal: Int32, out: String) -> String {
        "feedsim: interrupted by \(name(of: signal)); stopped the workers, \(out) is as it was"
    }

    /// `SIGINT`, `SIGTERM`, or the number.
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    private func interrupted(by signal: Int32) {
        state.withLock { state in
            guard state.signal == nil, !state.committing else { return }
            state.signal = signal
            // SIGKILL: a worker holds no file of ours, and must not linger.
            for pid in state.workers { kill(pid, SIGKILL) }
            if let message = state.inProcessMessage { exitNow(message(signal), signal: signal) }
        }
    }

    /// Ends the process from any thread, the run in this process unfinished
    /// and the output folder untouched: one line on stderr, no exit handlers.
    private func exitNow(_ message: String, signal: Int32) -> Never {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        _exit(128 + signal)
    }

    private func listen() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        let readEnd = ends[0]
        // Non-blocking: a handler must never wait on a full pipe.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        signalPipe.store(ends[1], ordering: .sequentiallyConsistent)
        SystemThread.detached { [self] in
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    interrupted(by: Int32(byte))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        installHandlers(for: Interruption.signals)
    }
}

/// Makes `forwardSignal` the handler of `signals`.
private func installHandlers(for signals: [Int32]) {
    for number in signals { _ = signal(number, forwardSignal) }
}

/// The write end of the pipe `forwardSignal` writes to.
private let signalPipe = Atomic<Int32>(-1)

/// The signal handler: writes the signal's number to the pipe and returns.
private func forwardSignal(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    let savedErrno = errno
    _ = write(signalPipe.load(ordering: .relaxed), &byte, 1)
    errno = savedErrno
}
