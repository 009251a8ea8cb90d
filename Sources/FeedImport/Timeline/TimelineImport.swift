import CSVCodec
import FeedScenario
import FoundationEssentials
import Glibc
import SystemSupport

/// `feedsim import timeline`'s work: a capture read into an `ImportedFeed`.
package enum TimelineImport {
    /// The feed in `path`: a getTimeline page (`.json`), a folder of them
    /// (every `.json` file, in the byte order of their names, one page
    /// each), or FeedSim's post lines (`.jsonl`). Files are named in
    /// problems as `path` and the name within the folder.
    package static func read(path: String, salt: ImportSalt) throws(TimelineProblem) -> ImportedFeed {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw TimelineProblem(
                file: path, place: .wholeFile, problem: "expected a file or folder, found nothing there")
        }
        if isFolder { return try readPages(in: path, salt: salt) }
        let data = try contents(of: path)
        if path.hasSuffix(".jsonl") {
            guard let text = String(data: data, encoding: .utf8) else {
                throw TimelineProblem(file: path, place: .wholeFile, problem: "expected UTF-8 text, found other bytes")
            }
            let read = try TimelinePostLines(salt: salt).read(text, file: path)
            return ImportedFeed(source: "json-lines", pageSizes: read.pageSizes, posts: read.posts)
        }
        var reader = TimelinePageReader(salt: salt)
        let posts = try reader.posts(ofPage: try JSONNode.parse(data, file: path))
        return ImportedFeed(
            source: "getTimeline", pageSizes: [posts.count], posts: posts, unknownReasonTypes: reader.unknownReasons)
    }

    private static func readPages(in folder: String, salt: ImportSalt) throws(TimelineProblem) -> ImportedFeed {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
                .filter { $0.hasSuffix(".json") }
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        } catch {
            throw TimelineProblem(file: folder, place: .wholeFile, problem: "expected a readable folder")
        }
        guard !names.isEmpty else {
            throw TimelineProblem(
                file: folder, place: .wholeFile, problem: "expected getTimeline pages (.json files), found none")
        }
        var reader = TimelinePageReader(salt: salt)
        var posts: [ImportedPost] = []
        var pageSizes: [Int] = []
        for name in names {
            let file = FilePath.join(folder, name)
            let page = try reader.posts(ofPage: try JSONNode.parse(try contents(of: file), file: file))
            posts += page
            pageSizes.append(page.count)
        }
        return ImportedFeed(
            source: "getTimeline", pageSizes: pageSizes, posts: posts, unknownReasonTypes: reader.unknownReasons)
    }

    private static func contents(of file: String) throws(TimelineProblem) -> Data {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw TimelineProblem(file: file, place: .wholeFile, problem: "expected a readable file")
        }
        return data
    }

    /// What the command prints: posts and pages, embeds by kind, the share
    /// of media whose size is known at layout, and every unknown type.
    package static func summary(of feed: ImportedFeed) -> String {
        let pages = feed.pageSizes.map(String.init).joined(separator: ", ")
        var lines = ["posts: \(feed.posts.count) in \(feed.pageSizes.count) pages (\(pages))"]
        let counts = EmbedKind.allCases.map { "\($0.rawValue) \(feed.embeds[$0.rawValue] ?? 0)" }
        lines.append("embeds: " + counts.joined(separator: ", "))
        let share = feed.mediaItems == 0 ? 0 : 100 * Double(feed.mediaSizeKnown) / Double(feed.mediaItems)
        lines.append(
            "media: \(feed.mediaItems) items, size known at layout for \(feed.mediaSizeKnown) "
                + "(\(ReportNumber.fixed(share, 1))%)")
        lines.append(
            "replies: \(feed.posts.filter { $0.parent != nil }.count), "
                + "reposts: \(feed.posts.filter { $0.repostedBy != nil }.count)")
        for (type, count) in feed.unknownEmbedTypes.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "unknown embed type \(type): \(count) (counted in the file; the post is laid out as text only)")
        }
        for (type, count) in feed.unknownReasonTypes.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "unknown reason type \(type): \(count) (counted in the file; the post is kept as an ordinary post)")
        }
        return lines.joined(separator: "\n")
    }
}
