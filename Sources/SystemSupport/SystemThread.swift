import Glibc

/// A thread of the operating system's, running one closure.
///
/// For the command line's plumbing (reading pipes, redrawing progress,
/// listening for signals): a simulation itself never runs on more than one.
package final class SystemThread {
    private var thread = pthread_t()
    private var joined = false

    /// Starts a thread that runs `body`.
    package init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let body = Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue()
                body.run()
                return nil
            }, box)
        precondition(result == 0, "pthread_create: \(String(cString: strerror(result)))")
    }

    /// Starts a thread that runs `body`, which nothing waits for.
    package static func detached(_ body: @escaping @Sendable () -> Void) {
        let thread = SystemThread(body)
        pthread_detach(thread.thread)
        thread.joined = true
    }

    /// Waits for the thread to finish.
    package func join() {
        guard !joined else { return }
        pthread_join(thread, nil)
        joined = true
    }

    /// Pauses the calling thread for `seconds`.
    package static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}

private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
