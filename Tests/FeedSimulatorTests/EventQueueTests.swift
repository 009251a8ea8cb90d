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

    @Test("scheduling while running, as a simulation does, keeps time-then-sequence order", arguments: [7, 8, 9])
    func interleavedSchedulingAndPopping(seed: UInt64) throws {
        var queue = EventQueue<Int>(capacity: 10_000)
        var generator = Xoshiro256StarStar(seed: seed)
        // The reference: every live event, popped by the smallest (time, sequence).
        var waiting: [(time: Int64, sequence: UInt64, payload: Int)] = []
        var now: Int64 = 0
        var payload = 0
        for step in 0..<20_000 {
            switch generator.next(below: 10) {
            case 0...4:
                // Mostly the next frame, a little ahead; sometimes now, or far off.
                let delay: Int64 =
                    switch generator.next(below: 4) {
                    case 0: 0
                    case 1: Int64(generator.next(below: 100_000))
                    default: 8_333 + Int64(generator.next(below: 3))
                    }
                let sequence = try queue.schedule(payload, at: now + delay)
                waiting.append((now + delay, sequence, payload))
                payload += 1
            case 5 where !waiting.isEmpty:
                let victim = waiting.remove(at: Int(generator.next(below: UInt64(waiting.count))))
                queue.cancel(victim.sequence)
            default:
                let expected = waiting.indices.min {
                    (waiting[$0].time, waiting[$0].sequence) < (waiting[$1].time, waiting[$1].sequence)
                }
                #expect(
                    queue.nextTime.map { $0 <= (expected.map { waiting[$0].time } ?? .max) } ?? (expected == nil),
                    "step \(step)")
                let event = queue.popNext()
                #expect(event?.sequence == expected.map { waiting[$0].sequence }, "step \(step)")
                #expect(event?.payload == expected.map { waiting[$0].payload }, "step \(step)")
                if let expected {
                    now = waiting[expected].time
                    waiting.remove(at: expected)
                }
            }
        }
        while let event = queue.popNext() {
            let expected = waiting.indices.min {
                (waiting[$0].time, waiting[$0].sequence) < (waiting[$1].time, waiting[$1].sequence)
            }!
            #expect(event.sequence == waiting[expected].sequence)
            waiting.remove(at: expected)
        }
        #expect(waiting.isEmpty)
        #expect(queue.count == 0)
    }

    @Test("the count includes an event held ahead of the heap, and the capacity counts it")
    func countIncludesTheFirstEvent() throws {
        var queue = EventQueue<Int>(capacity: 2)
        _ = try queue.schedule(0, at: 10)
        #expect(queue.count == 1)
        _ = try queue.schedule(1, at: 5)
        #expect(queue.count == 2)
        #expect(queue.nextTime == 5)
        #expect(throws: SimulationLimitError.queueFull(capacity: 2, time: 1)) {
            _ = try queue.schedule(2, at: 1)
        }
        #expect(queue.popNext()?.payload == 1)
        #expect(queue.count == 1)
        #expect(queue.nextTime == 10)
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
