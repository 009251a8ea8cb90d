/// Which row bodies a SwiftUI feed runs again when its observed model
/// changes. Sources, with times: docs/swiftui-hosts.md, "Body runs for
/// observed state".
///
/// With Observation (`@Observable`), SwiftUI records which properties of
/// which instances a body reads and re-runs the body only when one of them
/// changes (WWDC23 session 10149, 2:26–4:05); views off screen are not
/// updated (WWDC26 session 321, 16:59). A collection view configures only
/// the cells whose items changed, so it has no such setting.
package enum RowObservation: String, Sendable, CaseIterable {
    /// Each row reads only its own post (a value passed to it, or a small
    /// observable model of its own): a change runs the bodies of the rows
    /// whose posts changed, as a collection view reconfigures their cells.
    case perRow = "per_row"
    /// Each row reads the feed model's whole collection of posts (a helper
    /// such as `model.isLiked(post)` over a shared array, or an
    /// `ObservableObject` feed model, whose every published change reaches
    /// every observing view): any change to the feed runs the body of every
    /// row on screen (WWDC25 session 306, 27:40–30:04; Apple's "Migrating
    /// from the Observable Object protocol to the Observable macro").
    case wholeFeed = "whole_feed"
}
