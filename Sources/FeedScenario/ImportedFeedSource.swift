import FoundationEssentials

/// A feed imported with `feedsim import timeline` that a scenario names
/// (`"feed": {"from": "FEED.json"}`): the server serves its posts instead
/// of synthetic ones.
package struct ImportedFeedSource: Sendable, Equatable {
    /// The path as the scenario wrote it, relative to the scenario file.
    package var path: String
    /// Whether a `post_count` above the capture's repeats its posts (`"repeat": true`).
    package var repeats: Bool
    /// Whether pages are served as the capture paged them: the scenario
    /// sets no `page_size`.
    package var pagedAsCaptured: Bool
    /// The file's path as read (the scenario's folder joined with `path`).
    package var resolvedPath: String?
    /// The feed, once the loader has read it.
    package var feed: ImportedFeed?

    package init(path: String, repeats: Bool, pagedAsCaptured: Bool) {
        self.path = path
        self.repeats = repeats
        self.pagedAsCaptured = pagedAsCaptured
    }
}

extension ScenarioLoader {
    /// `scenario` with the feed its `feed.from` names read, from beside
    /// `file`: refused when the file is not a FEED.json, or when the
    /// scenario asks for more posts than it holds without `"repeat": true`.
    static func readImportedFeed(_ scenario: Scenario, file: String) throws(ScenarioError) -> Scenario {
        guard var source = scenario.feed.imported, source.feed == nil else { return scenario }
        let (feed, url) = try importedFeed(source.path, beside: file, path: "$.feed.from")
        let feedFile = url.relativePath
        guard scenario.feed.postCount <= feed.posts.count || source.repeats else {
            throw ScenarioError(
                file: file, path: "$.feed.post_count",
                expected: "expected at most the \(feed.posts.count) posts of \(feedFile), or \"repeat\": true to "
                    + "serve them again, found \(scenario.feed.postCount)")
        }
        var loaded = scenario
        source.resolvedPath = url.standardizedFileURL.path
        source.feed = feed
        loaded.feed.imported = source
        if source.pagedAsCaptured { loaded.feed.pageSize = feed.pageSizes.max() ?? 0 }
        return loaded
    }

    /// The FEED.json at `from`, relative to `file`'s folder unless absolute,
    /// and where it was read: a file that is missing is `file`'s problem (at
    /// `path`), one that is malformed is the feed file's.
    package static func importedFeed(
        _ from: String, beside file: String, path: String
    ) throws(ScenarioError) -> (ImportedFeed, URL) {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        let url = from.hasPrefix("/") ? URL(fileURLWithPath: from) : folder.appendingPathComponent(from)
        let feedFile = url.relativePath
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ScenarioError(
                file: file, path: path,
                expected: "expected a FEED.json written by `feedsim import timeline`, "
                    + "found no readable file at \(feedFile)")
        }
        let feed: ImportedFeed
        do {
            feed = try JSONDecoder().decode(ImportedFeed.self, from: data)
        } catch {
            throw scenarioError(file: feedFile, from: error)
        }
        guard feed.format == ImportedFeed.formatName, feed.version == ImportedFeed.currentVersion,
            !feed.posts.isEmpty
        else {
            throw ScenarioError(
                file: feedFile, path: "$",
                expected: "expected a FEED.json of version \(ImportedFeed.currentVersion) holding posts, "
                    + "found format \(feed.format) version \(feed.version) with \(feed.posts.count) posts")
        }
        return (feed, url)
    }
}
