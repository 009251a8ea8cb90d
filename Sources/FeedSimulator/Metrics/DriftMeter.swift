import FeedEngine

/// Measures position drift: for each change the user did not make, the
/// anchor item's screen y after the change is committed minus before.
///
/// The anchor is chosen here, not by the engine under test: the first item
/// at least 30% visible in the readable part of the viewport (Catbird's
/// visibility threshold), so every strategy is measured against the same rule.
struct DriftMeter {
    /// Changes of at least this many points count as drift events (Catbird's
    /// verification threshold).
    static let eventThreshold = 1.0

    struct Capture {
        var itemID: PostID
        var screenY: Double
        /// Whether the item was on screen in the last frame: the reader saw it.
        var wasDisplayed: Bool
    }

    private(set) var records: [DriftRecord] = []

    /// The anchor now, if anything is on screen.
    static func capture(list: FeedList, contentOffset: Double, viewportHeight: Double, insetTop: Double, insetBottom: Double) -> Capture? {
        let top = contentOffset + insetTop
        let bottom = contentOffset + viewportHeight - insetBottom
        let range = list.layout.indices(intersecting: top - list.originY, bottom - list.originY)
        var index = range.lowerBound
        while index < range.upperBound {
            let itemTop = list.originY + list.layout.minY(of: index)
            let height = list.layout.height(of: index)
            let visible = min(itemTop + height, bottom) - max(itemTop, top)
            if height > 0, visible / height >= AnchorRules.visibilityThreshold {
                return Capture(
                    itemID: list.items[index].id, screenY: itemTop - contentOffset,
                    wasDisplayed: list.displayedRange.contains(index))
            }
            index += 1
        }
        return nil
    }

    /// Records the change from `before` to the list as it is now.
    mutating func record(
        _ cause: ChangeCause, at time: SimTime, before: Capture?, list: FeedList, contentOffset: Double
    ) {
        guard let before else { return }
        guard let index = list.index(of: before.itemID) else {
            records.append(DriftRecord(time: time, cause: cause.rawValue, anchorID: before.itemID, beforeY: before.screenY, afterY: nil))
            return
        }
        let afterY = list.originY + list.layout.minY(of: index) - contentOffset
        records.append(DriftRecord(time: time, cause: cause.rawValue, anchorID: before.itemID, beforeY: before.screenY, afterY: afterY))
    }
}
