import DequeModule

/// What a lazy stack does with a row's view once it scrolls off screen.
/// Sources, with times: docs/swiftui-hosts.md, "Row views kept alive".
package enum RowRetention: String, Sendable, CaseIterable {
    /// Kept, not rendered or updated, for a number of updates in case it
    /// scrolls back, then freed with its state (WWDC26 session 321,
    /// 16:59–17:13). The number is not stated: `row_kept_updates`.
    case released
    /// Every row loaded so far kept alive: a row whose body resolves to a
    /// varying number of views (an `if` in it) makes the stack address rows
    /// by index, so it cannot let earlier ones go, and every environment
    /// change re-runs their bodies (session 321, 11:15–12:50). Older
    /// third-party reports describe this for every lazy stack.
    case pinned
}

/// How a lazy stack keeps row views off screen: `FeedEngineConfiguration.rowViews`.
package struct RowViewSettings: Hashable, Sendable {
    package var policy: RowRetention
    /// Updates a row's view is kept after it leaves the screen (`released`).
    package var keptUpdates: Int
    /// Memory one kept row view holds, in bytes.
    package var rowViewBytes: Int

    package init(policy: RowRetention, keptUpdates: Int, rowViewBytes: Int) {
        self.policy = policy
        self.keptUpdates = keptUpdates
        self.rowViewBytes = rowViewBytes
    }
}

/// The row views a lazy stack keeps alive off screen, and the bodies it runs
/// again for them. A collection view (and `List`, built on one) reuses the
/// cells that leave the screen, so its engines keep none.
///
/// An *update* is one layout pass of the stack: a screen that does not move
/// or change has none, so the rows it keeps stay kept.
struct RowViewRetention {
    let configuration: RowViewSettings?
    /// The update each kept off-screen row left the screen in. Only looked
    /// up, counted and filtered: its order reaches nothing.
    private var offScreen: [PostID: Int] = [:]
    /// The rows in the order they left the screen, with that update: the
    /// release takes them from the front. An entry whose row came back on
    /// screen (or left again later) no longer matches `offScreen` and is
    /// skipped.
    private var departures = Deque<(id: PostID, update: Int)>()
    private var update = 0

    init(_ configuration: RowViewSettings?) {
        self.configuration = configuration
    }

    /// Rows kept alive off screen.
    var keptCount: Int { offScreen.count }

    /// Memory the kept rows hold, in bytes.
    var bytes: Int { offScreen.count * (configuration?.rowViewBytes ?? 0) }

    /// The row's view is on screen (made now, or kept and shown again).
    mutating func appeared(_ id: PostID) {
        guard configuration != nil else { return }
        offScreen[id] = nil
    }

    /// The row left the screen; its view stays for now.
    mutating func disappeared(_ id: PostID) {
        guard let configuration else { return }
        offScreen[id] = update
        if configuration.policy == .released { departures.append((id, update)) }
    }

    /// One layout pass ended: under `released`, rows off screen for more
    /// than `keptUpdates` updates are freed.
    mutating func endUpdate() {
        guard let configuration else { return }
        update += 1
        let oldest = update - configuration.keptUpdates
        while let first = departures.first, first.update < oldest {
            departures.removeFirst()
            if offScreen[first.id] == first.update { offScreen[first.id] = nil }
        }
    }

    /// Rows whose post left the feed end with their identity (their
    /// entries in `departures` are skipped when they come up).
    mutating func keepOnly(rowsIn items: [FeedItem]) {
        guard !offScreen.isEmpty else { return }
        let ids = Set(items.lazy.map(\.id))
        offScreen = offScreen.filter { ids.contains($0.key) }
    }

    /// The indices in `items` of the rows whose bodies an environment change
    /// (a text size) runs again off screen, in order: the pinned ones. A
    /// released row is not updated off screen.
    func rowsUpdatedByEnvironment(in items: [FeedItem]) -> [Int] {
        guard configuration?.policy == .pinned, !offScreen.isEmpty else { return [] }
        return items.indices.filter { offScreen[items[$0].id] != nil }
    }
}
