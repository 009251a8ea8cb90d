import Foundation
import Synchronization
import Testing

@testable import FeedSimCLI

/// Outcomes handed over in index order as they finish, so an exploration
/// keeps none it has written.
@Suite("Worker threads in order")
struct WorkerThreadsTests {
    struct Stop: Error {}

    @Test("every outcome is delivered once, in index order, however the threads finish")
    func deliversInOrder() throws {
        let delivered = Mutex<[Int]>([])
        let result = WorkerThreads.runInOrder(
            count: 300, threads: 3, interruption: Interruption.shared, progress: { _ in },
            body: { (index, _: inout Void?) -> Int in
                // Uneven work, so later indices often finish first.
                usleep(UInt32((index * 7_919) % 5) * 200)
                return index
            },
            deliver: { index in delivered.withLock { $0.append(index) } })
        guard case .success = result else {
            Issue.record("not delivered: \(String(describing: result))")
            return
        }
        #expect(delivered.withLock { $0 } == Array(0..<300))
    }

    @Test("an error delivering stops the run: nothing after it is delivered, and the error is returned")
    func errorStops() throws {
        let delivered = Mutex<[Int]>([])
        let result = WorkerThreads.runInOrder(
            count: 200, threads: 2, interruption: Interruption.shared, progress: { _ in },
            body: { (index, _: inout Void?) -> Int in index },
            deliver: { index in
                if index == 50 { throw Stop() }
                delivered.withLock { $0.append(index) }
            })
        guard case .failure(let error) = result else {
            Issue.record("no error: \(String(describing: result))")
            return
        }
        #expect(error is Stop)
        #expect(delivered.withLock { $0 } == Array(0..<50))
    }
}
