import Testing

@testable import FeedEngine

/// One millisecond in the scheduler's nanoseconds.
private let ms: Int64 = 1_000_000

/// A debouncer on a manual scheduler that records each batch with the time
/// it was applied.
private final class DebounceTimeline {
    let scheduler = ManualScheduler()
    private(set) var batches: [(time: Int64, updates: [Int])] = []
    private(set) var debouncer: Debouncer<Int>!

    init(interval: Int64, maxDelay: Int64? = nil) {
        debouncer = Debouncer(interval: interval, maxDelay: maxDelay, scheduler: scheduler) { [unowned self] batch in
            batches.append((scheduler.now, batch))
        }
    }

    /// Advances to `time` and submits `update` there.
    func submit(_ update: Int, at time: Int64) {
        scheduler.advance(to: time)
        debouncer.submit(update)
    }

    var applyTimes: [Int64] { batches.map(\.time) }
    var appliedUpdates: [[Int]] { batches.map(\.updates) }
}

@Suite("Debouncer")
struct DebouncerTests {
    @Test("A burst at 0, 10 and 20 ms with a 50 ms interval applies once, at 70 ms")
    func burstAppliesOnceAfterQuiet() {
        let timeline = DebounceTimeline(interval: 50 * ms)
        timeline.submit(1, at: 0)
        timeline.submit(2, at: 10 * ms)
        timeline.submit(3, at: 20 * ms)
        timeline.scheduler.advance(to: 70 * ms - 1)
        #expect(timeline.batches.isEmpty)
        #expect(timeline.debouncer.scheduledApplyTime == 70 * ms)
        timeline.scheduler.advance(to: 200 * ms)
        #expect(timeline.applyTimes == [70 * ms])
        #expect(timeline.appliedUpdates == [[1, 2, 3]])
        #expect(timeline.debouncer.submitted == 3)
        #expect(timeline.debouncer.applied == 1)
        #expect(timeline.debouncer.pendingCount == 0)
        #expect(timeline.debouncer.scheduledApplyTime == nil)
    }

    @Test("Two bursts further apart than the interval apply twice")
    func separateBurstsApplySeparately() {
        let timeline = DebounceTimeline(interval: 50 * ms)
        timeline.submit(1, at: 0)
        timeline.submit(2, at: 10 * ms)
        timeline.submit(3, at: 100 * ms)
        timeline.submit(4, at: 110 * ms)
        timeline.scheduler.advance(to: 1_000 * ms)
        #expect(timeline.applyTimes == [60 * ms, 160 * ms])
        #expect(timeline.appliedUpdates == [[1, 2], [3, 4]])
        #expect(timeline.debouncer.applied == 2)
    }

    @Test("A submission exactly one interval after the last is a new burst")
    func boundaryStartsNewBurst() {
        let timeline = DebounceTimeline(interval: 50 * ms)
        timeline.submit(1, at: 0)
        timeline.submit(2, at: 50 * ms)
        timeline.scheduler.advance(to: 1_000 * ms)
        #expect(timeline.applyTimes == [50 * ms, 100 * ms])
        #expect(timeline.appliedUpdates == [[1], [2]])
    }

