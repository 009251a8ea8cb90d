import Glibc
import Synchronization

/// A process started from an executable file, its standard input, output
/// and error each a pipe to this process.
///
/// The child starts with every signal's default action and none blocked,
/// and inherits no descriptor of this process but its three pipes: every
/// descriptor FeedSim opens is closed on `exec`, and children are started
/// one at a time, each after its pipes are marked so.
package final class ChildProcess {
    /// The child's process id.
    package let pid: pid_t
    /// The child's standard input.
    package let input: WritableFile
    /// The child's standard output.
    package let output: ReadableFile
    /// The child's standard error.
    package let errors: ReadableFile
    private var status: Int32?

    /// Starts `executable` with `arguments` (not counting its own name) and
    /// `environment`.
    package init(executable: String, arguments: [String], environment: [String: String]) throws(SystemError) {
        ChildProcess.ignoreBrokenPipes
        let started = try ChildProcess.starting.withLock { _ throws(SystemError) -> (pid_t, Int32, Int32, Int32) in
            try ChildProcess.start(executable: executable, arguments: arguments, environment: environment)
        }
        pid = started.0
        input = WritableFile(descriptor: started.1, owns: true)
        output = ReadableFile(descriptor: started.2, owns: true)
        errors = ReadableFile(descriptor: started.3, owns: true)
    }

    /// Held while a child's pipes are made and the child started.
    private static let starting = Mutex(())

    /// Starts the child; returns its id and this process's ends of its
    /// standard input, output and error.
    private static func start(
        executable: String, arguments: [String], environment: [String: String]
    ) throws(SystemError) -> (pid_t, Int32, Int32, Int32) {
        let stdin = try PipeEnds()
        let stdout: PipeEnds
        let stderr: PipeEnds
        do {
            stdout = try PipeEnds()
            stderr = try PipeEnds()
        } catch {
            _ = close(stdin.read)
            _ = close(stdin.write)
            throw error
        }
        defer {
            // The child's ends are the child's alone once it has started.
            _ = close(stdin.read)
            _ = close(stdout.write)
            _ = close(stderr.write)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin.read, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stderr.write, STDERR_FILENO)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.keys.sorted().map { strdup("\($0)=\(environment[$0]!)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            for end in [stdin.write, stdout.read, stderr.read] { _ = close(end) }
            throw SystemError("posix_spawn \(executable)", code: result)
        }
        return (child, stdin.write, stdout.read, stderr.read)
    }

    /// Waits for the child to end and returns its exit status, or the
    /// number of the signal that ended it. Waiting again returns the same.
    @discardableResult
    package func waitForExit() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        let signal = raw & 0x7f
        let status = signal == 0 ? (raw >> 8) & 0xff : signal
        self.status = status
        return status
    }

    /// A write to a pipe whose reader has gone fails with `EPIPE` rather
    /// than ending this process: a worker that died is reported, not joined.
    private static let ignoreBrokenPipes: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()

}
