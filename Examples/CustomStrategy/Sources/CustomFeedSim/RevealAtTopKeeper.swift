import FeedEngine

/// `reveal_at_top`: Catbird's scroll anchor everywhere but at the very top
/// of the feed. A reader whose first post sits whole at the top of the
/// screen is waiting for what is new: posts that arrive then, pushed or
/// from a refresh, appear above it and push it down, as a feed that streams
/// its news does. Anywhere else the anchor holds the reader, exactly as the
/// built-in `anchor` does.
///
/// It is built on the built-in keeper (`AnchorKeeper`), which it asks for
/// everything but that one decision, and it promises what `anchor` promises
/// less new posts, which it lets move the reader on purpose.
struct RevealAtTopKeeper: PositionKeeper {
    static let name = "reveal_at_top"
    static let heldCauses: Set<ChangeCause> = AnchorKeeper.heldCauses.subtracting([.newPosts])

    private var anchor = AnchorKeeper()

    init() {}

    var usesPullAnchor: Bool { anchor.usesPullAnchor }

    /// Whether the reader is at the top: the first post is the anchor and
    /// its top edge is on screen.
    private static func isAtTop(_ batch: PlaceBatch) -> Bool {
        guard let captured = batch.anchor else { return false }
        return captured.index == 0 && captured.viewportY >= 0
    }

    mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
        anchor.batchWillApply(batch, list: list)
    }

    func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        // At the top, posts that arrive above the first one are shown where
        // they land: contentOffset stays at the top of the content. Only
        // arrivals: a batch that also removes posts (a deletion, the thread
        // tuner regrouping a reply under its parent) keeps the reader, as
        // `anchor` does.
        if RevealAtTopKeeper.isAtTop(batch), batch.changes.deletes.isEmpty, batch.changes.inserts.contains(0) {
            return PlaceOutcome(.keepOffset)
        }
        return anchor.batchDidApply(batch, list: list)
    }

    func afterRelayout(anchor captured: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        anchor.afterRelayout(anchor: captured, list: list)
    }
}
