/// ProMotion's adaptive refresh, as the simulator models it: a 120 Hz panel
/// runs at 120 Hz while the finger is on the glass or the content moves
/// fast, and drops to 60 Hz, with the longer budget, once the content is
/// still or slow for a few frames. 60 Hz vsyncs are every other 120 Hz one.
///
/// Apple documents the behaviour ("Optimizing ProMotion refresh rates for
/// iPhone 13 Pro and iPad Pro") but not its thresholds; the two below are
/// assumptions, named so a profile can be checked against a device.
package struct RefreshRateGovernor: Sendable, Equatable {
    /// Below this speed content counts as slow, in points per second: at
    /// 60 Hz it moves under 7 pt a frame, which reads as smooth.
    package static let slowSpeed = 400.0
    /// Slow frames in a row before the rate drops, so a scroll that pauses
    /// for one frame keeps its rate.
    package static let slowFramesBeforeDrop = 4

    /// The panel at its fastest, whose vsyncs the simulation ticks on.
    package let panel: Display
    /// Whether the rate adapts at all.
    package let isAdaptive: Bool
    /// The rate in force.
    package private(set) var current: Display
    private var slowFrames = 0

    package init(panel: Display, isAdaptive: Bool) {
        self.panel = panel
        self.isAdaptive = isAdaptive && panel.refreshHz == 120
        self.current = panel
    }

    /// Whether vsync `index` of the panel is a frame opportunity at the rate in force.
    package func isFrameVsync(_ index: Int64) -> Bool {
        index % Int64(panel.refreshHz / current.refreshHz) == 0
    }

    /// After a frame: the content moved at `speed` pt/s, with or without a
    /// finger on it.
    package mutating func frameRendered(speed: Double, touching: Bool) {
        guard isAdaptive else { return }
        if touching || speed >= RefreshRateGovernor.slowSpeed {
            slowFrames = 0
            current = panel
        } else {
            slowFrames += 1
            if slowFrames >= RefreshRateGovernor.slowFramesBeforeDrop { current = Display(refreshHz: 60) }
        }
    }
}
