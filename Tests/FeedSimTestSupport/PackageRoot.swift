import Foundation

/// The package's root folder, found from this file's location: tests read
/// the bundled scenarios, devices, fixtures and docs from it.
public enum PackageRoot {
    public static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FeedSimTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `relative` under the package's root.
    public static func appending(_ relative: String, isDirectory: Bool = false) -> URL {
        url.appendingPathComponent(relative, isDirectory: isDirectory)
    }
}
