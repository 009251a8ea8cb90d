import Determinism
import Testing

@testable import FeedEngine

/// One display row as the tuner tests compare it: the post, its role and
/// whether it is marked incomplete.
struct TunedRow: Equatable, Sendable, CustomStringConvertible {
    let id: PostID
    let role: ThreadRole
    let incomplete: Bool

    init(_ id: PostID, _ role: ThreadRole, _ incomplete: Bool = false) {
        self.id = id
        self.role = role
        self.incomplete = incomplete
    }

    init(_ item: FeedItem) {
        self.init(item.id, item.role, item.isThreadIncomplete)
    }

    var description: String { "\(id) \(role)" + (incomplete ? " (incomplete)" : "") }
}

private func standalone(_ id: PostID, by author: UInt32 = 1, repostedBy: UInt32? = nil) -> Post {
    Post(id: id, authorID: author, textLength: 80, repostedBy: repostedBy)
}

private func reply(
    _ id: PostID,
    to parentID: PostID,
    root rootID: PostID?,
    by author: UInt32 = 1,
    repostedBy: UInt32? = nil
) -> Post {
    Post(id: id, authorID: author, textLength: 80, parentID: parentID, rootID: rootID, repostedBy: repostedBy)
}

/// Tunes `feed` with a lookup that knows exactly `known`, and checks the
/// result's invariants.
private func tune(
    _ feed: [Post],
    known: [Post] = [],
    options: FeedTuner.Options = FeedTuner.Options()
) -> FeedTuner.TunedFeed {
    var store: [PostID: Post] = [:]
    for post in known {
        store[post.id] = post
    }
    let tuned = FeedTuner(options: options).tuneWithStats(feed) { [store] id in store[id] }
    tuned._checkInvariants()
    return tuned
}

// One conversation, all by author 1 unless named otherwise:
// 10 ← 20 ← 30 ← 40, and 10 ← 21 (both replies to the root).
private let root10 = standalone(10)
private let reply20 = reply(20, to: 10, root: 10)
private let reply21 = reply(21, to: 10, root: 10)
private let reply30 = reply(30, to: 20, root: 10)
private let reply40 = reply(40, to: 30, root: 10)
// A second thread: 11 ← 31.
private let root11 = standalone(11)
private let reply31 = reply(31, to: 11, root: 11)

/// A hand-written feed with the rows and counts the tuner must give.
struct TunerCase: Sendable, CustomTestStringConvertible {
    let name: String
    let feed: [Post]
    var known: [Post] = []
    var options = FeedTuner.Options()
    let expected: [TunedRow]
    var filtered = 0
    var duplicatesDropped = 0
    var repliesMerged = 0

    var testDescription: String { name }
}

private let hideReplies = FeedTuner.Options(hideReplies: true)
private let hideReposts = FeedTuner.Options(hideReposts: true)

