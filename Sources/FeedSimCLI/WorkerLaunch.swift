import FoundationEssentials
import Synchronization
import SystemSupport

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
        return URL(fileURLWithPath: CommandLine.arguments[0])
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
        do {
            guard let child = try interruption.startWorker(executable: executable, arguments: arguments) else {
                return Finished(status: -1, output: Data(), errors: "", problem: "not started: interrupted")
            }
            return finish(child, input: input)
        } catch {
            return Finished(
                status: -1, output: Data(), errors: "", problem: "cannot start \(executable.path): \(error)")
        }
    }

    /// Feeds `child` its input and collects what it writes.
    private func finish(_ child: ChildProcess, input: Data) -> Finished {
        defer { interruption.workerExited(child.pid) }
        // Input written and both pipes drained at once, so that no worker
        // blocks on a full pipe.
        let errorText = Mutex(Data())
        let (stdin, errors) = (child.input, child.errors)
        let writer = SystemThread {
            try? stdin.write(input)
            stdin.close()
        }
        let reader = SystemThread {
            let data = (try? errors.readToEnd()) ?? Data()
            errorText.withLock { $0 = data }
        }
        let data = (try? child.output.readToEnd()) ?? Data()
        let status = child.waitForExit()
        writer.join()
        reader.join()
        let message = String(decoding: errorText.withLock { $0 }, as: UTF8.self).trimmingWhitespace()
        let problem: String? =
            status == 0
            ? nil
            : message.isEmpty ? "the worker exited with status \(status) and wrote nothing on stderr" : message
        return Finished(status: status, output: data, errors: message, problem: problem)
    }
}
