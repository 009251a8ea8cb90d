/// Sorts requests into the classes the network model knows: the feed's API
/// pages, images, and everything else.
///
/// A pattern matches a URL that contains it (plain text, case-sensitive).
/// Feed patterns are tried first, then image patterns; by default an image
/// is a URL whose path (before any `?`) ends with an image extension. A
/// response whose `content.mimeType` starts with `image/` is an image too.
/// Patterns given for a class replace its defaults.
package struct RequestClassifier: Sendable, Equatable {
    /// The classes, in the order NETWORK.json lists them.
    package static let classNames = ["feed", "image", "other"]
    /// The feed's API pages by default: Bluesky's timeline endpoint.
    package static let defaultFeedPatterns = ["/xrpc/app.bsky.feed.getTimeline"]
    /// Images by default: paths ending with these, in any case (`@jpeg` is
    /// how Bluesky's image CDN names its formats).
    package static let imageEndings = [
        ".jpg", ".jpeg", ".png", ".gif", ".webp", ".heic", ".avif", "@jpeg", "@png", "@webp",
    ]

    /// The feed's patterns.
    package var feed: [String]
    /// The images' patterns; empty for the default, ``imageEndings``.
    package var image: [String]

    /// A classifier with the given patterns, or the defaults.
    package init(feed: [String] = defaultFeedPatterns, image: [String] = []) {
        self.feed = feed
        self.image = image
    }

    /// A classifier from `--class NAME=PATTERN` options; `nil` and a message
    /// when one names no class the model knows or has no pattern.
    package static func parse(_ options: [String]) -> Result<RequestClassifier, ClassOptionError> {
        var feed: [String] = []
        var image: [String] = []
        for option in options {
            let parts = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[1].isEmpty else {
                return .failure(ClassOptionError(option: option, reason: "expected NAME=PATTERN"))
            }
            switch parts[0] {
            case "feed": feed.append(String(parts[1]))
            case "image": image.append(String(parts[1]))
            default:
                return .failure(ClassOptionError(option: option, reason: "expected the class `feed` or `image`"))
            }
        }
        return .success(
            RequestClassifier(
                feed: feed.isEmpty ? defaultFeedPatterns : feed, image: image))
    }

    /// The class of a request to `url` whose response has `mimeType`.
    package func classify(url: String, mimeType: String?) -> String {
        if feed.contains(where: { url.contains($0) }) { return "feed" }
        if image.contains(where: { url.contains($0) }) { return "image" }
        let path = (url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url).lowercased()
        if image.isEmpty && Self.imageEndings.contains(where: { path.hasSuffix($0) }) { return "image" }
        if let mimeType, mimeType.lowercased().hasPrefix("image/") { return "image" }
        return "other"
    }
}

/// A `--class` option that cannot be used.
package struct ClassOptionError: Error, Equatable {
    /// The option as given.
    package var option: String
    /// What was expected.
    package var reason: String
}