    @Test("maxDelay flushes a burst that never goes quiet")
    func maxDelayFlushesContinuousBurst() {
        let timeline = DebounceTimeline(interval: 50 * ms, maxDelay: 100 * ms)
        for time in stride(from: Int64(0), through: 200, by: 10) {
            timeline.submit(Int(time), at: time * ms)
        }
        timeline.scheduler.advance(to: 1_000 * ms)
        // The timers due at 100 and 200 ms run while time advances to those
        // instants, before the submissions made there; the 200 ms update
        // then waits out the quiet interval alone.
        #expect(timeline.applyTimes == [100 * ms, 200 * ms, 250 * ms])
        #expect(
            timeline.appliedUpdates == [
                Array(stride(from: 0, to: 100, by: 10)),
                Array(stride(from: 100, to: 200, by: 10)),
                [200],
            ]
        )
        #expect(timeline.debouncer.submitted == 21)
    }

    @Test("Without maxDelay a continuous burst waits until it ends")
    func noMaxDelayWaits() {
        let timeline = DebounceTimeline(interval: 50 * ms)
        for time in stride(from: Int64(0), through: 200, by: 10) {
            timeline.submit(Int(time), at: time * ms)
        }
        timeline.scheduler.advance(to: 1_000 * ms)
        #expect(timeline.applyTimes == [250 * ms])
        #expect(timeline.appliedUpdates.first?.count == 21)
    }

    @Test("flush() applies at once and the timer no longer fires")
    func flushAppliesNow() {
        let timeline = DebounceTimeline(interval: 50 * ms)
        timeline.submit(1, at: 0)
        timeline.submit(2, at: 10 * ms)
        timeline.scheduler.advance(to: 15 * ms)
        timeline.debouncer.flush()
        #expect(timeline.applyTimes == [15 * ms])
        timeline.debouncer.flush()
        timeline.scheduler.advance(to: 1_000 * ms)
        #expect(timeline.appliedUpdates == [[1, 2]])
        #expect(timeline.debouncer.applied == 1)
        #expect(timeline.scheduler.pendingCount == 0)
    }

    @Test("cancel() drops the pending burst; later submissions start afresh")
    func cancelDropsPending() {
        let timeline = DebounceTimeline(interval: 50 * ms)
        timeline.submit(1, at: 0)
        timeline.submit(2, at: 10 * ms)
        timeline.debouncer.cancel()
        timeline.scheduler.advance(to: 500 * ms)
        #expect(timeline.batches.isEmpty)
        #expect(timeline.debouncer.discarded == 2)
        #expect(timeline.debouncer.pendingCount == 0)

        timeline.submit(3, at: 600 * ms)
        timeline.scheduler.advance(to: 1_000 * ms)
        #expect(timeline.applyTimes == [650 * ms])
        #expect(timeline.appliedUpdates == [[3]])
        #expect(timeline.debouncer.submitted == 3)
    }

    @Test("An update submitted while a batch applies starts the next burst")
    func submitDuringApply() {
        let scheduler = ManualScheduler()
        var batches: [[String]] = []
        var debouncer: Debouncer<String>?
        debouncer = Debouncer(interval: 50 * ms, scheduler: scheduler) { batch in
            batches.append(batch)
            if batch == ["first"] { debouncer?.submit("follow-up") }
        }
        debouncer?.submit("first")
        scheduler.advance(to: 50 * ms)
        #expect(batches == [["first"]])
        #expect(debouncer?.pendingCount == 1)
        scheduler.advance(to: 100 * ms)
        #expect(batches == [["first"], ["follow-up"]])
        debouncer = nil
    }

    @Test("A released debouncer cancels its timer")
    func deinitCancelsTimer() {
        let scheduler = ManualScheduler()
        var applied = 0
        var debouncer: Debouncer<Int>? = Debouncer(interval: 50 * ms, scheduler: scheduler) { _ in applied += 1 }
        debouncer?.submit(1)
        #expect(scheduler.pendingCount == 1)
        debouncer = nil
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(to: 100 * ms)
        #expect(applied == 0)
    }
}

@Suite("ManualScheduler")
struct ManualSchedulerTests {
    @Test("Simultaneous actions run in the order they were scheduled")
    func simultaneousActionsRunInSchedulingOrder() {
        let scheduler = ManualScheduler()
        var order: [String] = []
        scheduler.schedule(after: 20) { order.append("late") }
        scheduler.schedule(after: 10) { order.append("first at 10") }
        scheduler.schedule(after: 10) { order.append("second at 10") }
        scheduler.schedule(after: 5) { order.append("early") }
        scheduler.schedule(after: 10) { order.append("third at 10") }
        scheduler.advance(by: 20)
        #expect(order == ["early", "first at 10", "second at 10", "third at 10", "late"])
        #expect(scheduler.actionsRun == 5)
    }

    @Test("Each action sees its own due time; afterwards time is the target")
    func nowDuringActions() {
        let scheduler = ManualScheduler(now: 1_000)
        var seen: [Int64] = []
        scheduler.schedule(after: 30) { seen.append(scheduler.now) }
        scheduler.schedule(after: 0) { seen.append(scheduler.now) }
        scheduler.advance(to: 1_100)
        #expect(seen == [1_000, 1_030])
        #expect(scheduler.now == 1_100)
    }

    @Test("Actions scheduled while advancing run if they fall due in the span")
    func nestedScheduling() {
        let scheduler = ManualScheduler()
        var order: [String] = []
        scheduler.schedule(after: 10) {
            order.append("outer at \(scheduler.now)")
            scheduler.schedule(after: 0) { order.append("same instant at \(scheduler.now)") }
            scheduler.schedule(after: 5) { order.append("inner at \(scheduler.now)") }
            scheduler.schedule(after: 100) { order.append("beyond at \(scheduler.now)") }
        }
        scheduler.schedule(after: 15) { order.append("sibling at \(scheduler.now)") }
        scheduler.advance(to: 50)
        #expect(order == ["outer at 10", "same instant at 10", "sibling at 15", "inner at 15"])
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.nextDueTime == 110)
        scheduler.advance(by: 60)
        #expect(order.last == "beyond at 110")
    }

    @Test("Cancelled actions never run; cancelling twice or after running does nothing")
    func cancellation() {
        let scheduler = ManualScheduler()
        var ran: [Int] = []
        let first = scheduler.schedule(after: 10) { ran.append(1) }
        let second = scheduler.schedule(after: 20) { ran.append(2) }
        scheduler.schedule(after: 30) { ran.append(3) }
        scheduler.cancel(first)
        scheduler.cancel(first)
        #expect(scheduler.pendingCount == 2)
        #expect(scheduler.nextDueTime == 20)
        scheduler.advance(to: 25)
        scheduler.cancel(second)
        scheduler.advance(to: 40)
        #expect(ran == [2, 3])
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.nextDueTime == nil)
    }

    @Test("Handles are unique per scheduler")
    func uniqueHandles() {
        let scheduler = ManualScheduler()
        let handles = (0..<100).map { _ in scheduler.schedule(after: 1) {} }
        #expect(Set(handles).count == 100)
    }
}