private let tunerCases: [TunerCase] = [
    TunerCase(
        name: "standalone posts pass through in order",
        feed: [standalone(1), standalone(2), standalone(3)],
        expected: [TunedRow(1, .standalone), TunedRow(2, .standalone), TunedRow(3, .standalone)]
    ),
    TunerCase(
        name: "a reply with known parent and root shows root, parent, reply",
        feed: [reply30],
        known: [root10, reply20],
        expected: [TunedRow(10, .root), TunedRow(20, .parent), TunedRow(30, .reply)]
    ),
    TunerCase(
        name: "a reply to the root shows the root once",
        feed: [reply20],
        known: [root10],
        expected: [TunedRow(10, .root), TunedRow(20, .reply)]
    ),
    TunerCase(
        name: "a reply that names no root treats its parent as the root",
        feed: [reply(50, to: 10, root: nil)],
        known: [root10],
        expected: [TunedRow(10, .root), TunedRow(50, .reply)]
    ),
    TunerCase(
        name: "a missing parent marks the reply incomplete",
        feed: [reply30],
        known: [root10],
        expected: [TunedRow(10, .root), TunedRow(30, .reply, true)]
    ),
    TunerCase(
        name: "a missing root marks the reply incomplete",
        feed: [reply30],
        known: [reply20],
        expected: [TunedRow(20, .parent), TunedRow(30, .reply, true)]
    ),
    TunerCase(
        name: "a reply to the root with the root missing is incomplete",
        feed: [reply20],
        expected: [TunedRow(20, .reply, true)]
    ),
    TunerCase(
        name: "a reply with nothing found stands alone, incomplete",
        feed: [reply30],
        expected: [TunedRow(30, .reply, true)]
    ),
    TunerCase(
        name: "a gap between root and parent marks the reply incomplete",
        feed: [reply40],
        known: [root10, reply20, reply30],
        expected: [TunedRow(10, .root), TunedRow(30, .parent), TunedRow(40, .reply, true)]
    ),
    TunerCase(
        name: "a parent already shown higher up is left out and the slice marked incomplete",
        feed: [reply(60, to: 20, root: 12), reply30],
        known: [root10, reply20, standalone(12)],
        expected: [
            TunedRow(12, .root), TunedRow(20, .parent), TunedRow(60, .reply, true),
            TunedRow(10, .root), TunedRow(30, .reply, true),
        ]
    ),
    TunerCase(
        name: "two replies in one thread merge at the first one's position",
        feed: [standalone(1), reply30, standalone(2), reply21, standalone(3)],
        known: [root10, reply20],
        expected: [
            TunedRow(1, .standalone),
            TunedRow(10, .root), TunedRow(20, .parent), TunedRow(30, .reply),
            TunedRow(2, .standalone), TunedRow(3, .standalone),
        ],
        repliesMerged: 1
    ),
    TunerCase(
        name: "a root in the feed before its reply heads the slice at its own position",
        feed: [root10, standalone(5), reply30],
        known: [reply20],
        expected: [TunedRow(10, .root), TunedRow(20, .parent), TunedRow(30, .reply), TunedRow(5, .standalone)]
    ),
    TunerCase(
        name: "a root in the feed after its reply is shown once, as the slice's root",
        feed: [reply20, standalone(5), root10],
        expected: [TunedRow(10, .root), TunedRow(20, .reply), TunedRow(5, .standalone)]
    ),
    TunerCase(
        name: "a reply repeated later in the feed is dropped as a duplicate",
        feed: [reply30, standalone(5), reply30],
        known: [root10, reply20],
        expected: [TunedRow(10, .root), TunedRow(20, .parent), TunedRow(30, .reply), TunedRow(5, .standalone)],
        duplicatesDropped: 1
    ),
    TunerCase(
        name: "a reply in the feed that is another reply's parent is shown once, as parent",
        feed: [reply30, reply20],
        known: [root10, reply20],
        expected: [TunedRow(10, .root), TunedRow(20, .parent), TunedRow(30, .reply)],
        duplicatesDropped: 1
    ),
    TunerCase(
        name: "the same post twice keeps its first position",
        feed: [standalone(5), standalone(6), standalone(5)],
        expected: [TunedRow(5, .standalone), TunedRow(6, .standalone)],
        duplicatesDropped: 1
    ),
    TunerCase(
        name: "a post in two threads' context is shown in the first slice only",
        feed: [reply(60, to: 20, root: 10), reply(61, to: 20, root: 12)],
        known: [root10, reply20, standalone(12)],
        expected: [
            TunedRow(10, .root), TunedRow(20, .parent), TunedRow(60, .reply),
            TunedRow(12, .root), TunedRow(61, .reply, true),
        ]
    ),
    TunerCase(
        name: "hideReplies keeps self-threads and drops replies to others",
        feed: [
            reply(60, to: 10, root: 10, by: 2),
            standalone(5, by: 3),
            reply30,
            reply(70, to: 65, root: 10, by: 1),
            reply(80, to: 79, root: 78, by: 1),
        ],
        known: [root10, reply20, reply(65, to: 10, root: 10, by: 2)],
        options: hideReplies,
        expected: [TunedRow(5, .standalone), TunedRow(10, .root), TunedRow(20, .parent), TunedRow(30, .reply)],
        filtered: 3
    ),
    TunerCase(
        name: "hideReplies leaves a root on its own when its replies are hidden",
        feed: [root10, reply(60, to: 10, root: 10, by: 2)],
        options: hideReplies,
        expected: [TunedRow(10, .standalone)],
        filtered: 1
    ),
    TunerCase(
        name: "hideReposts drops reposted posts and replies",
        feed: [
            standalone(1),
            standalone(2, repostedBy: 9),
            reply(31, to: 11, root: 11, repostedBy: 9),
            standalone(3),
        ],
        known: [root11],
        options: hideReposts,
        expected: [TunedRow(1, .standalone), TunedRow(3, .standalone)],
        filtered: 2
    ),
    TunerCase(
        name: "hideReposts still shows a reposted root as a reply's context",
        feed: [standalone(10, repostedBy: 9), reply20],
        known: [root10],
        options: hideReposts,
        expected: [TunedRow(10, .root), TunedRow(20, .reply)],
        filtered: 1
    ),
    TunerCase(
        name: "slices keep the order of their first post",
        feed: [standalone(1), reply30, standalone(2), reply31, standalone(3), reply21, root11],
        known: [root10, reply20, root11],
        expected: [
            TunedRow(1, .standalone),
            TunedRow(10, .root), TunedRow(20, .parent), TunedRow(30, .reply),
            TunedRow(2, .standalone),
            TunedRow(11, .root), TunedRow(31, .reply),
            TunedRow(3, .standalone),
        ],
        repliesMerged: 1
    ),
]

