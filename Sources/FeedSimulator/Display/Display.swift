/// A display refreshing at a fixed rate: vsync ticks and the frame budget.
package struct Display: Sendable, Equatable {
    package static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// Refresh rate in hertz (60 or 120).
    package let refreshHz: Int

    /// The frame budget: one refresh interval rounded to the nanosecond
    /// (16,666,667 ns at 60 Hz, 8,333,333 ns at 120 Hz). Stored: every
    /// frame reads it, and working it out is a division.
    package let budget: SimTime

    package init(refreshHz: Int) {
        precondition(refreshHz > 0)
        self.refreshHz = refreshHz
        budget = (Display.nanosecondsPerSecond + SimTime(refreshHz / 2)) / SimTime(refreshHz)
    }

    /// The time of vsync number `index`, exact to the nanosecond (rounded
    /// down), so ticks never drift however long the run.
    package func vsyncTime(_ index: Int64) -> SimTime {
        index * Display.nanosecondsPerSecond / SimTime(refreshHz)
    }

    /// The index of the first vsync at or after `time`.
    ///
    /// From time 0 on, vsync i is at or after `time` when ⌊i·10⁹/Hz⌋ ≥ time,
    /// that is (`time` being whole) when i·10⁹ ≥ time·Hz: the index is
    /// ⌈time·Hz/10⁹⌉, one division by a constant, which the compiler makes
    /// a multiplication, where the search below divides by the rate.
    package func firstVsync(atOrAfter time: SimTime) -> Int64 {
        if time >= 0 {
            return (time * SimTime(refreshHz) + Display.nanosecondsPerSecond - 1) / Display.nanosecondsPerSecond
        }
        var index = time * SimTime(refreshHz) / Display.nanosecondsPerSecond
        while vsyncTime(index) < time { index += 1 }
        return index
    }
}
