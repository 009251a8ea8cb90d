/// The work an engine call did, as counts. The engine never times itself: a
/// device cost profile turns these counts into main-thread time.
public struct WorkCounters: Equatable, Hashable, Sendable {
    /// Cells configured with a post's content (every time a cell becomes visible).
    public var cellsConfigured: Int = 0
    /// Self-sizing measurements (a cell laid out to find its height).
    public var cellsMeasured: Int = 0
    /// Items placed by a layout pass that touches every item (load, reload).
    public var itemsLaidOut: Int = 0
    /// Height updates written into the height index.
    public var heightUpdates: Int = 0
    /// Offset or index queries answered by the height index.
    public var offsetQueries: Int = 0
    /// Elements compared by a diff.
    public var diffElements: Int = 0
    /// Inserts, deletes, moves and updates applied to the list.
    public var changesApplied: Int = 0
    /// View models built (cache misses).
    public var viewModelsCreated: Int = 0
    /// Pixels of images decoded on the main thread.
    public var mainThreadDecodedPixels: Int = 0

    public init() {}

    /// Whether no work at all was done.
    public var isZero: Bool { self == WorkCounters() }

    /// Adds `other`'s counts to these.
    public static func += (lhs: inout WorkCounters, rhs: WorkCounters) {
        lhs.cellsConfigured += rhs.cellsConfigured
        lhs.cellsMeasured += rhs.cellsMeasured
        lhs.itemsLaidOut += rhs.itemsLaidOut
        lhs.heightUpdates += rhs.heightUpdates
        lhs.offsetQueries += rhs.offsetQueries
        lhs.diffElements += rhs.diffElements
        lhs.changesApplied += rhs.changesApplied
        lhs.viewModelsCreated += rhs.viewModelsCreated
        lhs.mainThreadDecodedPixels += rhs.mainThreadDecodedPixels
    }
}
