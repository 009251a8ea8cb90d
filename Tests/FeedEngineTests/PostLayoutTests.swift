import FeedEngine
import Testing

@Suite("Post layout")
struct PostLayoutTests {
    @Test("a post is stored in 40 bytes and a display row in the same 40")
    func packed() {
        // A feed of a million posts is held by the server, the engine's feed
        // and its rows: every 8 bytes here is 8 MB in each.
        #expect(MemoryLayout<Post>.stride == 40)
        #expect(MemoryLayout<FeedItem>.stride == 40)
    }

    /// Posts at the edges of every stored range, and in the middle.
    static let edgeCases: [Post] = {
        let media: [Media?] = [
            nil,
            Media(kind: .single, pixelWidth: 0, pixelHeight: 0, encodedBytes: 0, sizeKnownAtLayout: false),
            Media(kind: .carousel, pixelWidth: 1080, pixelHeight: 1350, encodedBytes: 364_500),
            Media(
                kind: .video, pixelWidth: Post.maximumMediaPixels, pixelHeight: Post.maximumMediaPixels,
                encodedBytes: Post.maximumMediaBytes),
        ]
        var posts: [Post] = []
        for (index, media) in media.enumerated() {
            let low = index % 2 == 0
            posts.append(
                Post(
                    id: low ? 0 : Post.idLimit - 1,
                    authorID: low ? 0 : UInt32.max,
                    textLength: low ? 0 : Post.maximumTextLength,
                    media: media,
                    likeCount: low ? Int(Int32.min) : Int(Int32.max),
                    isLikedByViewer: !low,
                    parentID: low ? nil : Post.idLimit - 1,
                    rootID: low ? 0 : Post.idLimit - 2,
                    repostedBy: low ? UInt32.max - 1 : nil,
                    fixedHeightPt: low ? 0 : Post.maximumFixedHeightPt))
        }
        posts.append(
            Post(
                id: 1_234_567, authorID: 4_999, textLength: 300,
                media: Media(kind: .single, pixelWidth: 1080, pixelHeight: 566, encodedBytes: 152_820),
                likeCount: 999, parentID: 1_234_500, rootID: nil, repostedBy: 0, fixedHeightPt: 120.015625))
        return posts
    }()

    @Test("every field of a post reads back what was stored, at the edges of its range", arguments: edgeCases.indices)
    func roundTrip(_ index: Int) {
        let post = Self.edgeCases[index]
        let low = index % 2 == 0 && index < 4
        let high = index % 2 == 1
        if low {
            #expect(post.id == 0)
            #expect(post.authorID == 0)
            #expect(post.textLength == 0)
            #expect(post.likeCount == Int(Int32.min))
            #expect(!post.isLikedByViewer)
            #expect(post.parentID == nil)
            #expect(post.rootID == 0)
            #expect(post.repostedBy == UInt32.max - 1)
            #expect(post.fixedHeightPt == 0)
        } else if high {
            #expect(post.id == Post.idLimit - 1)
            #expect(post.authorID == UInt32.max)
            #expect(post.textLength == Post.maximumTextLength)
            #expect(post.likeCount == Int(Int32.max))
            #expect(post.isLikedByViewer)
            #expect(post.parentID == Post.idLimit - 1)
            #expect(post.rootID == Post.idLimit - 2)
            #expect(post.repostedBy == nil)
            #expect(post.fixedHeightPt == Post.maximumFixedHeightPt)
        } else {
            #expect(post.id == 1_234_567 && post.authorID == 4_999 && post.textLength == 300 && post.likeCount == 999)
            #expect(post.parentID == 1_234_500 && post.rootID == nil && post.repostedBy == 0)
            #expect(post.fixedHeightPt == 120.015625)
        }
        let expectedMedia: Media? =
            switch index {
            case 0: nil
            case 1: Media(kind: .single, pixelWidth: 0, pixelHeight: 0, encodedBytes: 0, sizeKnownAtLayout: false)
            case 2: Media(kind: .carousel, pixelWidth: 1080, pixelHeight: 1350, encodedBytes: 364_500)
            case 3:
                Media(
                    kind: .video, pixelWidth: Post.maximumMediaPixels, pixelHeight: Post.maximumMediaPixels,
                    encodedBytes: Post.maximumMediaBytes)
            default: Media(kind: .single, pixelWidth: 1080, pixelHeight: 566, encodedBytes: 152_820)
            }
        #expect(post.media == expectedMedia)
    }

