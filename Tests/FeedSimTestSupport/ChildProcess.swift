import Foundation

/// What a child process did.
public struct ProcessOutcome: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when `exitedBySignal`.
    public var status: Int32
    public var exitedBySignal: Bool
    /// True when the child outlived its timeout and was killed.
    public var timedOut: Bool
    public var stdout: String
    public var stderr: String
    /// The executable's name and its arguments.
    public var command: [String]

    /// The output lines on stderr, without empty ones.
    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    public var description: String {
        "\(command.joined(separator: " ")) -> \(exitedBySignal ? "signal" : "exit") \(status)"
            + (timedOut ? " (timed out)" : "") + "\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

/// The tests' one way to run another program: standard input empty, both
/// output pipes drained on threads of their own from the start (so output
/// of any size never stalls the child), started from a thread with no
/// signals blocked (a child inherits its spawner's signal mask, and the
/// threads tests run on block most signals), and killed past a timeout.
public enum ChildProcess {
    /// Time a child gets to exit after SIGTERM before it gets SIGKILL.
    public static let terminationGrace: TimeInterval = 5

    /// The name of the thread each child is started from.
    public static let launcherThreadName = "child-launcher"

    /// Runs `executable arguments...` in `directory` and waits for it to exit;
    /// a child still running after `timeout` seconds gets SIGTERM, then SIGKILL.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval
    ) throws -> ProcessOutcome {
        try start(executable, arguments, in: directory).wait(timeout: timeout)
    }

    /// Where a child's output goes.
    public enum Output: Sendable {
        /// Pipes read while the child runs.
        case pipes
        /// Files in this folder, read once it exits: for a program (a
        /// browser) whose own children may hold pipes open after it exits.
        case files(in: URL)
    }

    /// Starts `executable arguments...` and returns at once, for tests that
    /// act on the child while it runs.
    public static func start(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, output: Output = .pipes
    ) throws -> RunningChild {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        let capture: (stdout: OutputCapture, stderr: OutputCapture)
        switch output {
        case .pipes:
            let stdoutPipe = Pipe()
            let stderrPipe = Pipe()
            process.standardOutput = stdoutPipe
            process.standardError = stderrPipe
            capture = (
                .drain(PipeDrain(stdoutPipe.fileHandleForReading)), .drain(PipeDrain(stderrPipe.fileHandleForReading))
            )
        case let .files(folder):
            let stdoutURL = folder.appendingPathComponent(".\(executable.lastPathComponent).stdout")
            let stderrURL = folder.appendingPathComponent(".\(executable.lastPathComponent).stderr")
            try Data().write(to: stdoutURL)
            try Data().write(to: stderrURL)
            process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            capture = (.file(stdoutURL), .file(stderrURL))
        }
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try launchWithSignalsUnblocked(process)
        return RunningChild(
            process: process, command: [executable.lastPathComponent] + arguments, exited: exited,
            stdout: capture.stdout, stderr: capture.stderr)
    }

    /// `/usr/bin/env`, to run a program (`python3`) found on the PATH.
    public static let env = URL(fileURLWithPath: "/usr/bin/env")
}

/// A child started by `ChildProcess.start`.
public final class RunningChild: @unchecked Sendable {
    private let process: Process
    private let command: [String]
    private let exited: DispatchSemaphore
    private let stdout: OutputCapture
    private let stderr: OutputCapture

    fileprivate init(
        process: Process, command: [String], exited: DispatchSemaphore, stdout: OutputCapture, stderr: OutputCapture
    ) {
        self.process = process
        self.command = command
        self.exited = exited
        self.stdout = stdout
        self.stderr = stderr
    }

    /// The child's process id.
    public var pid: pid_t { process.processIdentifier }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to exit; one still running after `timeout`
    /// seconds gets SIGTERM, then SIGKILL.
    public func wait(timeout: TimeInterval) -> ProcessOutcome {
        var killed = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + ChildProcess.terminationGrace) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
            // It may have exited on its own just before the signal. A
            // program that handles SIGTERM (feedsim does, once its handler
            // is installed) exits 128 + SIGTERM rather than by the signal.
            killed =
                process.terminationReason == .uncaughtSignal
                || (process.terminationReason == .exit && process.terminationStatus == 128 + SIGTERM)
        }
        // The pipes reach end-of-file once the child is gone; the bound only
        // matters if something the child started still holds them open.
        let drained =
            stdout.finish(within: ChildProcess.terminationGrace) && stderr.finish(within: ChildProcess.terminationGrace)
        return ProcessOutcome(
            status: process.terminationStatus,
            exitedBySignal: process.terminationReason == .uncaughtSignal,
            timedOut: killed || !drained,
            stdout: stdout.text,
            stderr: stderr.text,
            command: command)
    }
}

/// A child's output stream as the runner collects it.
private enum OutputCapture {
    case drain(PipeDrain)
    case file(URL)

    func finish(within seconds: TimeInterval) -> Bool {
        switch self {
        case let .drain(drain): drain.finish(within: seconds)
        case .file: true
        }
    }

    var text: String {
        switch self {
        case let .drain(drain): drain.text
        case let .file(url): (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        }
    }
}

/// Starts `process` from a thread with no signals blocked, which then waits
/// for the child to exit: Linux counts that thread, not the process, as the
/// child's parent, so a child that asks for a signal when its parent goes
/// (a `feedsim` worker) would get it as soon as a launching thread ended.
private func launchWithSignalsUnblocked(_ process: Process) throws {
    final class Launch: @unchecked Sendable {
        let process: Process
        var error: (any Error)?
        let launched = DispatchSemaphore(value: 0)
        let exited = DispatchSemaphore(value: 0)
        init(_ process: Process) { self.process = process }
    }
    let launch = Launch(process)
    let handler = process.terminationHandler
    process.terminationHandler = { process in
        handler?(process)
        launch.exited.signal()
    }
    Thread {
        nameThisThread(ChildProcess.launcherThreadName)
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        do { try launch.process.run() } catch { launch.error = error }
        let started = launch.error == nil
        launch.launched.signal()
        if started { launch.exited.wait() }
    }.start()
    launch.launched.wait()
    if let error = launch.error { throw error }
}

/// Names the calling thread as Linux shows it (`comm`, at most 15 bytes):
/// a new thread otherwise takes its creator's name, and Foundation's
/// `Thread.name` does not reach the kernel.
private func nameThisThread(_ name: String) {
    let file = open("/proc/thread-self/comm", O_WRONLY)
    guard file >= 0 else { return }
    defer { close(file) }
    _ = name.utf8CString.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count - 1) }
}

/// Reads a pipe to end-of-file on its own thread, so a full pipe never
/// blocks the child and no shared worker pool is tied up waiting.
private final class PipeDrain: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { data.append(chunk) }
            }
            done.signal()
        }.start()
    }

    /// Waits for end-of-file; false if it did not come in time.
    func finish(within seconds: TimeInterval) -> Bool {
        done.wait(timeout: .now() + seconds) == .success
    }

    /// What was read so far, as UTF-8.
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
