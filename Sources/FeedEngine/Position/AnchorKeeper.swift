/// `anchor`: Catbird's scroll anchor. The first post at least 30% visible,
/// captured during a pull once it passes 20 pt (or just before the data
/// changes), is put back at its viewport-relative position:
/// `newOffset = newAnchorY − (itemY − offsetY)`. If the anchor post is gone,
/// the next surviving post below it (up to `fallbackDepth`) takes its place.
public struct AnchorKeeper: PositionKeeper {
    public static let name = "anchor"
    /// Every change. A refresh that lands while the reader is still at the
    /// pull restores the anchor captured while they pulled, where the
    /// reader was then, not where the pull's bounce has taken them since
    /// (Catbird's design), and is not judged (`usesPullAnchor`); one that
    /// lands after they scrolled away holds the post they read then.
    public static let heldCauses: Set<ChangeCause> = [
        .refresh, .newPosts, .append, .contentUpdate, .removal, .heightChange, .imageSize,
        .widthChange, .textSizeChange, .likeRollback, .restore,
    ]
    public init() {}

    /// How many items below a lost anchor are tried as its replacement.
    public static let fallbackDepth = 20

    public var usesPullAnchor: Bool { true }

    /// The items below the anchor with their viewport positions before the
    /// batch, to fall back on.
    private var fallbacks: [ScrollAnchor] = []

    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
        fallbacks.removeAll(keepingCapacity: true)
        guard let anchor = batch.anchor else { return }
        var index = anchor.index + 1
        let end = min(list.items.count, anchor.index + AnchorKeeper.fallbackDepth + 1)
        while index < end {
            fallbacks.append(
                ScrollAnchor(
                    itemID: list.items[index].id, index: index, itemY: list.minY(of: index),
                    offsetY: batch.offset, capturedAt: anchor.capturedAt))
            index += 1
        }
    }

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        guard let anchor = batch.anchor else { return PlaceOutcome(.keepOffset) }
        if let newIndex = list.index(of: anchor.itemID) {
            return PlaceOutcome(.moveOffset(to: list.minY(of: newIndex) - anchor.viewportY))
        }
        for fallback in fallbacks {
            if let newIndex = list.index(of: fallback.itemID) {
                return PlaceOutcome(
                    .moveOffset(to: list.minY(of: newIndex) - fallback.viewportY), settleAround: fallback.itemID,
                    anchorLost: true)
            }
        }
        return PlaceOutcome(.keepOffset, anchorLost: true)
    }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        guard let index = list.index(of: anchor.itemID) else { return .keepOffset }
        return .moveOffset(to: list.minY(of: index) - anchor.viewportY)
    }
}
