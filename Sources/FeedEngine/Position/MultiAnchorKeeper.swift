/// `multi_anchor`: several anchors instead of one (the Catbird analysis's
/// "multi-anchor system: track multiple anchor points for better
/// accuracy"). Just before a change it notes where the reader's post and
/// the four posts below it sit on screen. After it, the reader's post, if it
/// survived, is put back where it was, as `anchor` does. If it is gone,
/// each surviving anchor says where contentOffset must be to put it back,
/// and the offset most of them agree on (within 1 pt) wins, the topmost on
/// a tie: where `anchor` falls back on the first survivor below, which may
/// itself have moved (a row the thread tuner regrouped), two that agree
/// outvote it.
///
/// A first version let the majority overrule the reader's own post too;
/// `feedsim explore` found it moving the reader by 1,662 pt when new posts
/// regrouped the threads below them (shrunk to 2 steps), so the reader's
/// post now always wins while it survives.
public struct MultiAnchorKeeper: PositionKeeper {
    public static let name = "multi_anchor"
    /// What `anchor` holds: while the reader's post survives it is put back
    /// exactly as `anchor` puts it back.
    public static let heldCauses = AnchorKeeper.heldCauses
    public init() {}

    /// How many posts, the reader's first, are anchors: with the reader's
    /// post gone, four vote, so one that moved cannot carry the others.
    public static let anchorCount = 5
    /// Offsets within this many points agree.
    public static let agreement = 1.0

    /// The anchors noted before the batch: each post and its screen y.
    private var anchors: [(id: PostID, viewportY: Double)] = []

    public var usesPullAnchor: Bool { true }

    public mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
        anchors.removeAll(keepingCapacity: true)
        guard let anchor = batch.anchor else { return }
        anchors.append((anchor.itemID, anchor.viewportY))
        var index = anchor.index + 1
        while anchors.count < MultiAnchorKeeper.anchorCount, index < list.items.count {
            anchors.append((list.items[index].id, list.minY(of: index) - batch.offset))
            index += 1
        }
    }

    public func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        // Where each surviving anchor puts contentOffset, top first.
        var wanted: [(id: PostID, offset: Double)] = []
        for anchor in anchors {
            if let index = list.index(of: anchor.id) {
                wanted.append((anchor.id, list.minY(of: index) - anchor.viewportY))
            }
        }
        guard let first = wanted.first else { return PlaceOutcome(.keepOffset, anchorLost: batch.anchor != nil) }
        // The reader's own post, when it survived, is where they look: it
        // is put back whatever the others say.
        if first.id == batch.anchor?.itemID { return PlaceOutcome(.moveOffset(to: first.offset)) }
        var best = first
        var bestVotes = 0
        for candidate in wanted {
            let votes = wanted.count { abs($0.offset - candidate.offset) <= MultiAnchorKeeper.agreement }
            if votes > bestVotes {
                best = candidate
                bestVotes = votes
            }
        }
        let anchorLost = batch.anchor.map { list.index(of: $0.itemID) == nil } ?? false
        return PlaceOutcome(
            .moveOffset(to: best.offset), settleAround: best.id == batch.anchor?.itemID ? nil : best.id,
            anchorLost: anchorLost)
    }

    public func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        guard let index = list.index(of: anchor.itemID) else { return .keepOffset }
        return .moveOffset(to: list.minY(of: index) - anchor.viewportY)
    }
}
