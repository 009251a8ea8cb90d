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
    /// How far below the top the content may be, in points, for a refresh
    /// that lands there to find the reader still at their pull, and so to
    /// restore the pull's anchor: Catbird's verification threshold, under
    /// which the reader sees no movement.
    public static let pullPlaceTolerance = 1.0
}
