/// Keeps the reader's place when content changes under them: one type per
/// position strategy, called by the engine at each moment a change can move
/// what the reader sees. The engine applies what a keeper returns and never
/// asks which strategy it is.
///
/// A keeper lives as long as its engine and may keep state between a
/// batch's `batchWillApply` and `batchDidApply`.
public protocol PositionKeeper {
    /// The name scenarios use in `position_strategy`.
    static var name: String { get }
    init()

    /// The changes this strategy promises to hold the reader through: after
    /// each, the post the reader looked at is where it was (within 1 pt),
    /// unless it was removed or the content had to be clamped at an edge.
    /// `feedsim explore` checks every run against this claim, so a strategy
    /// declares only what it keeps. Default: none.
    static var heldCauses: Set<ChangeCause> { get }

    /// The hosts this strategy can exist in (`FeedHost`): a scenario that
    /// names the strategy in another host is refused. Default: the
    /// collection view only.
    static var hosts: [FeedHost] { get }

    /// The coordinate space the list must lay out in, or `nil` for the one
    /// the engine was configured with.
    var coordinateSpace: CoordinateSpace? { get }

    /// Whether a refresh that lands while the reader is still at the pull
    /// (the content at the top or past it) restores the anchor captured
    /// while they pulled (Catbird captures it once the pull passes 20 pt)
    /// rather than one captured when the data changes. A refresh that lands
    /// after the reader scrolled away from the top always takes one
    /// captured then. A strategy that claims `refresh` and uses the pull's
    /// anchor is judged on refreshes away from the pull only.
    var usesPullAnchor: Bool { get }

    /// A batch update is about to be applied; `list` still holds the old items.
    mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView)

    /// The batch update was applied; `list` holds the new items. Says how to
    /// put the reader back.
    mutating func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome

    /// Cells above the reader changed height by `delta` points in total
    /// (measured for the first time, or an image whose size was unknown arrived).
    func heightsChangedAbove(by delta: Double) -> PlaceCorrection

    /// A cell above the reader that was already laid out changed height by
    /// `delta` points (an image whose size was unknown arrived), on its own
    /// or, with `inUpdate`, inside the layout of a data update the engine
    /// is committing. Default: `heightsChangedAbove(by:)`, as UIKit's
    /// self-sizing treats both alike; a SwiftUI lazy stack compensates only
    /// rows it measures for the first time. An image the memory cache
    /// delivers as its cell is configured is part of the row's first
    /// layout and goes to `heightsChangedAbove(by:)` instead.
    func loadedRowResizedAbove(by delta: Double, inUpdate: Bool) -> PlaceCorrection

    /// Every cell was invalidated (a width or text size change) and the
    /// cells around `anchor`, captured before, were measured again.
    func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection

    /// A relaunch put saved posts back: the reader's anchor was `anchorID`,
    /// its top `viewportY` points below the top of the viewport; `top` is
    /// the offset of the top of the content.
    func afterRestore(anchorID: PostID?, viewportY: Double, list: FeedListView, top: Double) -> PlaceCorrection
}

/// A batch update as a keeper sees it.
public struct PlaceBatch: Sendable {
    /// The reader's anchor for this change: captured just before it, or for
    /// a refresh the pull-time anchor of a keeper that uses one; `nil` when
    /// nothing was on screen.
    public var anchor: ScrollAnchor?
    /// The change from the old items to the new.
    public var changes: Changeset
    /// contentOffset before the update.
    public var offset: Double

    public init(anchor: ScrollAnchor?, changes: Changeset, offset: Double) {
        self.anchor = anchor
        self.changes = changes
        self.offset = offset
    }
}

/// What the engine does to keep the reader's place.
public enum PlaceCorrection: Equatable, Sendable {
    /// Leave the content where it is.
    case keepOffset
    /// Move contentOffset to this value; the engine clamps it to the content
    /// (but never pulls in an overscroll the reader holds).
    case moveOffset(to: Double)
    /// Move contentOffset by this many points, unclamped.
    case adjustOffset(by: Double)
    /// Move the virtual content's origin by this many points; contentOffset stays.
    case shiftOrigin(by: Double)
    /// While the content decelerates freely after a fling, move where it will
    /// come to rest by what the wrapped correction would move the content
    /// now, and leave the content where it is: it carries on from there and
    /// lands where the correction would have put it
    /// (`FeedViewport.retargetDeceleration(by:)`). Otherwise (resting, under
    /// a finger, bouncing, animating, or a viewport that cannot retarget)
    /// the wrapped correction is applied as it is.
    indirect case retargetingFling(PlaceCorrection)
}

/// A keeper's answer to a batch update.
public struct PlaceOutcome: Equatable, Sendable {
    public var correction: PlaceCorrection
    /// The item the layout settles around; `nil` for the batch's anchor if
    /// it survived.
    public var settleAround: PostID?
    /// Whether the anchor post disappeared and the place was kept by another.
    public var anchorLost: Bool

    public init(_ correction: PlaceCorrection, settleAround: PostID? = nil, anchorLost: Bool = false) {
        self.correction = correction
        self.settleAround = settleAround
        self.anchorLost = anchorLost
    }
}

extension PositionKeeper {
    public static var heldCauses: Set<ChangeCause> { [] }
    public static var hosts: [FeedHost] { [.collectionView] }
    public func loadedRowResizedAbove(by delta: Double, inUpdate: Bool) -> PlaceCorrection {
        heightsChangedAbove(by: delta)
    }
    public var coordinateSpace: CoordinateSpace? { nil }
    public var usesPullAnchor: Bool { false }
    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {}

    /// Offsets follow heights measured above the reader by default: the
    /// post the reader looks at stays still.
    public func heightsChangedAbove(by delta: Double) -> PlaceCorrection { .adjustOffset(by: delta) }

    /// By default a relaunch puts the saved anchor back where the reader
    /// left it, whatever the strategy: restoration is the app's own state,
    /// not a batch update.
    public func afterRestore(anchorID: PostID?, viewportY: Double, list: FeedListView, top: Double) -> PlaceCorrection {
        guard let anchorID, let index = list.index(of: anchorID) else { return .moveOffset(to: top) }
        return .moveOffset(to: list.minY(of: index) - viewportY)
    }
}
