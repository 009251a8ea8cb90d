import Foundation
import Synchronization

extension WorkerLaunch {
    /// This executable, which workers run: a program of your own built on
    /// FeedSimCLI starts workers that are itself, with its own parts.
    ///
    /// On Linux, `/proc/self/exe` names the file the process runs whatever
    /// way it was started; elsewhere (never built nor tested) the path it
    /// was started by.
    static var thisExecutable: URL {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        #endif
        return URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
    }
}

/// Starts one worker process of this executable with `arguments`, feeds it
/// `input` on stdin and collects what it writes, registering it with the
/// interruption so a signal stops it.
struct WorkerLaunch: Sendable {
    let executable: URL
    let arguments: [String]
    let interruption: Interruption

    /// What a finished worker left.
    struct Finished {
        var status: Int32
        var output: Data
        var errors: String
        /// Why its output cannot be used, or nil when it exited 0.
        var problem: String?
    }

    func run(input: Data) -> Finished {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        process.environment = environment
        let stdin = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = errors
        do {
            let started = try interruption.startWorker {
                try process.run()
                return process.processIdentifier
            }
            guard started else {
                return Finished(status: -1, output: Data(), errors: "", problem: "not started: interrupted")
            }
        } catch {
            return Finished(
                status: -1, output: Data(), errors: "", problem: "cannot start \(executable.path): \(error)")
        }
        defer { interruption.workerExited(process.processIdentifier) }
        // Input written and both pipes drained at once, so that no worker
        // blocks on a full pipe.
        let errorText = Mutex(Data())
        let drained = DispatchSemaphore(value: 0)
        Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
            drained.signal()
        }.start()
        Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = data }
            drained.signal()
        }.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        drained.wait()
        drained.wait()
        let message = String(decoding: errorText.withLock { $0 }, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let status = process.terminationStatus
        let problem: String? =
            status == 0
            ? nil
            : message.isEmpty ? "the worker exited with status \(status) and wrote nothing on stderr" : message
        return Finished(status: status, output: data, errors: message, problem: problem)
    }
}
