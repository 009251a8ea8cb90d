/// `on_appear`: the next page once the last post is on screen, as a SwiftUI
/// feed asks for it from the `onAppear` of a view placed after its last row
/// (Apple's own pattern in "Dive into lazy stacks and scrolling with
/// SwiftUI", WWDC26 session 321, 15:23–15:41). `onAppear` runs when a view
/// is placed on screen, not when a lazy stack prefetches it (15:07–15:21),
/// so nothing is asked for ahead of the end, however fast the reader goes.
public struct OnAppearPagePrefetch: PagePrefetchPolicy {
    public static let name = "on_appear"
    public init() {}

    public func shouldLoadNextPage(at moment: PrefetchMoment) -> Bool {
        moment.lastVisible >= moment.itemCount - 1
    }
}
