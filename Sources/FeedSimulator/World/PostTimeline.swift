import FeedEngine

/// The feed server's posts, by position from the oldest, without holding
/// them: the synthetic feed writes posts from its seeded generator, so the
/// timeline keeps where the writer stood at the start of every chunk of
/// posts and writes a chunk again, the same posts, when it is read. Posts
/// changed since they were written (new likes, the viewer's like) are kept
/// apart and read first.
///
/// A million-post timeline so takes about 250 checkpoints of a few
/// kilobytes, where an array of its posts took 40 MB (112 MB before posts
/// were packed).
struct PostTimeline {
    /// Posts a checkpoint covers: a chunk written again costs about 4,096
    /// posts' worth of draws, and its posts take 160 KB while read.
    static let chunkSize = 4_096

    /// Where the writer stood before it wrote posts `start ..< start + count`.
    private struct Chunk {
        var start: Int
        var count: Int
        var writer: SyntheticFeed
    }

    /// Ordered by `start`, covering `0 ..< count` without gaps. A chunk never
    /// spans two calls of `append`, so no draw made between them (a like
    /// count touched) falls inside one.
    private var chunks: [Chunk] = []
    /// Posts of an imported feed, oldest first: positions `0 ..< fixed.count`,
    /// held as they are; written posts follow them.
    private let fixed: [Post]
    /// Posts held or written so far.
    private(set) var count: Int
    /// Posts changed since they were written, by position. Only looked up.
    private var changed: [Int: Post] = [:]
    /// Chunks last written (index and posts), most recently written or read
    /// last: a page reads posts in order and a reply's parent is one of the
    /// 64 posts written before it, so two chunks serve almost every read.
    /// The chunks `append` writes are kept too, so a feed of up to three
    /// chunks (12,288 posts) is written once, not again when it is read.
    private var keptChunks: [(index: Int, posts: [Post])] = []
    private static let chunksKept = 3

    /// A timeline holding `fixed` (an imported feed's posts, oldest first)
    /// before any post it writes.
    init(fixed: [Post] = []) {
        self.fixed = fixed
        count = fixed.count
    }

    /// Writes `count` more posts with `writer` and returns them, oldest
    /// first, when `returning` is set (an empty array otherwise).
    /// - Complexity: O(k) for k posts.
    mutating func append(_ count: Int, with writer: inout SyntheticFeed, returning: Bool) -> [Post] {
        var written: [Post] = []
        if returning { written.reserveCapacity(count) }
        var remaining = count
        while remaining > 0 {
            let chunkCount = min(PostTimeline.chunkSize, remaining)
            chunks.append(Chunk(start: self.count, count: chunkCount, writer: writer))
            let posts = writer.nextPosts(chunkCount)
            if returning { written += posts }
            keep(chunk: chunks.count - 1, posts: posts)
            self.count += chunkCount
            remaining -= chunkCount
        }
        return written
    }

    /// The post at `position` (0 is the oldest) as it is now.
    /// - Complexity: O(log c) for c chunks when its chunk was read last;
    ///   O(`chunkSize`) to write its chunk again otherwise.
    mutating func post(at position: Int) -> Post {
        precondition(position >= 0 && position < count, "position \(position) is outside the timeline's \(count) posts")
        if let post = changed[position] { return post }
        if position < fixed.count { return fixed[position] }
        let index = chunkIndex(containing: position)
        return posts(ofChunk: index)[position - chunks[index].start]
    }

    /// Appends to `page` the posts at `positions` as they are now, newest
    /// first, each whose position `includes` accepts: what a page of the
    /// feed reads. The same posts as `post(at:)` at each position, its chunk
    /// found once for all the positions it holds rather than for each, and
    /// read only when one of them is.
    /// - Complexity: O(k) for k positions, plus O(`chunkSize`) to write each
    ///   chunk read again.
    mutating func appendPosts(newestFirst positions: Range<Int>, to page: inout [Post], where includes: (Int) -> Bool) {
        precondition(
            positions.lowerBound >= 0 && positions.upperBound <= count,
            "positions \(positions) are outside the timeline's \(count) posts")
        var position = positions.upperBound - 1
        while position >= max(positions.lowerBound, fixed.count) {
            let index = chunkIndex(containing: position)
            let start = chunks[index].start
            var written: [Post]?
            while position >= max(start, positions.lowerBound) {
                if includes(position) {
                    if let post = changed[position] {
                        page.append(post)
                    } else {
                        if written == nil { written = posts(ofChunk: index) }
                        page.append(written![position - start])
                    }
                }
                position -= 1
            }
        }
        while position >= positions.lowerBound {
            if includes(position) { page.append(changed[position] ?? fixed[position]) }
            position -= 1
        }
    }

    /// Replaces the post at `position` (a like count or the viewer's like changed).
    mutating func change(at position: Int, to post: Post) {
        precondition(position >= 0 && position < count, "position \(position) is outside the timeline's \(count) posts")
        changed[position] = post
    }

    /// - Complexity: O(log c) for c chunks.
    private func chunkIndex(containing position: Int) -> Int {
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunks[middle].start <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The posts of chunk `index`, written again unless it was written or read lately.
    private mutating func posts(ofChunk index: Int) -> [Post] {
        if let last = keptChunks.last, last.index == index { return last.posts }
        if let found = keptChunks.firstIndex(where: { $0.index == index }) {
            let read = keptChunks.remove(at: found)
            keptChunks.append(read)
            return read.posts
        }
        var writer = chunks[index].writer
        let posts = writer.nextPosts(chunks[index].count)
        keep(chunk: index, posts: posts)
        return posts
    }

    /// Keeps chunk `index`'s posts as the most recent, forgetting the
    /// least recent beyond `chunksKept`.
    private mutating func keep(chunk index: Int, posts: [Post]) {
        if keptChunks.count == PostTimeline.chunksKept { keptChunks.removeFirst() }
        keptChunks.append((index, posts))
    }
}
