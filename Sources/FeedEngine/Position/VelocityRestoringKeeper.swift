/// `velocity_restore`: `anchor`, except that a batch update landing during
/// a fling moves where the fling comes to rest instead of the content (the
/// Catbird analysis's "velocity-aware restoration: consider scroll velocity
/// when restoring"). The content carries on from where it is, a little
/// faster or slower, and lands where `anchor` would have put the reader's
/// post; when nothing is flinging it is `anchor`.
///
/// What it gives up, in this model: the scroll view keeps a fling's speed
/// through an offset adjustment, so `anchor`'s correction mid-flight is
/// invisible (the posts on screen stay where they were). Retargeting instead
/// shows the change on screen (posts inserted above push the reader's post
/// down by their height in one frame) and takes the rest of the flight to
/// make it up. The drift meter therefore judges its retargeted changes where
/// the fling comes to rest, not frame by frame (`DriftRecord.Excuse.retargetedFling`).
///
/// Only batch updates are retargeted, and only those that keep the reader's
/// post at its measured height (not one that removed it, nor reloadData,
/// which sets every height back to its estimate). The engine then measures
/// the rows between the screen and the reader's post at once, and moves the
/// resting point again when an image's size arrives among them during the
/// flight (`FeedEngine.measureFlightPath`, `imageArrived`), so the post
/// lands where it is held. Heights measured above the reader during a layout pass, width
/// and text size changes and restores are corrected as `anchor` corrects
/// them, in the frame, before anything shows.
public struct VelocityRestoringKeeper: PositionKeeper {
    public static let name = "velocity_restore"
    /// What `anchor` holds: a retargeted change is held where the fling
    /// lands, every other as `anchor` holds it.
    public static let heldCauses = AnchorKeeper.heldCauses
    public init() {}

    private var anchor = AnchorKeeper()

    public var usesPullAnchor: Bool { anchor.usesPullAnchor }

    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
        anchor.batchWillApply(batch, list: list)
    }

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        var outcome = anchor.batchDidApply(batch, list: list)
        // A retarget carries the flight on over rows the reader has seen laid
        // out, aiming where the held post is now. An update that set that
        // post back to its estimate (reloadData sets every row back) leaves
        // the aim on estimated rows, which the flight then measures, and it
        // misses (explore, seed 3: by 914 pt); anchor's correction settles
        // the layout around the post and measures it first. An update that
        // took the reader's post leaves only a survivor below it, which the
        // reader was not looking at: there is no place of theirs to carry,
        // and carrying the survivor would hold it against the reader's new
        // post when a height between the two changes on the way (explore,
        // seed 4: an image, by 172 pt).
        guard !outcome.anchorLost, let held = batch.anchor?.itemID, let index = list.index(of: held),
            list.isMeasured(index)
        else { return outcome }
        outcome.correction = .retargetingFling(outcome.correction)
        return outcome
    }

    public func afterRelayout(anchor captured: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        anchor.afterRelayout(anchor: captured, list: list)
    }
}