    @Test("setting a field changes that field alone", arguments: edgeCases.indices)
    func fieldsAreIndependent(_ index: Int) {
        let original = Self.edgeCases[index]
        var post = original
        post.isLikedByViewer.toggle()
        #expect(post.isLikedByViewer != original.isLikedByViewer)
        #expect(post.media == original.media && post.likeCount == original.likeCount)
        post.isLikedByViewer.toggle()
        post.media = nil
        #expect(post.media == nil && post.isLikedByViewer == original.isLikedByViewer)
        post.media = original.media
        #expect(post == original)
        post.parentID = nil
        post.rootID = nil
        post.repostedBy = nil
        post.fixedHeightPt = nil
        #expect(post.parentID == nil && post.rootID == nil && post.repostedBy == nil && post.fixedHeightPt == nil)
        #expect(post.id == original.id && post.authorID == original.authorID && post.textLength == original.textLength)
    }

    @Test("a fixed height is stored snapped to 1/64 pt, as layout snaps it")
    func fixedHeightSnaps() {
        for height in [1.0, 99.99, 100.001, 123.456_789, 10_000] {
            let post = Post(id: 1, authorID: 1, textLength: 0, fixedHeightPt: height)
            #expect(post.fixedHeightPt == HeightIndex.snap(height), "height \(height)")
        }
    }

    @Test("a row's role and incomplete flag round-trip beside its post", arguments: ThreadRole.allCases)
    func rowPlacement(_ role: ThreadRole) {
        let post = Self.edgeCases[3]
        for incomplete in [false, true] {
            var item = FeedItem(post: post, role: role, isThreadIncomplete: incomplete)
            #expect(item.post == post && item.role == role && item.isThreadIncomplete == incomplete)
            item.isThreadIncomplete.toggle()
            #expect(item.role == role && item.isThreadIncomplete == !incomplete)
        }
    }

    // A value outside a stored range stops the program where it is set,
    // rather than being cut to fit and read back as another value.
    @Test("an id, parent or root at or past the 32-bit limit traps")
    func idsPastTheLimitTrap() async {
        await #expect(processExitsWith: .failure) { _ = Post(id: Post.idLimit, authorID: 1, textLength: 0) }
        await #expect(processExitsWith: .failure) {
            _ = Post(id: 1, authorID: 1, textLength: 0, parentID: Post.idLimit)
        }
        await #expect(processExitsWith: .failure) { _ = Post(id: 1, authorID: 1, textLength: 0, rootID: 1 << 40) }
        await #expect(processExitsWith: .failure) {
            _ = Post(id: 1, authorID: 1, textLength: 0, repostedBy: UInt32.max)
        }
    }

    @Test("text, likes, a fixed height and media past their stored ranges trap")
    func contentPastItsRangeTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Post(id: 1, authorID: 1, textLength: Post.maximumTextLength + 1)
        }
        await #expect(processExitsWith: .failure) { _ = Post(id: 1, authorID: 1, textLength: -1) }
        await #expect(processExitsWith: .failure) {
            _ = Post(id: 1, authorID: 1, textLength: 0, likeCount: Int(Int32.max) + 1)
        }
        await #expect(processExitsWith: .failure) {
            _ = Post(id: 1, authorID: 1, textLength: 0, fixedHeightPt: Post.maximumFixedHeightPt + 1)
        }
        await #expect(processExitsWith: .failure) {
            _ = Post(
                id: 1, authorID: 1, textLength: 0,
                media: Media(kind: .single, pixelWidth: Post.maximumMediaPixels + 1, pixelHeight: 1, encodedBytes: 1))
        }
        await #expect(processExitsWith: .failure) {
            _ = Post(
                id: 1, authorID: 1, textLength: 0,
                media: Media(kind: .video, pixelWidth: 1, pixelHeight: 1, encodedBytes: Post.maximumMediaBytes + 1))
        }
    }
}
