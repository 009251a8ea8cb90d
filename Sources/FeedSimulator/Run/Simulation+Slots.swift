/// The event queue as the world uses it: events at times, and actions
/// (engine timers, server responses) in numbered slots that can be
/// cancelled; idle vsyncs skipped.
extension Simulation {
    func schedule(_ event: Event, at time: SimTime) throws(SimulationLimitError) {
        _ = try scheduleReturningSequence(event, at: time)
    }

    func scheduleReturningSequence(_ event: Event, at time: SimTime) throws(SimulationLimitError) -> UInt64 {
        guard time >= now else { throw .eventInPast(now: now, time: time) }
        guard time <= scenario.limits.maxSimulatedNs else {
            throw .timeLimit(limit: scenario.limits.maxSimulatedNs, time: time)
        }
        return try queue.schedule(event, at: time)
    }

    /// Queues `action` to run `delay` ns from now; returns its slot.
    ///
    /// While the app is terminated, nothing of the app may run: an action
    /// scheduled then comes from the killed engine finishing what it was
    /// doing (a decode it queued while the kill unwound) and is never run.
    /// The world's own actions name their `owner`: a launch, or
    /// `.runningLaunch` for whichever launch is running when they fire.
    @discardableResult
    func scheduleAction(after delay: SimTime, owner: ActionOwner? = nil, _ action: @escaping () -> Void) -> Int {
        let owner = owner ?? (app.state == .terminated ? .killedApp : .launch(app.launch))
        let slot: Int
        if let free = slots.free.popLast() {
            slot = free
            slots.actions[slot] = PendingAction(run: action)
            slots.owner[slot] = owner
        } else {
            slot = slots.actions.count
            slots.actions.append(PendingAction(run: action))
            slots.sequence.append(0)
            slots.owner.append(owner)
        }
        do {
            slots.sequence[slot] = try scheduleReturningSequence(.action(slot), at: now + max(0, delay))
        } catch {
            pendingLimitError = pendingLimitError ?? error
        }
        return slot
    }

    func cancelAction(slot: Int) {
        guard slot < slots.actions.count, slots.actions[slot] != nil else { return }
        slots.actions[slot] = nil
        queue.cancel(slots.sequence[slot])
        slots.free.append(slot)
    }

    /// Vsyncs from `first` on that come before the next queued event, when
    /// nothing moves, render nothing and change nothing: they are not queued,
    /// and the next vsync queued is the first at or after that event. Each
    /// one skipped is still counted, hashed into the digest and checked
    /// against the limits exactly as the loop would have handled it, so the
    /// run's results are those of handling every vsync.
    ///
    /// - Complexity: O(*k*) hash steps for the *k* vsyncs skipped, no queue operations.
    func skipIdleVsyncs(from first: Int64) throws(SimulationLimitError) -> Int64 {
        guard let until = queue.nextTime else { return first }
        var index = first
        let code = Event.vsync(first).code
        while display.vsyncTime(index) < until {
            let time = display.vsyncTime(index)
            guard time <= scenario.limits.maxSimulatedNs else {
                throw .timeLimit(limit: scenario.limits.maxSimulatedNs, time: time)
            }
            eventsProcessed += 1
            guard eventsProcessed <= scenario.limits.maxEvents else {
                throw .eventLimit(limit: scenario.limits.maxEvents, time: time)
            }
            meters.digest.combine(time)
            meters.digest.combine(code)
            index += 1
        }
        return index
    }
}

/// An action waiting in its slot. A struct around the closure, because an
/// array of bare closures stores them in the generic representation: every
/// closure put in was wrapped in a thunk allocated on the heap, and every
/// call went through it.
struct PendingAction {
    let run: () -> Void
}
