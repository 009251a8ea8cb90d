/// Coalesces a burst of updates into one batch, applied once the burst has
/// been quiet for `interval` (a trailing-edge debounce), as Catbird does with
/// 50 ms and 150 ms windows around feed updates.
///
/// Every `submit(_:)` restarts the wait. When `interval` nanoseconds pass
/// without a new submission, `apply` receives every pending update in
/// submission order, in one call. With a `maxDelay`, a burst that never goes
/// quiet is still applied `maxDelay` nanoseconds after its first update.
///
/// Time comes only from the `EngineScheduler`, so a debounced timeline is the
/// same in every run.
package final class Debouncer<Update> {
    /// The quiet time, in nanoseconds, after which a burst is applied.
    package let interval: Int64

    /// The longest time, in nanoseconds, from a burst's first update to its
    /// application, or `nil` if a burst may be delayed indefinitely.
    package let maxDelay: Int64?

    /// The number of updates submitted.
    @exclusivity(unchecked) package private(set) var submitted = 0

    /// The number of batches passed to `apply`.
    @exclusivity(unchecked) package private(set) var applied = 0

    /// The number of updates dropped by `cancel()`.
    @exclusivity(unchecked) package private(set) var discarded = 0

    private let scheduler: any EngineScheduler
    private let apply: ([Update]) -> Void
    @exclusivity(unchecked) private var pending: [Update] = []
    @exclusivity(unchecked) private var burstStart: Int64 = 0
    @exclusivity(unchecked) private var timer: ScheduledAction?
    @exclusivity(unchecked) private var timerDeadline: Int64 = 0

    /// Creates a debouncer that applies updates through `apply`.
    ///
    /// - Parameters:
    ///   - interval: The quiet time before a burst is applied, in
    ///     nanoseconds; not negative.
    ///   - maxDelay: The longest a burst's first update may wait, in
    ///     nanoseconds; not negative. `nil` for no bound.
    ///   - scheduler: The source of time and timers.
    ///   - apply: Receives each batch, oldest update first.
    package init(
        interval: Int64,
        maxDelay: Int64? = nil,
        scheduler: any EngineScheduler,
        apply: @escaping ([Update]) -> Void
    ) {
        precondition(interval >= 0, "Debouncer interval must not be negative")
        precondition((maxDelay ?? 0) >= 0, "Debouncer maxDelay must not be negative")
        self.interval = interval
        self.maxDelay = maxDelay
        self.scheduler = scheduler
        self.apply = apply
    }

    deinit {
        if let timer { scheduler.cancel(timer) }
    }

    /// The number of updates waiting for the burst to end.
    ///
    /// - Complexity: O(1)
    package var pendingCount: Int { pending.count }

    /// When the pending burst will be applied, in nanoseconds, or `nil` if
    /// nothing is pending.
    ///
    /// - Complexity: O(1)
    package var scheduledApplyTime: Int64? {
        timer == nil ? nil : timerDeadline
    }

    /// Adds `update` to the pending burst and restarts the quiet-time wait.
    ///
    /// - Complexity: O(1) amortized, plus one cancellation and one
    ///   scheduling on the scheduler.
    package func submit(_ update: Update) {
        let now = scheduler.now
        submitted += 1
        if pending.isEmpty { burstStart = now }
        pending.append(update)

        var deadline = now + interval
        if let maxDelay { deadline = Swift.min(deadline, burstStart + maxDelay) }
        if let timer {
            if deadline == timerDeadline { return }
            scheduler.cancel(timer)
        }
        timerDeadline = deadline
        timer = scheduler.schedule(after: deadline - now) { [weak self] in
            self?.timerFired()
        }
    }

    /// Applies the pending burst now, if there is one, without waiting.
    ///
    /// Updates submitted from inside `apply` start a new burst.
    ///
    /// - Complexity: O(1), plus the cost of `apply`.
    package func flush() {
        if let timer {
            scheduler.cancel(timer)
            self.timer = nil
        }
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        applied += 1
        apply(batch)
    }

    /// Drops the pending burst without applying it.
    ///
    /// - Complexity: O(*p*) for *p* pending updates.
    package func cancel() {
        if let timer {
            scheduler.cancel(timer)
            self.timer = nil
        }
        discarded += pending.count
        pending.removeAll()
    }

    private func timerFired() {
        timer = nil
        flush()
    }
}
