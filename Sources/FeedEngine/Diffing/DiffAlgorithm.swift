/// A way of computing the changes between two snapshots of a feed; the raw
/// values are the names scenario files use.
///
/// `@usableFromInline`, so that `diff(from:to:)`, which is `@inlinable`, is
/// specialized in the other modules that call it (the benchmarks): Swift
/// 6.3 specializes no `@inlinable` generic method of a `package` type in
/// another module without it, and calls the generic entry point instead,
/// whose `collectionDifference` allocates about twice an element more than
/// the diff specialized for `FeedItem` (10,000 items: 98K allocations
/// instead of 78K).
@usableFromInline
package enum DiffAlgorithm: String, Sendable, CaseIterable {
    /// Heckel's O(*n*) algorithm over element ids; see `heckelDiff(from:to:)`.
    case heckel
    /// The standard library's `CollectionDifference` (Myers' algorithm) over
    /// element ids, with moves inferred, plus updates for matched elements
    /// whose content changed.
    case collectionDifference = "collection_difference"
    /// No diff: every old element is deleted and every new one inserted, as
    /// `reloadData()` does.
    case reloadAll = "reload_all"

    /// Computes the changes from `old` to `new` with this algorithm.
    ///
    /// Applying the result with `Changeset.apply(to:newElements:)` to `old`
    /// gives `new` for every algorithm; they differ in how many changes they
    /// report and how much work (`elementsCompared`) they do.
    ///
    /// - Complexity: `heckel`: O(*n* + *m* + *k* log *k*), see
    ///   `heckelDiff(from:to:)`. `collectionDifference`: O((*n* + *m*) · *d*)
    ///   for *d* differences. `reloadAll`: O(*n* + *m*).
    @inlinable
    package func diff<E: Identifiable & Equatable>(
        from old: [E],
        to new: [E]
    ) -> Changeset where E.ID: Hashable {
        switch self {
        case .heckel:
            return heckelDiff(from: old, to: new)
        case .collectionDifference:
            return _myersDiff(from: old, to: new)
        case .reloadAll:
            return Changeset(deletes: Array(old.indices), inserts: Array(new.indices))
        }
    }
}

/// The changes from `old` to `new` found by the standard library's
/// `difference(from:by:)` over the ids, with `inferringMoves()`.
///
/// The ids are diffed rather than the elements so that moves can be
/// inferred (that needs `Hashable` elements) and so that an element whose
/// content changed is still a match; a matched element whose content changed
/// then becomes an update. `elementsCompared` counts the id comparisons the
/// standard library asked for and the content comparisons made here, so it
/// follows the standard library's implementation.
///
/// - Complexity: O((*n* + *m*) · *d*) for *d* differences.
@inlinable
internal func _myersDiff<E: Identifiable & Equatable>(
    from old: [E],
    to new: [E]
) -> Changeset where E.ID: Hashable {
    var work = 0
    let oldIDs = old.map(\.id)
    let newIDs = new.map(\.id)
    let difference = newIDs.difference(from: oldIDs) { oldID, newID in
        work += 1
        return oldID == newID
    }.inferringMoves()

    var changeset = Changeset()
    var oldLeaves = [Bool](repeating: false, count: old.count)
    var newArrives = [Bool](repeating: false, count: new.count)
    for change in difference {
        switch change {
        case .remove(let offset, _, let associatedWith):
            oldLeaves[offset] = true
            if associatedWith == nil { changeset.deletes.append(offset) }
        case .insert(let offset, _, let associatedWith):
            newArrives[offset] = true
            if let movedFrom = associatedWith {
                changeset.moves.append(Changeset.Move(from: movedFrom, to: offset))
            } else {
                changeset.inserts.append(offset)
            }
        }
    }
    changeset.deletes.sort()
    changeset.inserts.sort()
    changeset.moves.sort { $0.to < $1.to }

    // Elements that neither leave nor arrive correspond in order.
    var oldUpdated = [Bool](repeating: false, count: old.count)
    var oldIndex = 0
    for newIndex in new.indices where !newArrives[newIndex] {
        while oldLeaves[oldIndex] { oldIndex += 1 }
        work += 1
        if old[oldIndex] != new[newIndex] { oldUpdated[oldIndex] = true }
        oldIndex += 1
    }
    for move in changeset.moves {
        work += 1
        if old[move.from] != new[move.to] { oldUpdated[move.from] = true }
    }
    changeset.updates = old.indices.filter { oldUpdated[$0] }
    changeset.elementsCompared = work
    return changeset
}
