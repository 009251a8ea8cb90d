import Testing
import FeedEngine

@Suite("Post layout")
struct PostLayoutTests {
    @Test("a post and its media pack without padding between the wide fields")
    func packed() {
        // A feed server holds up to a million posts: every 8 bytes here is 8 MB there.
        #expect(MemoryLayout<Media?>.size == 26)
        #expect(MemoryLayout<Post>.stride == 112)
    }
}
