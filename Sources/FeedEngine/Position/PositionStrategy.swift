/// A way of keeping the reader's place, by name: what a scenario's
/// `position_strategy` names and what makes the engine's `PositionKeeper`.
///
/// The built-in strategies are always known; others are registered by
/// whoever embeds the engine (`PositionStrategy.register(_:)`), and a
/// scenario can then name them like the built-ins.
public struct PositionStrategy: RegisteredPart {
    /// The name scenarios and reports use.
    public let name: String
    /// The changes the strategy promises to hold the reader through
    /// (`PositionKeeper.heldCauses`).
    public let heldCauses: Set<ChangeCause>
    /// The hosts the strategy can exist in (`PositionKeeper.hosts`).
    public let hosts: [FeedHost]
    /// Whether a refresh that lands while the reader is still at the pull
    /// restores the anchor captured during the pull
    /// (`PositionKeeper.usesPullAnchor`).
    public let usesPullAnchor: Bool
    private let makeKeeper: @Sendable () -> any PositionKeeper

    /// The strategy that `Keeper` implements, named `Keeper.name`.
    public init<Keeper: PositionKeeper & SendableMetatype>(_: Keeper.Type) {
        name = Keeper.name
        heldCauses = Keeper.heldCauses
        hosts = Keeper.hosts
        usesPullAnchor = Keeper().usesPullAnchor
        makeKeeper = { Keeper() }
    }

    /// The changes the strategy holds the reader through, in `ChangeCause` order.
    public var heldCausesInOrder: [ChangeCause] { ChangeCause.allCases.filter(heldCauses.contains) }

    /// A new keeper for one engine.
    public func makePositionKeeper() -> any PositionKeeper { makeKeeper() }

    /// Keep contentOffset: whatever is inserted or resized above moves the
    /// content under the reader.
    public static let none = PositionStrategy(OffsetKeepingKeeper.self)
    /// Keep the same index at the same screen position.
    public static let indexRestore = PositionStrategy(IndexRestoringKeeper.self)
    /// Add the height inserted above the first visible item to contentOffset,
    /// less the height removed above it.
    public static let offsetAdjust = PositionStrategy(OffsetAdjustingKeeper.self)
    /// Catbird's scroll anchor.
    public static let anchor = PositionStrategy(AnchorKeeper.self)
    /// TiledView's virtual content space.
    public static let virtualSpace = PositionStrategy(VirtualSpaceKeeper.self)

    /// Several anchors; the offset most of them agree on.
    public static let multiAnchor = PositionStrategy(MultiAnchorKeeper.self)

    /// `anchor`, moving a fling's resting point instead of the content.
    public static let velocityRestore = PositionStrategy(VelocityRestoringKeeper.self)

    /// `anchor`, holding a post whose height is final.
    public static let contentAnchor = PositionStrategy(ContentAnchorKeeper.self)

    /// SwiftUI's default in a lazy stack or a list: no anchoring of data
    /// changes; rows measured for the first time above the screen are
    /// absorbed into the offset.
    public static let swiftUIDefault = PositionStrategy(SwiftUIDefaultKeeper.self)

    /// SwiftUI's `scrollPosition(id:)` with `scrollTargetLayout()`: the
    /// top-most row keeps its place through data changes.
    public static let scrollPositionID = PositionStrategy(ScrollPositionKeeper.self)

    /// SwiftUI's default with `.defaultScrollAnchor(.bottom)`: at the end of
    /// the feed, data changes keep the distance from the content's end.
    public static let defaultAnchorBottom = PositionStrategy(BottomAnchorKeeper.self)

    /// The strategies every engine knows for the collection view, in the
    /// order reports list them: what explore runs unless told otherwise.
    public static let builtIn: [PositionStrategy] = [
        .none, .indexRestore, .offsetAdjust, .anchor, .virtualSpace, .multiAnchor, .velocityRestore, .contentAnchor,
    ]

    /// The strategies of the SwiftUI hosts (`FeedHost.lazyVStack`, `.list`).
    public static let swiftUI: [PositionStrategy] = [.swiftUIDefault, .scrollPositionID, .defaultAnchorBottom]

    /// The built-ins of every host and the strategies registered by whoever
    /// embeds the engine (`register(_:)`, `known`, `named(_:)`).
    public static let registry = PartRegistry(builtIn: builtIn + swiftUI)
}

extension PositionStrategy: CaseIterable {
    /// The built-in strategies.
    public static var allCases: [PositionStrategy] { builtIn }
}
