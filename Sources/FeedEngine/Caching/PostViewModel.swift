/// What a post cell displays, prepared once per post and content version:
/// the strings a real cell would format (author line, counts, an
/// accessibility label).
package final class PostViewModel {
    package let postID: PostID
    /// The post's content version the view model was built from.
    package let contentVersion: Int
    package let authorLine: String
    package let likeLabel: String
    package let accessibilityLabel: String

    /// Builds the view model for `item`.
    ///
    /// Each string is written byte by byte into a buffer on the stack and
    /// made a `String` once: one allocation a string (none for a short
    /// one), where interpolation grew its storage as it went.
    package init(item: FeedItem) {
        let post = item.post
        postID = post.id
        contentVersion = PostViewModel.contentVersion(of: post)
        authorLine = TextBuffer.write { text in
            text.append("@author")
            text.append(post.authorID)
            text.append(" · ")
            text.append(item.role.rawValue)
        }
        let likes = post.likeCount
        likeLabel = TextBuffer.write { text in
            if likes >= 1_000 {
                text.append(likes / 1_000)
                text.append(".")
                text.append((likes % 1_000) / 100)
                text.append("K likes")
            } else {
                text.append(likes)
                text.append(" likes")
            }
        }
        accessibilityLabel = TextBuffer.write { text in
            text.append("Post by author ")
            text.append(post.authorID)
            text.append(", ")
            text.append(post.textLength)
            text.append(" characters")
            if let media = post.media {
                text.append(", ")
                text.append(media.kind.rawValue)
                text.append(" ")
                text.append(media.pixelWidth)
                text.append(" by ")
                text.append(media.pixelHeight)
            }
            if post.isLikedByViewer { text.append(", liked by you") }
        }
    }

    /// Approximate bytes held: what the cache's cost limit counts.
    package var cost: Int {
        64 + authorLine.utf8.count + likeLabel.utf8.count + accessibilityLabel.utf8.count
    }

    /// Changes whenever what the cell shows changes.
    package static func contentVersion(of post: Post) -> Int {
        post.likeCount &* 2 &+ (post.isLikedByViewer ? 1 : 0)
    }
}

/// UTF-8 written into a fixed buffer on the stack, for the view model's
/// short strings: literals, enum raw values and decimal integers.
private struct TextBuffer {
    /// The longest string a view model writes is under 160 bytes.
    static let capacity = 256

    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private var count = 0

    /// The string `body` writes.
    static func write(_ body: (inout TextBuffer) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { bytes in
            var text = TextBuffer(bytes: bytes)
            body(&text)
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<text.count]), as: UTF8.self)
        }
    }

    private init(bytes: UnsafeMutableBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { append(contentsOf: $0) }
    }

    /// Writes `value` in decimal, as `"\(value)"` does.
    mutating func append(_ value: some BinaryInteger) {
        if value < 0 { append("-") }
        var magnitude = UInt64(value.magnitude)
        var digits = 1
        var rest = magnitude / 10
        while rest != 0 {
            digits += 1
            rest /= 10
        }
        precondition(count + digits <= bytes.count, "a view model's text is longer than \(TextBuffer.capacity) bytes")
        // Last digit first, from the end of the number's room.
        var position = count + digits
        repeat {
            position -= 1
            bytes[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude != 0
        count += digits
    }

    private mutating func append(contentsOf utf8: UnsafeBufferPointer<UInt8>) {
        precondition(
            count + utf8.count <= bytes.count, "a view model's text is longer than \(TextBuffer.capacity) bytes")
        _ = UnsafeMutableBufferPointer(rebasing: bytes[count..<count + utf8.count]).initialize(fromContentsOf: utf8)
        count += utf8.count
    }
}
