/// `swiftui_default`: what a SwiftUI `ScrollView` with a `LazyVStack` (or a
/// `List`) does by itself, with no scroll position bound. Sources, with the
/// times in "Dive into lazy stacks and scrolling with SwiftUI" (WWDC26
/// session 321), are in docs/swiftui-hosts.md:
/// - a batch of data changes keeps the absolute offset, so rows inserted or
///   removed above the reader move the content under them (reported by
///   developers; Apple does not say);
/// - rows measured for the first time above the screen, as the reader
///   scrolls back up, correct the estimate of the space above, and the
///   offset absorbs the correction: the rows on screen stay still (4:14–4:57;
///   `PositionKeeper`'s default `heightsChangedAbove(by:)`, as under
///   `scroll_position_id`);
/// - a row already laid out that changes height (an image whose size
///   arrives late) is not compensated: it pushes what is below it, the
///   reader included (19:24–19:41);
/// - after a width or text size change the top-most visible row stays
///   where it was and the offset absorbs the new estimates (4:14–4:42).
public struct SwiftUIDefaultKeeper: PositionKeeper {
    public static let name = "swiftui_default"
    public static let heldCauses: Set<ChangeCause> = [.widthChange, .textSizeChange]
    public static let hosts: [FeedHost] = [.lazyVStack, .list]
    public init() {}

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome { PlaceOutcome(.keepOffset) }

    public func loadedRowResizedAbove(by delta: Double, inUpdate: Bool) -> PlaceCorrection { .keepOffset }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        AnchorKeeper().afterRelayout(anchor: anchor, list: list)
    }
}

/// `scroll_position_id`: SwiftUI's `scrollPosition(id:)` on a lazy stack
/// marked `scrollTargetLayout()` (iOS 17; `ScrollPosition` from iOS 18).
/// The binding follows the top-most row while the reader scrolls, and
/// SwiftUI keeps that row in place when the data changes under it (Apple's
/// `ScrollPosition` documentation names re-ordered data and a change of
/// the scroll view's size; developers use it to keep rows inserted above
/// the reader from moving them). A row that disappears hands its place to
/// the next that stays, as the binding then names it. What it does not
/// cover is a row already laid out that changes height above the reader
/// on its own, outside an update: that pushes the content, as under
/// `swiftui_default` (session 321, 19:24–19:41).
public struct ScrollPositionKeeper: PositionKeeper {
    public static let name = "scroll_position_id"
    public static let heldCauses: Set<ChangeCause> = [
        .newPosts, .append, .contentUpdate, .removal, .widthChange, .textSizeChange, .likeRollback,
    ]
    public static let hosts: [FeedHost] = [.lazyVStack, .list]
    public init() {}

    private var identified = AnchorKeeper()

    public var usesPullAnchor: Bool { true }

    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
        identified.batchWillApply(batch, list: list)
    }

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        identified.batchDidApply(batch, list: list)
    }

    /// On its own, the resize pushes the reader (session 321, 19:24–19:41);
    /// inside an update, the identified row is kept in place in the layout
    /// of the whole update, the resize with the update's other changes.
    public func loadedRowResizedAbove(by delta: Double, inUpdate: Bool) -> PlaceCorrection {
        inUpdate ? .adjustOffset(by: delta) : .keepOffset
    }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        identified.afterRelayout(anchor: anchor, list: list)
    }
}

/// `default_anchor_bottom`: SwiftUI's default with `.defaultScrollAnchor(.bottom)`
/// (iOS 17; for the `.sizeChanges` role from iOS 18) and no scroll position
/// bound. Apple's documentation says the anchor decides "how the scroll
/// view handles content size changes" and no more. Developers who measured
/// it (iOS 18) report that the bottom is kept only while the last row is on
/// screen and the content is taller than the screen; otherwise the top is,
/// as without the anchor. So, at the end of the feed, a data change keeps
/// the distance from the content's end: rows inserted above hold the
/// reader, and a page appended carries them on to the new end, as a chat
/// keeps its newest message in view. Away from the end it is
/// `swiftui_default`. With a scroll position bound the binding wins
/// (reported by developers), so `scroll_position_id` ignores the anchor.
/// It claims what `swiftui_default` claims: what it holds at the end it
/// does not hold elsewhere.
public struct BottomAnchorKeeper: PositionKeeper {
    public static let name = "default_anchor_bottom"
    public static let heldCauses = SwiftUIDefaultKeeper.heldCauses
    public static let hosts = SwiftUIDefaultKeeper.hosts
    public init() {}

    private var base = SwiftUIDefaultKeeper()
    /// The distance from the offset to the content's end before the change,
    /// when the last row was on screen and the content overflowed.
    private var distanceFromEnd: Double?

    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
        let atEnd =
            !list.items.isEmpty && list.displayedRange.upperBound == list.items.count
            && list.displayedRange.lowerBound > 0
        distanceFromEnd = atEnd ? list.contentMaxY - batch.offset : nil
    }

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        guard let distanceFromEnd else { return base.batchDidApply(batch, list: list) }
        return PlaceOutcome(.moveOffset(to: list.contentMaxY - distanceFromEnd))
    }

    public func loadedRowResizedAbove(by delta: Double, inUpdate: Bool) -> PlaceCorrection {
        base.loadedRowResizedAbove(by: delta, inUpdate: inUpdate)
    }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        base.afterRelayout(anchor: anchor, list: list)
    }
}
