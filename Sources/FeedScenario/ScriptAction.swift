import FeedEngine

// Everything a script action is, in one place: its case, its kind (the name
// scenario files and explore's weights give it) and what the kind means to
// the simulation and to explore's shrinker. Adding an action starts here;
// the compiler then lists every other place that must say what it does
// (docs/extending.md, "Adding a script action").

/// The actions a script can take.
package enum ScriptAction: Sendable, Equatable {
    /// A finger drag along `trajectory`, then a release.
    case drag(trajectory: [TrajectoryPoint], release: DragRelease, deceleration: DecelerationRate)
    /// A flick that leaves the scroll view decelerating from `velocityPtPerS`
    /// (positive scrolls towards later posts).
    case fling(velocityPtPerS: Double, deceleration: DecelerationRate)
    /// The app refreshes the feed by itself (a tab re-tap, a timer).
    case refresh
    /// `count` new posts appear on the server; with `push` they are also
    /// delivered to the app as a live update.
    case newPosts(count: Int, push: Bool)
    /// The reader taps the "new posts" indicator.
    case tapNewPosts
    /// The reader taps the status bar: an animated scroll to the top.
    case scrollToTop
    /// The content scrolls to `target`, animated or at once (a deep link,
    /// a tab re-selection, a test putting the reader at an exact place).
    case scrollTo(target: ScrollTarget, animated: Bool)
    /// The reader pulls the content `distancePt` past the top over
    /// `durationNs` and holds it there for `holdNs` before lifting the
    /// finger: the refresh starts while the finger is down.
    case pull(distancePt: Double, durationNs: Int64, holdNs: Int64)
    /// `count` posts are deleted on the server at `place`; with `push` the
    /// app is told at once, otherwise it finds out at its next refresh.
    case removePosts(count: Int, place: RemovalPlace, push: Bool)
    /// The reader taps like on the first visible post.
    case like
    /// `count` posts on screen change on the server (like counts), pushed to the app.
    case contentUpdates(count: Int)
    /// The device rotates or the window resizes to `widthPt` × `heightPt`.
    case rotate(widthPt: Double, heightPt: Double)
    /// The reader changes the Dynamic Type size to `scale` (1 is the default).
    case textSize(scale: Double)
    /// The app goes to the background for `durationNs`, then returns.
    case background(durationNs: Int64)
    /// The system terminates the app; the reader relaunches it after `relaunchAfterNs`.
    case terminate(relaunchAfterNs: Int64)
    /// The system sends a memory warning.
    case memoryWarning
}

extension ScriptAction {
    /// A kind of script action, by its name in a scenario file; the cases'
    /// order is the schema's, the order explore's weights follow.
    package enum Kind: String, CodingKey, CaseIterable, Sendable {
        case drag, fling, refresh, new_posts, tap_new_posts, scroll_to_top, like, content_updates, rotate, text_size
        case background, terminate, memory_warning, scroll_to, pull, remove_posts
    }

    /// The action's kind.
    package var kind: Kind {
        switch self {
        case .drag: .drag
        case .fling: .fling
        case .refresh: .refresh
        case .newPosts: .new_posts
        case .tapNewPosts: .tap_new_posts
        case .scrollToTop: .scroll_to_top
        case .scrollTo: .scroll_to
        case .pull: .pull
        case .removePosts: .remove_posts
        case .like: .like
        case .contentUpdates: .content_updates
        case .rotate: .rotate
        case .textSize: .text_size
        case .background: .background
        case .terminate: .terminate
        case .memoryWarning: .memory_warning
        }
    }

    /// The action's name in a scenario file.
    package var fileName: String { kind.rawValue }
}

extension ScriptAction.Kind {
    /// Whether the action happens on the app's screen (a touch, a tap, a
    /// new size or text size, a refresh the app starts itself), and so does
    /// nothing while the app is in the background or terminated. What
    /// happens on the server and what the system does (a memory warning, a
    /// termination, going to the background) need no screen.
    package var needsForeground: Bool {
        switch self {
        case .drag, .fling, .tap_new_posts, .scroll_to_top, .scroll_to, .pull, .like, .rotate, .text_size, .refresh:
            true
        case .new_posts, .content_updates, .remove_posts, .background, .terminate, .memory_warning: false
        }
    }

    /// Whether the action moves the reader through the feed, by finger or
    /// by tap: the drift meter starts a reader's motion, and the post held
    /// on a resting screen stops being watched.
    package var movesReader: Bool {
        switch self {
        case .drag, .fling, .pull, .tap_new_posts, .scroll_to_top, .scroll_to: true
        case .refresh, .new_posts, .like, .content_updates, .rotate, .text_size, .background, .terminate,
            .memory_warning,
            .remove_posts:
            false
        }
    }

    /// Whether the action begins a pan of the scroll view, which the engine
    /// hears as `scrollViewWillBeginDragging` before the content moves.
    /// Every such action also moves the reader.
    package var startsPan: Bool {
        switch self {
        case .drag, .fling, .pull: true
        case .refresh, .new_posts, .tap_new_posts, .scroll_to_top, .like, .content_updates, .rotate, .text_size,
            .background,
            .terminate, .memory_warning, .scroll_to, .remove_posts:
            false
        }
    }

    /// Whether the action takes the app off the screen (to the background,
    /// or terminated), which ends the watch on the post held on screen.
    package var takesAppOffScreen: Bool {
        switch self {
        case .background, .terminate: true
        case .drag, .fling, .refresh, .new_posts, .tap_new_posts, .scroll_to_top, .like, .content_updates, .rotate,
            .text_size,
            .memory_warning, .scroll_to, .pull, .remove_posts:
            false
        }
    }

    /// Whether the action does nothing but move the content: the reader's
    /// way to a place, which explore's shrinker may replace by one jump.
    /// A pull moves the reader too but starts a refresh, and a tap on the
    /// "new posts" indicator shows new posts: neither is only a motion.
    package var onlyMovesContent: Bool {
        switch self {
        case .drag, .fling, .scroll_to, .scroll_to_top: true
        case .refresh, .new_posts, .tap_new_posts, .like, .content_updates, .rotate, .text_size, .background,
            .terminate,
            .memory_warning, .pull, .remove_posts:
            false
        }
    }
}
