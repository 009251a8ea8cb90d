import Foundation

/// What one run of the `feedsim` binary did.
struct FeedSimOutcome: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when `exitedBySignal`.
    var status: Int32
    var exitedBySignal: Bool
    /// True when the run outlived its timeout and was killed.
    var timedOut: Bool
    var stdout: String
    var stderr: String
    var arguments: [String]

    /// The output lines on stderr, without empty ones.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    var description: String {
        "feedsim \(arguments.joined(separator: " ")) -> \(exitedBySignal ? "signal" : "exit") \(status)"
            + (timedOut ? " (timed out)" : "") + "\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

/// Runs the `feedsim` executable built alongside the tests in a child process.
enum FeedSimProcess {
    /// The package's root folder, found from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FeedSimCLITests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// Long enough for a debug build to run a small scenario on a busy machine;
    /// a run that takes longer is hung, and is killed.
    static let defaultTimeout: TimeInterval = 120

    /// Time a child gets to exit after SIGTERM before it gets SIGKILL.
    static let terminationGrace: TimeInterval = 5

    enum Failure: Error, CustomStringConvertible {
        case executableNotFound(searched: [String])

        var description: String {
            switch self {
            case let .executableNotFound(searched):
                "no feedsim executable; build the package first. Looked in: \(searched.joined(separator: ", "))"
            }
        }
    }

    /// The `feedsim` binary in the build products folder the tests run from;
    /// `.build/debug/feedsim` under the package root only when that folder has none.
    static func executableURL() throws(Failure) -> URL {
        var folders: [URL] = []
        // Linux: `<products>/FeedSimPackageTests.xctest` is the test executable.
        // macOS: `<products>/FeedSimPackageTests.xctest/Contents/MacOS/...` sits
        // three folders below it, and the main executable may be `xctest` itself.
        let starts = [Bundle.main.executableURL, CommandLine.arguments.first.map { URL(fileURLWithPath: $0) }]
            + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.appendingPathComponent("x") }
        for case let start? in starts {
            var folder = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                folders.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        folders.append(packageRoot.appendingPathComponent(".build/debug", isDirectory: true))

        var searched: [String] = []
        for folder in folders where !searched.contains(folder.path) {
            searched.append(folder.path)
            let candidate = folder.appendingPathComponent("feedsim")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw .executableNotFound(searched: searched)
    }

    /// Runs `feedsim arguments...` in `directory` and waits for it to exit.
    ///
    /// Standard input is empty; stdout and stderr are read while the child
    /// runs, so output of any size cannot fill a pipe and stall it. A child
    /// still running after `timeout` seconds gets SIGTERM, then SIGKILL.
    static func run(
        _ arguments: [String], in directory: URL, timeout: TimeInterval = defaultTimeout
    ) throws -> FeedSimOutcome {
        try start(arguments, in: directory).wait(timeout: timeout)
    }

    /// Starts `feedsim arguments...` in `directory` and returns at once, for
    /// tests that act on the child while it runs.
    static func start(_ arguments: [String], in directory: URL) throws -> RunningFeedSim {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }

        try launchWithSignalsUnblocked(process)
        return RunningFeedSim(
            process: process, arguments: arguments, exited: exited,
            stdout: PipeDrain(stdoutPipe.fileHandleForReading), stderr: PipeDrain(stderrPipe.fileHandleForReading))
    }
}

/// A `feedsim` child started by `FeedSimProcess.start`.
final class RunningFeedSim: @unchecked Sendable {
    private let process: Process
    private let arguments: [String]
    private let exited: DispatchSemaphore
    private let stdout: PipeDrain
    private let stderr: PipeDrain

    fileprivate init(process: Process, arguments: [String], exited: DispatchSemaphore, stdout: PipeDrain, stderr: PipeDrain) {
        self.process = process
        self.arguments = arguments
        self.exited = exited
        self.stdout = stdout
        self.stderr = stderr
    }

    /// The child's process id.
    var pid: pid_t { process.processIdentifier }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to exit; one still running after `timeout`
    /// seconds gets SIGTERM, then SIGKILL.
    func wait(timeout: TimeInterval = FeedSimProcess.defaultTimeout) -> FeedSimOutcome {
        var killed = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + FeedSimProcess.terminationGrace) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
            // It may have exited on its own just before the signal.
            killed = process.terminationReason == .uncaughtSignal
        }
        // The pipes reach end-of-file once the child is gone; the bound only
        // matters if something the child started still holds them open.
        let drained = stdout.finish(within: FeedSimProcess.terminationGrace)
            && stderr.finish(within: FeedSimProcess.terminationGrace)
        return FeedSimOutcome(
            status: process.terminationStatus,
            exitedBySignal: process.terminationReason == .uncaughtSignal,
            timedOut: killed || !drained,
            stdout: stdout.text,
            stderr: stderr.text,
            arguments: arguments)
    }
}

/// Starts `process` from a thread with no signals blocked.
///
/// A child inherits the signal mask of the thread that spawns it, and the
/// worker threads tests run on block most signals: started from one of them,
/// `feedsim` would ignore SIGTERM (and SIGINT), unlike when run from a shell.
private func launchWithSignalsUnblocked(_ process: Process) throws {
    final class Launch: @unchecked Sendable {
        let process: Process
        var error: (any Error)?
        let done = DispatchSemaphore(value: 0)
        init(_ process: Process) { self.process = process }
    }
    let launch = Launch(process)
    Thread {
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        do { try launch.process.run() } catch { launch.error = error }
        launch.done.signal()
    }.start()
    launch.done.wait()
    if let error = launch.error { throw error }
}

/// Reads a pipe to end-of-file on its own thread, so a full pipe never
/// blocks the child and no shared worker pool is tied up waiting.
fileprivate final class PipeDrain: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { data.append(chunk) }
            }
            done.signal()
        }
        thread.start()
    }

    /// Waits for end-of-file; false if it did not come in time.
    func finish(within seconds: TimeInterval) -> Bool {
        done.wait(timeout: .now() + seconds) == .success
    }

    /// What was read so far, as UTF-8.
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

/// A fresh, empty folder under the system's temporary directory, removed by `remove()`.
struct ScratchFolder {
    let url: URL

    init(prefix: String = "feedsim-cli") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// `relative` inside the folder.
    func appending(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// Writes `text` to `relative`, creating folders on the way.
    func write(_ text: String, to relative: String) throws {
        let file = appending(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Copies the package's `scenarios/devices/` to `devices/` here.
    func copyDeviceProfiles(to relative: String = "devices") throws {
        try FileManager.default.copyItem(
            at: FeedSimProcess.packageRoot.appendingPathComponent("scenarios/devices", isDirectory: true),
            to: appending(relative))
    }

    /// Names of the entries directly in `relative`, sorted; nil when it does not exist.
    func entries(in relative: String) -> [String]? {
        (try? FileManager.default.contentsOfDirectory(atPath: appending(relative).path))?.sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
