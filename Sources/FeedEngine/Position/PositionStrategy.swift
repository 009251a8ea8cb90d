/// How the engine keeps the reader's place when content changes under them.
public enum PositionStrategy: String, Hashable, Sendable, CaseIterable {
    /// Keep contentOffset: whatever is inserted or resized above moves the
    /// content under the reader.
    case none
    /// Keep the same index at the same screen position (scroll to the old
    /// first visible index).
    case indexRestore = "index_restore"
    /// Add the height inserted above the first visible item to contentOffset
    /// (and the height change of cells measured above it).
    case offsetAdjust = "offset_adjust"
    /// Catbird's scroll anchor: the first sufficiently visible post, captured
    /// during a pull or just before the data changes, restored to its
    /// viewport-relative position; stale anchors are replaced, a missing
    /// anchor post falls back to the next surviving one.
    case anchor
    /// TiledView's virtual content space: content grows upwards around a
    /// fixed anchor and contentOffset never changes.
    case virtualSpace = "virtual_space"
}

/// A post's place on screen at one instant.
public struct ScrollAnchor: Hashable, Sendable {
    public var itemID: PostID
    /// The item's index when captured.
    public var index: Int
    /// The item's top in content coordinates when captured.
    public var itemY: Double
    /// contentOffset when captured.
    public var offsetY: Double
    /// Simulated time of the capture, in nanoseconds.
    public var capturedAt: Int64

    /// Where the item's top sat in the viewport: `itemY − offsetY`.
    public var viewportY: Double { itemY - offsetY }

    public init(itemID: PostID, index: Int, itemY: Double, offsetY: Double, capturedAt: Int64) {
        self.itemID = itemID
        self.index = index
        self.itemY = itemY
        self.offsetY = offsetY
        self.capturedAt = capturedAt
    }
}

/// The numbers of Catbird's scroll preservation.
public enum AnchorRules {
    /// A pull past the top by more than this captures the refresh anchor, in points.
    public static let pullCaptureDistance = 20.0
    /// Anchors older than this are stale, in nanoseconds (Catbird: 30 s).
    public static let maximumAge: Int64 = 30_000_000_000
    /// The fraction of an item that must be visible for it to be the anchor (Catbird: 0.3).
    public static let visibilityThreshold = 0.3
}