@Suite("FeedTuner")
struct FeedTunerTests {
    @Test("Hand-written threads give exactly the expected rows and counts", arguments: tunerCases)
    func handWrittenThreads(_ tunerCase: TunerCase) {
        let tuned = tune(tunerCase.feed, known: tunerCase.known, options: tunerCase.options)
        #expect(tuned.items.map(TunedRow.init) == tunerCase.expected)
        #expect(tuned.postsExamined == tunerCase.feed.count)
        #expect(tuned.filtered == tunerCase.filtered)
        #expect(tuned.duplicatesDropped == tunerCase.duplicatesDropped)
        #expect(tuned.repliesMerged == tunerCase.repliesMerged)
    }

    @Test("Standalone posts come out unchanged")
    func standalonePostsUnchanged() {
        let feed = [
            standalone(1, by: 4),
            Post(id: 2, authorID: 5, textLength: 300, likeCount: 12, isLikedByViewer: true),
            standalone(3, by: 6, repostedBy: 7),
        ]
        let tuned = tune(feed)
        #expect(tuned.items == feed.map { FeedItem(post: $0) })
    }

    @Test("Only reply rows carry the incomplete mark; context rows never do")
    func incompleteMarkOnReplyRow() {
        let tuned = tune([reply40], known: [root10, reply30])
        #expect(tuned.items.map(\.isThreadIncomplete) == [false, false, true])
        #expect(tuned.items.last?.role == .reply)
    }

    @Test("Lookups: one for a reply to the root, two for a deeper reply, none for standalone posts")
    func lookupCounts() {
        #expect(tune([standalone(1), standalone(2)]).lookups == 0)
        #expect(tune([reply20], known: [root10]).lookups == 1)
        #expect(tune([reply30], known: [root10, reply20]).lookups == 2)
        #expect(tune([reply30, reply21], known: [root10, reply20]).lookups == 3)
        #expect(tune([reply30], options: hideReposts).lookups == 2)
        #expect(tune([reply(30, to: 20, root: 10, repostedBy: 9)], options: hideReposts).lookups == 0)
    }

