import Determinism
import Testing

@testable import FeedEngine

@Suite("PostViewModel")
struct PostViewModelTests {
    /// The view model's strings as string interpolation writes them.
    private static func interpolated(_ item: FeedItem) -> (author: String, likes: String, label: String) {
        let post = item.post
        let likes =
            post.likeCount >= 1_000
            ? "\(post.likeCount / 1_000).\((post.likeCount % 1_000) / 100)K likes"
            : "\(post.likeCount) likes"
        var label = "Post by author \(post.authorID), \(post.textLength) characters"
        if let media = post.media { label += ", \(media.kind.rawValue) \(media.pixelWidth) by \(media.pixelHeight)" }
        label += post.isLikedByViewer ? ", liked by you" : ""
        return ("@author\(post.authorID) · \(item.role.rawValue)", likes, label)
    }

    @Test("the strings are those interpolation writes, for every role, media kind and extreme count")
    func stringsMatchInterpolation() {
        var random = Xoshiro256StarStar(seed: 7)
        var items: [FeedItem] = []
        let likeCounts = [
            0, 9, 999, 1_000, 1_099, 1_100, 999_999, 1_000_000, -1, -1_500, Int(Int32.max), Int(Int32.min),
        ]
        for (index, likes) in likeCounts.enumerated() {
            let media =
                index % 2 == 0
                ? nil
                : Media(
                    kind: Media.Kind.allCases[index % Media.Kind.allCases.count],
                    pixelWidth: index == 1 ? Post.maximumMediaPixels : 0, pixelHeight: 1_080, encodedBytes: 1)
            let post = Post(
                id: PostID(index), authorID: index == 3 ? UInt32.max : UInt32(index),
                textLength: index == 5 ? Post.maximumTextLength : index,
                media: media, likeCount: likes, isLikedByViewer: index % 3 == 0)
            items.append(FeedItem(post: post, role: ThreadRole.allCases[index % ThreadRole.allCases.count]))
        }
        for index in 0..<500 {
            let media =
                random.next(below: 2) == 0
                ? nil
                : Media(
                    kind: Media.Kind.allCases[Int(random.next(below: 3))],
                    pixelWidth: Int(random.next(below: 5_000)), pixelHeight: Int(random.next(below: 5_000)),
                    encodedBytes: 1)
            let post = Post(
                id: PostID(1_000 + index), authorID: UInt32(truncatingIfNeeded: random.next()),
                textLength: Int(random.next(below: 3_000)),
                media: media, likeCount: Int(random.next(below: 3_000_000)) - 1_000,
                isLikedByViewer: random.next(below: 2) == 0)
            items.append(FeedItem(post: post, role: ThreadRole.allCases[Int(random.next(below: 4))]))
        }
        for item in items {
            let model = PostViewModel(item: item)
            let expected = Self.interpolated(item)
            #expect(model.authorLine == expected.author)
            #expect(model.likeLabel == expected.likes)
            #expect(model.accessibilityLabel == expected.label)
            #expect(
                model.cost == 64 + expected.author.utf8.count + expected.likes.utf8.count + expected.label.utf8.count)
        }
    }
}
