/// What a prefetch policy sees at a layout pass: where the reader is in the
/// feed, how fast they move, and the engine's configured distances.
public struct PrefetchMoment: Sendable, Equatable {
    /// The indices of the rows on screen.
    public var visible: Range<Int>
    /// The rows in the feed.
    public var itemCount: Int
    /// The reader's speed through the feed, in points per second: positive
    /// towards older posts (further down), negative back towards the top,
    /// 0 at rest. Measured between layout passes.
    public var velocity: Double
    /// The mean height of the feed's rows, in points, to turn a distance
    /// into rows.
    public var rowHeight: Double
    /// The engine's image prefetch window, in rows (`image_prefetch_window`).
    public var window: Int
    /// The engine's page threshold, in rows (`load_more_threshold`).
    public var loadMoreThreshold: Int

    public init(
        visible: Range<Int>, itemCount: Int, velocity: Double, rowHeight: Double, window: Int, loadMoreThreshold: Int
    ) {
        self.visible = visible
        self.itemCount = itemCount
        self.velocity = velocity
        self.rowHeight = rowHeight
        self.window = window
        self.loadMoreThreshold = loadMoreThreshold
    }

    /// The last row on screen (one before the first when none is).
    public var lastVisible: Int { visible.upperBound - 1 }

    /// `count` rows after the screen (`towardsEnd`) or before it, clamped
    /// to the feed.
    public func rows(_ count: Int, towardsEnd: Bool) -> Range<Int> {
        if towardsEnd {
            let start = max(0, min(visible.upperBound, itemCount))
            return start..<min(itemCount, start + max(0, count))
        }
        let end = max(0, min(visible.lowerBound, itemCount))
        return max(0, end - max(0, count))..<end
    }

    /// How many rows the reader crosses in `seconds` at the current speed,
    /// rounded up.
    public func rowsCrossed(in seconds: Double) -> Int {
        guard rowHeight > 0, velocity.isFinite else { return 0 }
        return Int((abs(velocity) * seconds / rowHeight).rounded(.up))
    }
}
