/// Computes the changes from `old` to `new` with Paul Heckel's algorithm
/// ("A technique for isolating differences between files", Communications of
/// the ACM 21(4), 1978), matching elements by `id` and reporting an update
/// for every matched element whose content (`==`) changed.
///
/// Ids are assumed unique within each array, as in a feed. Duplicates are
/// handled without failing, in the spirit of Heckel's own treatment of
/// repeated lines: an id that occurs equally often in both arrays has its
/// occurrences paired in order; an id that occurs a different number of times
/// is matched only where it continues a run of matched neighbours (passes 4
/// and 5), and its remaining occurrences become deletes and inserts.
///
/// Moves are reported only for elements whose relative order changed. Of the
/// matched elements, the longest subsequence that is in the same order in
/// both arrays stays put and every other matched element is a move, so the
/// number of moves is the minimum that explains the reordering; an element
/// that only shifts because of inserts or deletes around it is not a move.
/// When several longest subsequences exist, the one ending in the smallest
/// old index stays (then the smallest before it, and so on), so the result
/// is deterministic: swapping two neighbours moves the one that was behind.
///
/// - Returns: A changeset whose lists are sorted as documented on
///   `Changeset`, and whose `elementsCompared` counts the id lookups and the
///   id and content comparisons made.
/// - Complexity: O(*n* + *m*) expected for passes 1–6, where *n* and *m*
///   are the lengths of `old` and `new`, plus O(*k* log *k*) to choose the
///   moves among the *k* matched elements.
@inlinable
package func heckelDiff<E: Identifiable & Equatable>(
    from old: [E],
    to new: [E]
) -> Changeset where E.ID: Hashable {
    let unlinked = -1
    var work = 0

    // The symbol table: one entry per distinct id, in parallel arrays.
    let expectedSymbols = Swift.max(old.count, new.count)
    var symbolOfID: [E.ID: Int] = [:]
    symbolOfID.reserveCapacity(expectedSymbols)
    var newCounter: [Int] = []
    var oldCounter: [Int] = []
    newCounter.reserveCapacity(expectedSymbols)
    oldCounter.reserveCapacity(expectedSymbols)
    // Old occurrences of each symbol, in order, as a linked list through
    // `nextOldOccurrence`, so that pass 3 can pair duplicates without
    // allocating per symbol.
    var firstOldOccurrence: [Int] = []
    var lastOldOccurrence: [Int] = []
    firstOldOccurrence.reserveCapacity(expectedSymbols)
    lastOldOccurrence.reserveCapacity(expectedSymbols)
    var nextOldOccurrence = [Int](repeating: unlinked, count: old.count)

    // One hash lookup per element: the defaulted subscript inserts the next
    // symbol number when the id is new, and the caller sees which it got.
    func symbol(for id: E.ID) -> Int {
        let next = newCounter.count
        let found = _readOrInsert(&symbolOfID[id, default: next])
        if found == next {
            newCounter.append(0)
            oldCounter.append(0)
            firstOldOccurrence.append(unlinked)
            lastOldOccurrence.append(unlinked)
        }
        return found
    }

    // Pass 1: read the new array; each element's id gets a symbol-table
    // entry, whose new-occurrence counter is incremented (Heckel's NC), and
    // NA[i] points at the entry.
    var newSymbol = [Int](repeating: unlinked, count: new.count)
    for i in new.indices {
        let s = symbol(for: new[i].id)
        newCounter[s] += 1
        newSymbol[i] = s
    }
    work += new.count

    // Pass 2: the same for the old array (Heckel's OC and OA), also
    // remembering where each id occurs (Heckel's OLNO, generalised to a list
    // so that repeated ids can be paired).
    var oldSymbol = [Int](repeating: unlinked, count: old.count)
    for j in old.indices {
        let s = symbol(for: old[j].id)
        oldCounter[s] += 1
        oldSymbol[j] = s
        if lastOldOccurrence[s] == unlinked {
            firstOldOccurrence[s] = j
        } else {
            nextOldOccurrence[lastOldOccurrence[s]] = j
        }
        lastOldOccurrence[s] = j
    }
    work += old.count

    // Pass 3: link the elements that certainly correspond. Heckel links
    // lines that occur exactly once in each file; an id that occurs equally
    // often in both arrays is linked occurrence by occurrence, in order,
    // which is the same rule when both counts are one.
    var newToOld = [Int](repeating: unlinked, count: new.count)
    var oldToNew = [Int](repeating: unlinked, count: old.count)
    var pairingCursor = firstOldOccurrence
    for i in new.indices {
        let s = newSymbol[i]
        guard newCounter[s] == oldCounter[s] else { continue }
        let j = pairingCursor[s]
        pairingCursor[s] = nextOldOccurrence[j]
        newToOld[i] = j
        oldToNew[j] = i
    }

    // Pass 4: ascending. If new[i] is linked to old[j] and the next
    // elements of both arrays are unlinked and share an id, link them; the
    // link then propagates along the run.
    if new.count > 1 {
        for i in 0..<(new.count - 1) {
            let j = newToOld[i]
            guard j != unlinked, j + 1 < old.count,
                newToOld[i + 1] == unlinked, oldToNew[j + 1] == unlinked
            else { continue }
            work += 1
            if newSymbol[i + 1] == oldSymbol[j + 1] {
                newToOld[i + 1] = j + 1
                oldToNew[j + 1] = i + 1
            }
        }
    }

    // Pass 5: descending, the mirror of pass 4 for the preceding elements.
    if new.count > 1 {
        for i in stride(from: new.count - 1, to: 0, by: -1) {
            let j = newToOld[i]
            guard j > 0, newToOld[i - 1] == unlinked, oldToNew[j - 1] == unlinked else {
                continue
            }
            work += 1
            if newSymbol[i - 1] == oldSymbol[j - 1] {
                newToOld[i - 1] = j - 1
                oldToNew[j - 1] = i - 1
            }
        }
    }

    // Pass 6: read the links off. Unlinked old elements are deletes, unlinked
    // new elements are inserts, linked pairs with different content are
    // updates, and linked pairs outside the longest order-preserving
    // subsequence are moves.
    var changeset = Changeset()
    for j in old.indices {
        let i = oldToNew[j]
        if i == unlinked {
            changeset.deletes.append(j)
        } else {
            work += 1
            if old[j] != new[i] { changeset.updates.append(j) }
        }
    }
    var matchedOldIndices: [Int] = []
    matchedOldIndices.reserveCapacity(new.count)
    for i in new.indices {
        let j = newToOld[i]
        if j == unlinked {
            changeset.inserts.append(i)
        } else {
            matchedOldIndices.append(j)
        }
    }
    let staysInOrder = _longestIncreasingSubsequenceMembership(matchedOldIndices)
    var matchedPosition = 0
    for i in new.indices where newToOld[i] != unlinked {
        if !staysInOrder[matchedPosition] {
            changeset.moves.append(Changeset.Move(from: newToOld[i], to: i))
        }
        matchedPosition += 1
    }
    changeset.elementsCompared = work
    return changeset
}

