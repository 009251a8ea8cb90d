/// The engine's only source of time: it reads the current simulated time and
/// asks for work to run later, and never reads a clock or starts a thread.
///
/// The simulator implements this with its event queue; tests and engine
/// users who drive time by hand use `ManualScheduler`. Times and delays are
/// integer nanoseconds.
package protocol EngineScheduler: AnyObject {
    /// The current time, in nanoseconds.
    var now: Int64 { get }

    /// Runs `action` once, `delay` nanoseconds from now; actions due at the
    /// same time run in the order they were scheduled.
    ///
    /// - Parameters:
    ///   - delay: Nanoseconds from now; not negative.
    ///   - action: What to run then.
    /// - Returns: A handle that `cancel(_:)` accepts.
    @discardableResult
    func schedule(after delay: Int64, _ action: @escaping () -> Void) -> ScheduledAction

    /// Makes sure a scheduled action does not run. Cancelling an action that
    /// already ran or was already cancelled does nothing.
    func cancel(_ action: ScheduledAction)
}

/// A handle to an action given to an `EngineScheduler`.
package struct ScheduledAction: Hashable, Sendable {
    /// The scheduler's identifier for the action, unique per scheduler.
    package let id: UInt64

    /// Creates a handle; schedulers call this, clients keep what
    /// `schedule(after:_:)` returns.
    package init(id: UInt64) {
        self.id = id
    }
}

/// An `EngineScheduler` whose time moves only when told to, for tests and
/// for engine users that own their run loop.
///
/// Pending actions wait in a binary heap ordered by (due time, scheduling
/// order), as in swift-nio's `EmbeddedEventLoop`, so that simultaneous
/// actions run in the order they were scheduled and every run is the same.
/// Advancing time runs each due action at its own due time, including
/// actions that running ones schedule within the advanced span.
package final class ManualScheduler: EngineScheduler {
    /// The current time, in nanoseconds; changes only in `advance(by:)` and
    /// `advance(to:)`.
    package private(set) var now: Int64

    /// The most actions one call to `advance(by:)` or `advance(to:)` may
    /// run; past it the scheduler traps, because an action that keeps
    /// rescheduling itself without delay would otherwise never let time move.
    package let actionLimitPerAdvance: Int

    /// The number of actions run so far.
    package private(set) var actionsRun = 0

    private var isAdvancing = false
    private var queue = _DueActionQueue()
    private var pendingActions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 0

    /// Creates a scheduler whose time starts at `now`.
    ///
    /// - Parameters:
    ///   - now: The starting time, in nanoseconds.
    ///   - actionLimitPerAdvance: The most actions one advance may run.
    package init(now: Int64 = 0, actionLimitPerAdvance: Int = 1_000_000) {
        precondition(actionLimitPerAdvance > 0, "ManualScheduler needs a positive action limit")
        self.now = now
        self.actionLimitPerAdvance = actionLimitPerAdvance
    }

    /// The number of actions scheduled and neither run nor cancelled.
    ///
    /// - Complexity: O(1)
    package var pendingCount: Int { pendingActions.count }

    /// The due time of the earliest pending action, or `nil` if none is
    /// pending.
    ///
    /// - Complexity: O(log *n*) amortized: cancelled entries at the front of
    ///   the queue are discarded on the way.
    package var nextDueTime: Int64? {
        discardCancelledHead()
        return queue.first?.dueTime
    }

    /// Schedules `action` to run `delay` nanoseconds from now.
    ///
    /// - Complexity: O(log *n*) for *n* queued actions.
    @discardableResult
    package func schedule(after delay: Int64, _ action: @escaping () -> Void) -> ScheduledAction {
        precondition(delay >= 0, "Cannot schedule an action \(delay) ns in the past")
        let id = nextID
        nextID += 1
        pendingActions[id] = action
        queue.insert(_DueAction(dueTime: now + delay, id: id))
        return ScheduledAction(id: id)
    }

    /// Removes a pending action so it never runs.
    ///
    /// - Complexity: O(1) expected; the queue entry is discarded when it
    ///   reaches the front.
    package func cancel(_ action: ScheduledAction) {
        pendingActions.removeValue(forKey: action.id)
    }

    /// Moves time forward by `duration` nanoseconds, running every action
    /// that falls due on the way.
    ///
    /// - Complexity: O(*k* log *n*) for *k* actions run, plus their own cost.
    package func advance(by duration: Int64) {
        precondition(duration >= 0, "Cannot move time backwards by \(-duration) ns")
        advance(to: now + duration)
    }

    /// Moves time forward to `time`, running every action due at or before
    /// it in (due time, scheduling order); `now` reads each action's due time
    /// while it runs, and `time` afterwards.
    ///
    /// - Complexity: O(*k* log *n*) for *k* actions run, plus their own cost.
    package func advance(to time: Int64) {
        precondition(time >= now, "Cannot move time back from \(now) to \(time)")
        precondition(!isAdvancing, "An action cannot advance the scheduler that runs it")
        isAdvancing = true
        defer { isAdvancing = false }
        var actionsThisAdvance = 0
        while let due = queue.first, due.dueTime <= time {
            queue.removeFirst()
            guard let action = pendingActions.removeValue(forKey: due.id) else { continue }
            actionsThisAdvance += 1
            precondition(
                actionsThisAdvance <= actionLimitPerAdvance,
                "More than \(actionLimitPerAdvance) actions in one advance to \(time) ns"
            )
            now = due.dueTime
            actionsRun += 1
            action()
        }
        now = time
    }

    private func discardCancelledHead() {
        while let due = queue.first, pendingActions[due.id] == nil {
            queue.removeFirst()
        }
    }
}

/// A queued action's due time and scheduling order.
internal struct _DueAction: Comparable, Sendable {
    var dueTime: Int64
    var id: UInt64

    static func < (lhs: _DueAction, rhs: _DueAction) -> Bool {
        (lhs.dueTime, lhs.id) < (rhs.dueTime, rhs.id)
    }
}

/// A binary min-heap of due actions.
internal struct _DueActionQueue: Sendable {
    private var heap: [_DueAction] = []

    /// The earliest entry.
    ///
    /// - Complexity: O(1)
    var first: _DueAction? { heap.first }

    /// - Complexity: O(log *n*)
    mutating func insert(_ entry: _DueAction) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the earliest entry.
    ///
    /// - Complexity: O(log *n*)
    mutating func removeFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left] < heap[smallest] { smallest = left }
            if right < heap.count, heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
