/// Decides when to ask for the next page of the feed. One type per policy;
/// the engine asks it at every layout pass while a next page exists and none
/// is loading.
public protocol PagePrefetchPolicy {
    /// The name scenarios use in `page_prefetch`.
    static var name: String { get }
    init()

    /// Whether to ask for the next page at `moment`.
    func shouldLoadNextPage(at moment: PrefetchMoment) -> Bool
}

/// A page prefetch policy by name: what a scenario's `page_prefetch` names.
/// The built-ins are always known; a program registers others
/// (`PagePrefetch.register(_:)`).
public struct PagePrefetch: RegisteredPart {
    public let name: String
    private let makePolicy: @Sendable () -> any PagePrefetchPolicy

    /// The policy `Policy` implements, named `Policy.name`.
    public init<Policy: PagePrefetchPolicy & SendableMetatype>(_: Policy.Type) {
        name = Policy.name
        makePolicy = { Policy() }
    }

    /// A new policy for one engine.
    public func make() -> any PagePrefetchPolicy { makePolicy() }

    /// The next page once the last row on screen is `load_more_threshold`
    /// rows from the end.
    public static let threshold = PagePrefetch(ThresholdPagePrefetch.self)
    /// The threshold grows with the rows the reader will cross while the
    /// page is on its way.
    public static let velocity = PagePrefetch(VelocityPrefetch.self)

    /// The next page once the last post is on screen: a SwiftUI feed's
    /// `onAppear` on a view after its last row.
    public static let onAppear = PagePrefetch(OnAppearPagePrefetch.self)
    public static let builtIn: [PagePrefetch] = [.threshold, .velocity, .onAppear]
    public static let registry = PartRegistry(builtIn: builtIn)
}
