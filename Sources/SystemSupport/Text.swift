/// The few string operations FeedSim used from Foundation's full module,
/// which FoundationEssentials leaves out.
extension StringProtocol {
    /// The text without the white space other than line breaks (spaces,
    /// tabs) at either end.
    package func trimmingSpaces() -> String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    /// The text without the white space (spaces, tabs, line breaks) at
    /// either end.
    package func trimmingWhitespace() -> String {
        trimming(\.isWhitespace)
    }

    private func trimming(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = lastIndex(where: { !isTrimmed($0) })!
        return String(self[first...last])
    }
}

/// File paths as text.
package enum FilePath {
    /// `component` inside `folder`: joined by one `/`, whatever slashes
    /// `folder` ends with.
    package static func join(_ folder: String, _ component: String) -> String {
        guard !folder.isEmpty else { return component }
        var folder = Substring(folder)
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder == "/" ? "/" + component : folder + "/" + component
    }
}
