import FoundationEssentials
import Synchronization
import SystemSupport

/// Deals the indices `0..<count` out to up to `threads` threads: each takes
/// the next index as soon as it is free, so a slow item never holds up the
/// others, and keeps a `Local` of its own (a worker process, say) across the
/// indices it takes. The threads only drive worker processes; every
/// simulation runs single-threaded inside one.
enum WorkerThreads {
    /// Runs `body` for every index, and `finish` on each thread's `Local`
    /// when it has no more to take; `progress` hears how many are done.
    /// Returns the outcomes in index order, or nil when `interruption` saw a
    /// signal (the threads then take no more indices).
    static func run<Local, Outcome: Sendable>(
        count: Int, threads: Int, interruption: Interruption, progress: @escaping @Sendable (Int) -> Void,
        body: @escaping @Sendable (Int, inout Local?) -> Outcome,
        finish: @escaping @Sendable (Local?) -> Void = { _ in }
    ) -> [Outcome]? {
        let outcomes = Mutex<(list: [Outcome?], finished: Int)>((Array(repeating: nil, count: count), 0))
        takeIndices(count: count, threads: threads, interruption: interruption, finish: finish) { index, local in
            let outcome = body(index, &local)
            let finished = outcomes.withLock { state -> Int in
                state.list[index] = outcome
                state.finished += 1
                return state.finished
            }
            progress(finished)
            return true
        }
        guard interruption.signal == nil else { return nil }
        return outcomes.withLock { $0.list }.map { $0! }
    }

    /// Runs `body` for every index as `run` does, and hands each outcome to
    /// `deliver` in index order as soon as every earlier one has been
    /// delivered, then lets it go: only the outcomes that finished ahead of
    /// a slower one are held, never all of them. `deliver` runs on one
    /// thread at a time; when it throws, no more indices are taken and the
    /// error is returned. Returns nil when `interruption` saw a signal.
    static func runInOrder<Local, Outcome: Sendable>(
        count: Int, threads: Int, interruption: Interruption, progress: @escaping @Sendable (Int) -> Void,
        body: @escaping @Sendable (Int, inout Local?) -> Outcome, deliver: @escaping @Sendable (Outcome) throws -> Void,
        finish: @escaping @Sendable (Local?) -> Void = { _ in }
    ) -> Result<Void, any Error>? {
        let delivery = Mutex(InOrderDelivery<Outcome>())
        let finished = Mutex(0)
        takeIndices(count: count, threads: threads, interruption: interruption, finish: finish) { index, local in
            guard delivery.withLock({ $0.failure == nil }) else { return false }
            let outcome = body(index, &local)
            delivery.withLock { state in
                state.waiting[index] = outcome
                while state.failure == nil, let ready = state.waiting.removeValue(forKey: state.next) {
                    do {
                        try deliver(ready)
                    } catch {
                        state.failure = error
                    }
                    state.next += 1
                }
            }
            progress(
                finished.withLock { value -> Int in
                    value += 1
                    return value
                })
            return true
        }
        guard interruption.signal == nil else { return nil }
        if let failure = delivery.withLock({ $0.failure }) { return .failure(failure) }
        return .success(())
    }

    /// Starts up to `threads` threads that take the indices below `count`
    /// one at a time, each handing it to `take` with the thread's `Local`,
    /// until none is left, `interruption` saw a signal or `take` returns
    /// false; then `finish` on each thread's `Local`. Returns when every
    /// thread has stopped.
    private static func takeIndices<Local>(
        count: Int, threads: Int, interruption: Interruption, finish: @escaping @Sendable (Local?) -> Void,
        take: @escaping @Sendable (Int, inout Local?) -> Bool
    ) {
        let next = Mutex(0)
        let threadCount = min(max(1, threads), count)
        let threads = (0..<threadCount).map { _ in
            SystemThread {
                var local: Local?
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < count, interruption.signal == nil, take(index, &local) else { break }
                }
                finish(local)
            }
        }
        for thread in threads { thread.join() }
    }
}

/// The outcomes that finished ahead of an earlier one, the next index to
/// deliver, and the first error delivering gave.
private struct InOrderDelivery<Outcome> {
    var waiting: [Int: Outcome] = [:]
    var next = 0
    var failure: (any Error)?
}