    @Test("Standalone feeds with repeats keep each post at its first position")
    func standaloneOrderStability() {
        for caseNumber in 0..<500 {
            let seed = 0x7A_0000_0000 + UInt64(caseNumber)
            var random = SplitMix64(seed: seed)
            let ids = (0..<random.nextIndex(below: 20)).map { _ in PostID(1 + random.nextIndex(below: 8)) }
            var firstOccurrences: [PostID] = []
            for id in ids where !firstOccurrences.contains(id) {
                firstOccurrences.append(id)
            }
            let tuned = tune(ids.map { standalone($0) })
            #expect(
                tuned.items.map(\.id) == firstOccurrences,
                "seed \(seed): \(ids)"
            )
            #expect(tuned.items.allSatisfy { $0.role == .standalone }, "seed \(seed)")
            #expect(tuned.duplicatesDropped == ids.count - firstOccurrences.count, "seed \(seed)")
        }
    }

    @Test("Random thread forests: no id twice, nothing invented, no root lost, slices in first-post order")
    func randomForests() {
        let baseSeed: UInt64 = 0xF0_7E57_0000_0000
        let allOptions = [
            FeedTuner.Options(),
            FeedTuner.Options(hideReplies: true),
            FeedTuner.Options(hideReposts: true),
            FeedTuner.Options(hideReplies: true, hideReposts: true),
        ]
        for caseNumber in 0..<1_000 {
            let seed = baseSeed + UInt64(caseNumber)
            var random = SplitMix64(seed: seed)
            let forest = RandomForest(using: &random)
            for options in allOptions {
                let context = "seed \(seed) (case \(caseNumber)), \(options), feed \(forest.feed.map(\.id))"
                let tuner = FeedTuner(options: options)
                let tuned = tuner.tuneWithStats(forest.feed) { forest.known[$0] }
                let ids = tuned.items.map(\.id)
                let unique = Set(ids).count == ids.count
                #expect(unique, "duplicate id in \(ids): \(context)")
                guard unique else { continue }
                tuned._checkInvariants()
                #expect(tuner.tune(forest.feed) { forest.known[$0] } == tuned.items, "not deterministic: \(context)")

                let feedIDs = Set(forest.feed.map(\.id))
                #expect(
                    ids.allSatisfy { feedIDs.contains($0) || forest.known[$0] != nil },
                    "a row shows a post nobody gave: \(context)"
                )
                let kept = forest.feed.filter { !(options.hideReposts && $0.repostedBy != nil) }
                for post in kept where post.parentID == nil {
                    #expect(ids.contains(post.id), "standalone \(post.id) lost: \(context)")
                }
                for item in tuned.items where item.role == .reply {
                    #expect(feedIDs.contains(item.id), "reply row \(item.id) is not a feed post: \(context)")
                }
                #expect(tuned.postsExamined == forest.feed.count, "\(context)")
                let replies = forest.feed.count { $0.parentID != nil }
                #expect(tuned.lookups <= 2 * replies, "\(context)")
                if !options.hideReplies {
                    let reposts = options.hideReposts ? forest.feed.count { $0.repostedBy != nil } : 0
                    #expect(tuned.filtered == reposts, "\(context)")
                    let positions = Self.sliceThreads(of: tuned.items).map { Self.firstIndex(ofThread: $0, in: kept) }
                    #expect(
                        zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 },
                        "slices out of first-post order \(positions): \(context)"
                    )
                }
            }
        }
    }

    /// The thread each slice belongs to, read off its one standalone or
    /// reply row: the thread a feed post is grouped under.
    private static func sliceThreads(of items: [FeedItem]) -> [PostID] {
        items.compactMap { item in
            switch item.role {
            case .standalone: item.id
            case .reply: threadID(of: item.post)
            case .root, .parent: nil
            }
        }
    }

    private static func threadID(of post: Post) -> PostID {
        guard let parentID = post.parentID else {
            return post.id
        }
        return post.rootID ?? parentID
    }

    private static func firstIndex(ofThread thread: PostID, in feed: [Post]) -> Int {
        feed.firstIndex { threadID(of: $0) == thread } ?? .max
    }
}

/// A random forest of threads, a random subset of it known to the client,
/// and a random feed drawn from it with repeats and reposts. Some replies
/// name no root, and a reply to such a reply names the wrong one, so the
/// data is not always consistent.
private struct RandomForest {
    var feed: [Post] = []
    var known: [PostID: Post] = [:]

    init(using random: inout SplitMix64) {
        var posts: [Post] = []
        for number in 0..<(1 + random.nextIndex(below: 30)) {
            let id = PostID(100 + number)
            let author = UInt32(1 + random.nextIndex(below: 3))
            if posts.isEmpty || random.chance(percent: 30) {
                posts.append(Post(id: id, authorID: author, textLength: 40))
            } else {
                let parent = posts[random.nextIndex(below: posts.count)]
                let rootID = random.chance(percent: 90) ? (parent.rootID ?? parent.id) : nil
                posts.append(Post(id: id, authorID: author, textLength: 40, parentID: parent.id, rootID: rootID))
            }
        }
        for post in posts where random.chance(percent: 80) {
            known[post.id] = post
        }
        for _ in 0..<random.nextIndex(below: 40) {
            var post = posts[random.nextIndex(below: posts.count)]
            if random.chance(percent: 20) {
                post.repostedBy = UInt32(1 + random.nextIndex(below: 3))
            }
            feed.append(post)
        }
    }
}
