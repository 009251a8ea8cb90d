import Foundation

/// A fresh, empty folder under the system's temporary directory, removed by `remove()`.
public struct ScratchFolder: Sendable {
    public let url: URL

    public init(prefix: String = "feedsim-cli") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// `relative` inside the folder.
    public func appending(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// Writes `text` to `relative`, creating folders on the way.
    public func write(_ text: String, to relative: String) throws {
        let file = appending(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Names of the entries directly in `relative`, sorted; nil when it does not exist.
    public func entries(in relative: String) -> [String]? {
        (try? FileManager.default.contentsOfDirectory(atPath: appending(relative).path))?.sorted()
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
