import FeedEngine

/// Measures how long the reader waits for images: for each post with media
/// whose cell a frame shows, the time from the first frame that shows it to
/// the first frame that shows it with its image (0 when the image was in
/// memory as the cell was first configured, Nuke's memory-cache fast path).
///
/// Like the drift meter, it watches frames rather than trusting the engine's
/// account of itself: a post counts as showing its image in a frame whose
/// visible rows include it while the decoded image is in the memory cache,
/// the one place a cell's image comes from. A post that leaves the screen
/// before its image arrives is still waited for, and is served when a later
/// frame shows it with its image.
///
/// A wait still open when the screen goes away (the app leaves the
/// foreground or is killed, or the run ends) is closed there with the time
/// waited so far: a lower bound, counted so that a policy whose images never
/// arrive is not scored on the few that did.
struct ImageWaitMeter {
    /// When a frame first showed each post still waiting for its image, by
    /// the image's key (which hashes cheaper than a bare id).
    private var waitingSince: [ImageKey: SimTime] = [:]
    /// The images of posts a frame has shown them with, or whose wait has
    /// been closed.
    private var served: Set<ImageKey> = []
    /// Every closed wait, in nanoseconds, in the order they closed.
    private(set) var waits: [SimTime] = []
    /// The served posts the last frame showed: a frame mostly shows the
    /// last one's posts, found here by a few comparisons instead of a hash.
    private var lastShownServed: [PostID] = []
    /// Where a frame gathers its served posts (kept to reuse its storage).
    private var shownServed: [PostID] = []
    /// The rows the last frame showed, when every post with media among
    /// them was served: a frame that shows the same rows of the same items
    /// (three in four frames of a scroll session) changes nothing.
    private var lastAllServed: (visible: Range<Int>, list: ObjectIdentifier, revision: UInt32)?

    /// A frame rendered at `time` showing `visible`'s rows of `list`.
    ///
    /// - Complexity: O(*v*) expected for the *v* visible rows.
    mutating func frameShown(_ visible: Range<Int>, list: FeedListView, images: ImagePipeline, at time: SimTime) {
        let revision = list.itemsRevision
        if let last = lastAllServed, last.visible == visible, last.revision == revision, last.list == list.listIdentity
        {
            return
        }
        shownServed.removeAll(keepingCapacity: true)
        var allServed = true
        list.items.withUnsafeBufferPointer { items in
            for index in visible where index < items.count && items[index].post.hasMedia {
                let id = items[index].post.id
                let key = ImageKey(postID: id)
                guard !lastShownServed.contains(id), !served.contains(key) else {
                    shownServed.append(id)
                    continue
                }
                if images.isInMemory(key) {
                    waits.append(time - (waitingSince.removeValue(forKey: key) ?? time))
                    served.insert(key)
                    shownServed.append(id)
                } else {
                    allServed = false
                    if waitingSince[key] == nil { waitingSince[key] = time }
                }
            }
        }
        swap(&lastShownServed, &shownServed)
        lastAllServed = allServed ? (visible, list.listIdentity, revision) : nil
    }

    /// The screen went away at `time`: every open wait closes with the time
    /// waited so far, in the order the posts were first shown.
    mutating func screenGone(at time: SimTime) {
        lastAllServed = nil
        for (key, since) in waitingSince.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            waits.append(time - since)
            served.insert(key)
        }
        waitingSince.removeAll()
    }

    /// The waits' summary after `screenGone` closed the open ones.
    func summary() -> ImageWaitSummary {
        let sorted = waits.sorted()
        return ImageWaitSummary(
            posts: sorted.count,
            p50: NearestRank.percentile(sorted, 0.50) ?? 0,
            p95: NearestRank.percentile(sorted, 0.95) ?? 0)
    }
}

/// How long a run's readers waited for images on screen.
package struct ImageWaitSummary: Sendable, Equatable, Codable {
    /// Posts with media a frame showed.
    package var posts: Int
    /// Nearest-rank median wait, in nanoseconds; 0 when no post with media was shown.
    package var p50: SimTime
    /// Nearest-rank 95th percentile wait, in nanoseconds; 0 when none was shown.
    package var p95: SimTime

    package init(posts: Int = 0, p50: SimTime = 0, p95: SimTime = 0) {
        self.posts = posts
        self.p50 = p50
        self.p95 = p95
    }
}
