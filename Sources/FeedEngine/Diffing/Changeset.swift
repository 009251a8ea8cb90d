/// The changes that turn one array of identified elements into another,
/// expressed the way `UICollectionView.performBatchUpdates` consumes them.
///
/// Indices follow the batch-update convention: `deletes`, move sources and
/// `updates` are positions in the *old* array; `inserts` and move
/// destinations are positions in the *new* array. An element that keeps its
/// identity and its relative order appears in none of the lists (it may still
/// shift because of deletes and inserts around it).
///
/// An element whose relative order changed *and* whose content changed is
/// listed both in `moves` and in `updates`. `UICollectionView` rejects a
/// reload and a move of the same item in one batch, so a UIKit client splits
/// such an element into a delete and an insert, as IGListKit does.
///
/// Equality compares the described changes only; `elementsCompared` is a
/// measurement of how the changeset was found, not part of what it says,
/// in the way an array's capacity is not part of its value.
public struct Changeset: Sendable {
    /// An element that changed its relative order.
    public struct Move: Hashable, Sendable {
        /// The element's index in the old array.
        public var from: Int
        /// The element's index in the new array.
        public var to: Int

        /// Creates a move from an old index to a new index.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Old indices of elements absent from the new array, ascending.
    public var deletes: [Int]
    /// New indices of elements absent from the old array, ascending.
    public var inserts: [Int]
    /// Elements present in both arrays whose relative order changed,
    /// ascending by destination.
    public var moves: [Move]
    /// Old indices of elements present in both arrays (same id) whose
    /// content changed, ascending.
    public var updates: [Int]
    /// The number of element-level operations the diff performed (id
    /// lookups, id comparisons and content comparisons), so that a cost model
    /// can charge the diff per element without timing it.
    public var elementsCompared: Int

    /// Creates a changeset from its parts.
    public init(
        deletes: [Int] = [],
        inserts: [Int] = [],
        moves: [Move] = [],
        updates: [Int] = [],
        elementsCompared: Int = 0
    ) {
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
        self.updates = updates
        self.elementsCompared = elementsCompared
    }

    /// The number of individual changes: deletes, inserts, moves and updates.
    ///
    /// - Complexity: O(1)
    public var changeCount: Int {
        deletes.count + inserts.count + moves.count + updates.count
    }

    /// Whether the changeset describes no change at all.
    ///
    /// - Complexity: O(1)
    public var isEmpty: Bool {
        changeCount == 0
    }
}

extension Changeset: Equatable {
    /// Whether two changesets describe the same changes, in the same order;
    /// `elementsCompared` is not compared.
    public static func == (lhs: Changeset, rhs: Changeset) -> Bool {
        lhs.deletes == rhs.deletes
            && lhs.inserts == rhs.inserts
            && lhs.moves == rhs.moves
            && lhs.updates == rhs.updates
    }
}

extension Changeset {
    /// Whether the changeset is a valid batch update from an array of
    /// `oldCount` elements to one of `newCount` elements.
    ///
    /// Valid means: every index is in range for the array it refers to; no
    /// old index is both deleted and moved, or deleted and updated; no new
    /// index is both inserted and a move destination; no index repeats within
    /// a list; and the elements that neither leave nor arrive are as many on
    /// both sides. These are the conditions `UICollectionView` checks before
    /// it accepts a batch.
    ///
    /// - Complexity: O(`oldCount` + `newCount` + `changeCount`)
    public func isConsistent(oldCount: Int, newCount: Int) -> Bool {
        guard oldCount >= 0, newCount >= 0 else { return false }
        var oldDeleted = [Bool](repeating: false, count: oldCount)
        var oldLeaves = [Bool](repeating: false, count: oldCount)
        var newArrives = [Bool](repeating: false, count: newCount)
        var oldUpdated = [Bool](repeating: false, count: oldCount)

        for index in deletes {
            guard (0..<oldCount).contains(index), !oldLeaves[index] else { return false }
            oldDeleted[index] = true
            oldLeaves[index] = true
        }
        for index in inserts {
            guard (0..<newCount).contains(index), !newArrives[index] else { return false }
            newArrives[index] = true
        }
        for move in moves {
            guard (0..<oldCount).contains(move.from), !oldLeaves[move.from],
                (0..<newCount).contains(move.to), !newArrives[move.to]
            else { return false }
            oldLeaves[move.from] = true
            newArrives[move.to] = true
        }
        for index in updates {
            guard (0..<oldCount).contains(index), !oldUpdated[index], !oldDeleted[index] else {
                return false
            }
            oldUpdated[index] = true
        }
        return oldCount - deletes.count == newCount - inserts.count
    }

    /// Applies the changeset to `old` the way a collection view applies a
    /// batch update, and returns the resulting array.
    ///
    /// Elements that stay keep their relative order and fill, in order, the
    /// new positions that are neither inserts nor move destinations. Inserted
    /// elements, and the new contents of updated elements, are taken from
    /// `newElements`; every other element is carried over from `old`. So the
    /// result equals `newElements` exactly when the changeset is a correct
    /// diff from `old` to `newElements`, which is what makes this the check
    /// for a diff algorithm.
    ///
    /// - Precondition: `isConsistent(oldCount: old.count, newCount: newElements.count)`.
    /// - Complexity: O(`old.count` + `newElements.count` + `changeCount`)
    public func apply<Element>(to old: [Element], newElements: [Element]) -> [Element] {
        precondition(
            isConsistent(oldCount: old.count, newCount: newElements.count),
            "Changeset is not a valid batch update from \(old.count) to \(newElements.count) elements"
        )
        var oldLeaves = [Bool](repeating: false, count: old.count)
        var oldUpdated = [Bool](repeating: false, count: old.count)
        var newSource = [_NewPositionSource](repeating: .stayingElement, count: newElements.count)

        for index in deletes { oldLeaves[index] = true }
        for index in updates { oldUpdated[index] = true }
        for index in inserts { newSource[index] = .insertedElement }
        for move in moves {
            oldLeaves[move.from] = true
            newSource[move.to] = .movedElement(from: move.from)
        }

        var result: [Element] = []
        result.reserveCapacity(newElements.count)
        var nextStayer = 0
        for newIndex in newElements.indices {
            let oldIndex: Int
            switch newSource[newIndex] {
            case .insertedElement:
                result.append(newElements[newIndex])
                continue
            case .movedElement(let movedFrom):
                oldIndex = movedFrom
            case .stayingElement:
                while oldLeaves[nextStayer] { nextStayer += 1 }
                oldIndex = nextStayer
                nextStayer += 1
            }
            result.append(oldUpdated[oldIndex] ? newElements[newIndex] : old[oldIndex])
        }
        return result
    }
}

/// Where the element at a position of the new array comes from during
/// `Changeset.apply(to:newElements:)`.
private enum _NewPositionSource {
    /// The next old element that neither leaves nor moves.
    case stayingElement
    /// The new array itself.
    case insertedElement
    /// The old element at `from`.
    case movedElement(from: Int)
}