/// The value in `slot`, read through an `inout` access so that a
/// dictionary's defaulted subscript finds or inserts in one hash lookup.
@inlinable
internal func _readOrInsert(_ slot: inout Int) -> Int {
    slot
}

/// Marks the members of one longest strictly increasing subsequence of
/// `values` (patience sorting with predecessor links).
///
/// Among several longest subsequences it picks the one whose last value is
/// smallest, then whose second-to-last value is smallest, and so on.
///
/// - Complexity: O(*k* log *k*) for *k* values.
@usableFromInline
internal func _longestIncreasingSubsequenceMembership(_ values: [Int]) -> [Bool] {
    // tailPosition[l] is the position of the smallest value that ends an
    // increasing subsequence of length l + 1 found so far.
    var tailPosition: [Int] = []
    tailPosition.reserveCapacity(values.count)
    var predecessor = [Int](repeating: -1, count: values.count)
    for position in values.indices {
        let value = values[position]
        var low = 0
        var high = tailPosition.count
        while low < high {
            let middle = (low + high) / 2
            if values[tailPosition[middle]] < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        if low > 0 { predecessor[position] = tailPosition[low - 1] }
        if low == tailPosition.count {
            tailPosition.append(position)
        } else {
            tailPosition[low] = position
        }
    }
    var isMember = [Bool](repeating: false, count: values.count)
    var position = tailPosition.last ?? -1
    while position >= 0 {
        isMember[position] = true
        position = predecessor[position]
    }
    return isMember
}
