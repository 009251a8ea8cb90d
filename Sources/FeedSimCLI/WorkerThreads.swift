import Foundation
import Synchronization

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
        body: @escaping @Sendable (Int, inout Local?) -> Outcome, finish: @escaping @Sendable (Local?) -> Void = { _ in }
    ) -> [Outcome]? {
        let outcomes = Mutex<[Outcome?]>(Array(repeating: nil, count: count))
        let next = Mutex(0)
        let threadCount = min(max(1, threads), count)
        let stopped = DispatchSemaphore(value: 0)
        for _ in 0..<threadCount {
            Thread {
                var local: Local?
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < count, interruption.signal == nil else { break }
                    let outcome = body(index, &local)
                    let finished = outcomes.withLock { list -> Int in
                        list[index] = outcome
                        return list.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
                    }
                    progress(finished)
                }
                finish(local)
                stopped.signal()
            }.start()
        }
        for _ in 0..<threadCount { stopped.wait() }
        guard interruption.signal == nil else { return nil }
        return outcomes.withLock { $0 }.map { $0! }
    }
}
