import Determinism
import Testing
@testable import FeedSimulator

@Suite("Event queue")
struct EventQueueTests {
    @Test("simultaneous events run in the order they were scheduled")
    func simultaneousInSchedulingOrder() throws {
        var queue = EventQueue<String>(capacity: 100)
        for name in ["a", "b", "c", "d", "e"] { _ = try queue.schedule(name, at: 1_000) }
        _ = try queue.schedule("early", at: 10)
        _ = try queue.schedule("f", at: 1_000)
        var order: [String] = []
        while let event = queue.popNext() { order.append(event.payload) }
        #expect(order == ["early", "a", "b", "c", "d", "e", "f"])
    }

    @Test("events come out in time order whatever order they went in")
    func timeOrder() throws {
        var queue = EventQueue<Int>(capacity: 10_000)
        var generator = Xoshiro256StarStar(seed: 3)
        var times: [Int64] = []
        for i in 0..<2_000 {
            let t = Int64(generator.next(below: 500))
            times.append(t)
            _ = try queue.schedule(i, at: t)
        }
        var last: (time: Int64, sequence: UInt64) = (-1, 0)
        var seen = 0
        while let event = queue.popNext() {
            #expect((event.time, event.sequence) > last, "event \(event.payload)")
            #expect(times[event.payload] == event.time)
            last = (event.time, event.sequence)
            seen += 1
        }
        #expect(seen == 2_000)
    }

    @Test("a cancelled event never runs; the others still do")
    func cancellation() throws {
        var queue = EventQueue<String>(capacity: 10)
        _ = try queue.schedule("keep", at: 5)
        let doomed = try queue.schedule("drop", at: 5)
        _ = try queue.schedule("later", at: 9)
        queue.cancel(doomed)
        #expect(queue.popNext()?.payload == "keep")
        #expect(queue.popNext()?.payload == "later")
        #expect(queue.popNext() == nil)
    }

    @Test("scheduling past the capacity fails loudly")
    func capacity() throws {
        var queue = EventQueue<Int>(capacity: 3)
        for i in 0..<3 { _ = try queue.schedule(i, at: 1) }
        #expect(throws: SimulationLimitError.queueFull(capacity: 3, time: 2)) {
            _ = try queue.schedule(3, at: 2)
        }
    }
}
