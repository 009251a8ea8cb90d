import HeapModule

/// Simulated time, in nanoseconds since the start of a run.
package typealias SimTime = Int64

/// A pending event: ordered by time, then by the order it was scheduled in,
/// so simultaneous events run first-scheduled first.
struct QueuedEvent<Payload>: Comparable {
    var time: SimTime
    var sequence: UInt64
    var payload: Payload

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.time, lhs.sequence) < (rhs.time, rhs.sequence)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.time == rhs.time && lhs.sequence == rhs.sequence
    }
}

/// The discrete-event queue: a binary heap of (time, insertion sequence),
/// in front of which waits the earliest event when it was the last one
/// scheduled. A run's next vsync is mostly that: scheduled a frame ahead,
/// before anything else comes due, it is then taken without a trip through
/// the heap (which was 3% of a session). Events come out in the same order.
package struct EventQueue<Payload> {
    private var heap = Heap<QueuedEvent<Payload>>()
    /// An event earlier than every event in the heap, if one is held apart.
    private var first: QueuedEvent<Payload>?
    private var nextSequence: UInt64 = 0
    /// Events scheduled and later cancelled; skipped when they come due.
    /// Only ever asked for membership, so its order never matters.
    private var cancelled = Set<UInt64>()

    /// The most events that may wait at once.
    package let capacity: Int

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Events waiting, cancelled ones included.
    package var count: Int { heap.count + (first == nil ? 0 : 1) }

    /// Schedules `payload` at `time` and returns its sequence number, which
    /// cancels it.
    /// - Complexity: O(log n)
    package mutating func schedule(_ payload: Payload, at time: SimTime) throws(SimulationLimitError) -> UInt64 {
        guard count < capacity else {
            throw SimulationLimitError.queueFull(capacity: capacity, time: time)
        }
        let sequence = nextSequence
        nextSequence += 1
        let event = QueuedEvent(time: time, sequence: sequence, payload: payload)
        if let held = first {
            // A later sequence never sorts before an equal time: only an
            // earlier time displaces the event held apart.
            if event < held {
                heap.insert(held)
                first = event
            } else {
                heap.insert(event)
            }
        } else if let earliest = heap.min, !(event < earliest) {
            heap.insert(event)
        } else {
            first = event
        }
        return sequence
    }

    /// Marks the event with `sequence` so it never runs.
    package mutating func cancel(_ sequence: UInt64) {
        cancelled.insert(sequence)
    }

    /// The time of the next event, if any.
    package var nextTime: SimTime? { first?.time ?? heap.min?.time }

    /// Removes and returns the earliest live event.
    /// - Complexity: O(log n)
    package mutating func popNext() -> (time: SimTime, sequence: UInt64, payload: Payload)? {
        while let event = takeFirst() ?? heap.popMin() {
            // Most runs cancel nothing: an empty set is not asked, which
            // would hash every event's sequence.
            if !cancelled.isEmpty, cancelled.remove(event.sequence) != nil { continue }
            return (event.time, event.sequence, event.payload)
        }
        return nil
    }

    private mutating func takeFirst() -> QueuedEvent<Payload>? {
        defer { first = nil }
        return first
    }
}

/// Why a run was stopped before its end.
package enum SimulationLimitError: Error, Equatable, CustomStringConvertible, Sendable {
    case eventLimit(limit: Int, time: SimTime)
    case timeLimit(limit: SimTime, time: SimTime)
    case queueFull(capacity: Int, time: SimTime)
    case eventInPast(now: SimTime, time: SimTime)

    /// When the run stopped.
    package var stoppedAt: SimTime {
        switch self {
        case let .eventLimit(_, time), let .timeLimit(_, time), let .queueFull(_, time): time
        case let .eventInPast(now, _): now
        }
    }

    package var description: String {
        switch self {
        case let .eventLimit(limit, time):
            """
            stopped at \(formatSeconds(time)): more than limits.max_events (\(limit)) events; raise the limit or \
            shorten the run
            """
        case let .timeLimit(limit, time):
            """
            stopped: an event was scheduled at \(formatSeconds(time)), past limits.max_simulated_s \
            (\(formatSeconds(limit)))
            """
        case let .queueFull(capacity, time):
            "stopped at \(formatSeconds(time)): more than \(capacity) events waiting at once"
        case let .eventInPast(now, time):
            "stopped at \(formatSeconds(now)): an event was scheduled in the past (\(formatSeconds(time)))"
        }
    }
}

func formatSeconds(_ time: SimTime) -> String {
    let millis = time / 1_000_000
    return "\(millis / 1000).\(String(repeating: "0", count: 3 - String(millis % 1000).count))\(millis % 1000) s"
}
