/// Decides where a cell's layout work runs: on the main thread as the cell
/// first shows (self-sizing), ahead on a background queue when posts arrive
/// (precomputed heights), and whether the cell's contents are drawn off the
/// main thread behind a placeholder (asynchronous display, as Texture does).
///
/// One type per strategy; the engine makes one for each engine and asks it
/// at every commit and layout pass. The engine does the work the answers
/// call for: it hands the jobs to its background queue, applies their
/// results on the main thread, and measures on the main thread, as
/// self-sizing does, a cell that must show before its height is ready.
public protocol LayoutPolicy {
    /// The name scenarios use in `layout_strategy`.
    static var name: String { get }
    init()

    /// Whether row heights are computed on a background queue when posts
    /// arrive (a page, new posts, a width or text size change).
    var precomputesHeights: Bool { get }

    /// Whether a cell's contents (text layout and rendering, image drawing)
    /// are prepared on a background queue, a placeholder showing until they
    /// are ready.
    var displaysAsynchronously: Bool { get }

    /// The order to compute the heights of `rows` (rows not yet measured,
    /// in feed order) in, at `moment`: the queue runs them in the order
    /// returned. Rows left out are not computed ahead.
    func precomputeOrder(of rows: [Int], at moment: PrefetchMoment) -> [Int]

    /// The rows whose contents are prepared at `moment`, the rows on screen
    /// among them: contents of rows that leave it are let go.
    func displayRange(at moment: PrefetchMoment) -> Range<Int>
}

extension LayoutPolicy {
    /// Nearest the screen first, the rows below it before the rows above
    /// at the same distance: where the reader is soonest.
    public func precomputeOrder(of rows: [Int], at moment: PrefetchMoment) -> [Int] {
        let first = moment.visible.lowerBound
        return rows.sorted { a, b in
            let da = a >= first ? a - first : first - a
            let db = b >= first ? b - first : first - b
            return da != db ? da < db : a > b
        }
    }

    /// The rows on screen and `AsyncDisplayLayout.displayScreenfuls` of
    /// rows each side.
    public func displayRange(at moment: PrefetchMoment) -> Range<Int> {
        let rows = max(1, moment.visible.count) * AsyncDisplayLayout.displayScreenfuls
        let low = max(0, moment.visible.lowerBound - rows)
        let high = min(moment.itemCount, moment.visible.upperBound + rows)
        return low..<max(low, high)
    }
}

/// A layout strategy by name: what a scenario's `layout_strategy` names.
/// The built-ins are always known; a program registers others
/// (`LayoutStrategy.register(_:)`).
public struct LayoutStrategy: RegisteredPart {
    /// The policy's type: its name and how to make one. A type, not a name
    /// and a closure, so that an engine's configuration, which holds one,
    /// is 16 bytes smaller.
    private let policy: any (LayoutPolicy & SendableMetatype).Type

    /// The strategy `Policy` implements, named `Policy.name`.
    public init<Policy: LayoutPolicy & SendableMetatype>(_ policy: Policy.Type) {
        self.policy = policy
    }

    public var name: String { policy.name }

    /// A new policy for one engine.
    public func make() -> any LayoutPolicy { policy.init() }

    /// Every cell measured on the main thread the first time it shows.
    public static let selfSizing = LayoutStrategy(SelfSizingLayout.self)
    /// Heights computed on a background queue when posts arrive.
    public static let precomputed = LayoutStrategy(PrecomputedLayout.self)
    /// Heights precomputed, and contents drawn off the main thread behind
    /// a placeholder.
    public static let asyncDisplay = LayoutStrategy(AsyncDisplayLayout.self)

    public static let builtIn: [LayoutStrategy] = [.selfSizing, .precomputed, .asyncDisplay]
    public static let registry = PartRegistry(builtIn: builtIn)
}

/// UIKit's self-sizing cells: a cell is measured on the main thread as it
/// first comes on screen, its estimate standing in until then.
public struct SelfSizingLayout: LayoutPolicy {
    public static let name = "self_sizing"
    public init() {}
    public var precomputesHeights: Bool { false }
    public var displaysAsynchronously: Bool { false }
}

/// Heights computed on a background queue as posts arrive, the way a
/// feed that sizes its cells from its data ahead of layout does; a cell
/// whose height is not ready when it must show is measured on the main
/// thread.
public struct PrecomputedLayout: LayoutPolicy {
    public static let name = "precomputed"
    public init() {}
    public var precomputesHeights: Bool { true }
    public var displaysAsynchronously: Bool { false }
}

/// Texture's model: layout computed on a background queue as rows are
/// inserted, and each cell's contents drawn on a background queue while
/// it is in the display range, a placeholder showing until they are ready.
public struct AsyncDisplayLayout: LayoutPolicy {
    public static let name = "async_display"
    /// Screenfuls of rows each side of the screen whose contents are
    /// prepared: Texture's default display range (its collection node's
    /// tuning parameters: one screenful leading and one trailing).
    public static let displayScreenfuls = 1
    public init() {}
    public var precomputesHeights: Bool { true }
    public var displaysAsynchronously: Bool { true }
}
